//! Stat blocks for the Action List tests.

use crate::rulesets::adeva_d100::{Characteristic, Stats};

/// Every characteristic 30, except those named ("ws", "bs", "s", "t", "ag", "int", "per", "wp",
/// "fel").
pub(crate) fn stats(overrides: &[(&str, i64)]) -> Stats {
    let value = |name: &str| {
        let score = overrides.iter().find(|(key, _)| *key == name).map_or(30, |(_, score)| *score);
        Characteristic::new(score).unwrap()
    };
    Stats {
        ws: value("ws"),
        bs: value("bs"),
        s: value("s"),
        t: value("t"),
        ag: value("ag"),
        int: value("int"),
        per: value("per"),
        wp: value("wp"),
        fel: value("fel"),
        ..Default::default()
    }
}
