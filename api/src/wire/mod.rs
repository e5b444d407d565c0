//! Wire types: what clients send and receive. Converted explicitly from and to domain types so
//! the database and the rules can change without breaking clients.

mod combatant;
mod creature;
mod dice;
mod effect;
mod encounter;
mod event;
mod export;
mod initiative;
pub mod lenient;
mod operation;
mod ruleset;
mod template;
mod undo;
mod viewer;
mod webhook;

pub use combatant::*;
pub use creature::*;
pub use dice::*;
pub use effect::*;
pub use encounter::*;
pub use event::*;
pub use export::*;
pub use initiative::*;
pub use operation::*;
pub use ruleset::*;
pub use template::*;
pub use undo::*;
pub use viewer::*;
pub use webhook::*;

/// Most ids a list in a request may hold.
pub const MAX_LIST_LEN: usize = 200;

/// Refuses a request list longer than [`MAX_LIST_LEN`].
pub fn check_list_len<T>(field: &str, list: &[T]) -> Result<(), crate::error::ApiError> {
    if list.len() > MAX_LIST_LEN {
        let detail = format!("at most {MAX_LIST_LEN} entries, got {}", list.len());
        return Err(crate::error::ApiError::invalid(field, detail));
    }
    Ok(())
}
