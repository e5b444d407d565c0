//! The d100 modifier type under a short path. There is one `Modifier` for the whole ruleset: it is
//! defined, with its cap and checks, in `test_modifiers.rs` and only re-exported here, so the
//! attack rules and the Action List (`actions/`) share it.

pub use super::test_modifiers::{
    CallerModifier, MODIFIER_CAP, Modifier, ModifierCode, ModifierTotal, caller, check_modifiers, total,
};
