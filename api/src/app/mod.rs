//! What every route shares: the application's state and the helpers that read and change an
//! encounter through the store. Routes import this module; it imports no route.

mod read;
mod state;
mod streams;
mod viewing;
mod write;

pub use read::{encounter_answer, load, ruleset_of};
pub use state::AppState;
pub use streams::{last_event_id, open_stream, open_viewer_stream};
pub use viewing::{grant_in_path, viewer_encounter};
pub use write::{change, idempotent, mutate, new_id, render_plain};
