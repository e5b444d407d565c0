//! Task difficulties and the 8+ target (Cepheus Engine SRD task rules, relied on by
//! cepheus-engine.txt, "Attack" and "Range").
//!
//! Decisions:
//! - The combat text names difficulties but prints the DM of only two of them ("Difficult (–2)" and
//!   "Very Difficult (–4)", in "Medical Treatment"). The rest come from the SRD task difficulty
//!   table: Simple +6, Easy +4, Routine +2, Average +0, Difficult −2, Very Difficult −4,
//!   Formidable −6.
//! - Every check, attacks included, is 2D6 plus DMs against 8+ ("Extended Actions" shows the 8+
//!   roll); the Effect is the total minus 8, so a total of exactly 8 succeeds with Effect 0.

use serde::{Deserialize, Serialize};

/// The total a 2D6 check must reach (after every DM) to succeed.
pub const TASK_TARGET: i32 = 8;

/// How hard a task is; each step is a DM on the 2D6 roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDifficulty))]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Simple,
    Easy,
    Routine,
    Average,
    Difficult,
    VeryDifficult,
    Formidable,
}

impl Difficulty {
    /// The DM this difficulty applies to the check (SRD task difficulty table; see the decisions).
    pub fn dm(self) -> i32 {
        match self {
            Difficulty::Simple => 6,
            Difficulty::Easy => 4,
            Difficulty::Routine => 2,
            Difficulty::Average => 0,
            Difficulty::Difficult => -2,
            Difficulty::VeryDifficult => -4,
            Difficulty::Formidable => -6,
        }
    }

    /// The difficulty's name as the rules print it.
    pub fn label(self) -> &'static str {
        match self {
            Difficulty::Simple => "Simple",
            Difficulty::Easy => "Easy",
            Difficulty::Routine => "Routine",
            Difficulty::Average => "Average",
            Difficulty::Difficult => "Difficult",
            Difficulty::VeryDifficult => "Very Difficult",
            Difficulty::Formidable => "Formidable",
        }
    }
}

/// The Effect of a check: how far the total (2D6 + every DM) lands above or below 8
/// (cepheus-engine.txt, "Extended Actions" for the 8+ roll; "Damage" adds this Effect to damage).
/// Zero or more is a success.
pub fn effect(total: i32) -> i32 {
    total - TASK_TARGET
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dms_match_the_srd_ladder() {
        let ladder = [
            (Difficulty::Simple, 6),
            (Difficulty::Easy, 4),
            (Difficulty::Routine, 2),
            (Difficulty::Average, 0),
            // The text itself prints "Difficult (–2)" and "Very Difficult (–4)".
            (Difficulty::Difficult, -2),
            (Difficulty::VeryDifficult, -4),
            (Difficulty::Formidable, -6),
        ];
        for (difficulty, dm) in ladder {
            assert_eq!(difficulty.dm(), dm, "{}", difficulty.label());
        }
    }

    #[test]
    fn effect_is_total_minus_eight() {
        // 8 − 8 = 0 (a bare success); 14 − 8 = 6; 5 − 8 = −3.
        assert_eq!(effect(8), 0);
        assert_eq!(effect(14), 6);
        assert_eq!(effect(5), -3);
    }
}
