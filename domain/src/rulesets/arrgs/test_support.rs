//! Builders for ARRGS tests.

use super::fighter::{Fighter, Options, Scene};
use super::stats::Stats;
use crate::encounter::CombatantId;

pub fn stats(value: serde_json::Value) -> Stats {
    serde_json::from_value(value).unwrap()
}

pub fn fighter(name: &str, value: serde_json::Value) -> Fighter {
    Fighter::new(CombatantId(name.into()), name, stats(value), format!("{}_id", name.to_lowercase()))
}

/// Round 2 (not a surprise round), `current`'s turn.
pub fn turn_of(current: &str) -> Scene {
    Scene { round: 2, surprise_round: false, current: Some(CombatantId(current.into())), options: Options::default() }
}
