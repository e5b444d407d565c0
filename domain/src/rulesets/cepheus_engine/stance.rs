//! Stances and the prone-target DM (cepheus-engine.txt, "Stance", "Changing Stance" and the
//! "Target Stance" row of "Common Modifiers to Attacks in Personal Combat").
//!
//! Decisions:
//! - The summary table gives −2 against a prone target only "at Medium or greater range", while
//!   "Stance" gives −2 to every ranged attack except at Close (+0) and Personal (+2). The fuller
//!   "Stance" text wins, so a ranged attack at Short range also takes −2.
//! - The +2 at Personal range applies to melee and ranged attacks alike (the summary table does not
//!   limit it to ranged attacks). A melee attack at Close range gets no stance DM.
//! - A ranged attack on a prone target at Close range lists the stance entry at +0, so the list
//!   shows that the rule was considered.
//! - A crouched target gets no DM of its own; crouching only improves cover (`cover.rs`).

use super::modifier::Modifier;
use super::range::RangeBand;
use serde::{Deserialize, Serialize};

/// How a combatant is standing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineStance))]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    #[default]
    Standing,
    Crouched,
    Prone,
}

impl Stance {
    /// Crouched and prone targets both make better use of cover (cepheus-engine.txt, "Stance").
    pub fn is_low(self) -> bool {
        matches!(self, Stance::Crouched | Stance::Prone)
    }

    pub fn label(self) -> &'static str {
        match self {
            Stance::Standing => "standing",
            Stance::Crouched => "crouched",
            Stance::Prone => "prone",
        }
    }
}

/// The DM for attacking a target in this stance at this band, if any (cepheus-engine.txt,
/// "Stance"): against a prone target, +2 at Personal, +0 for ranged attacks at Close, −2 for
/// ranged attacks further out.
pub fn target_stance_modifier(target: Stance, band: RangeBand, ranged: bool) -> Option<Modifier> {
    if target != Stance::Prone {
        return None;
    }
    let dm = match band {
        RangeBand::Personal => 2,
        _ if !ranged => return None,
        RangeBand::Close => 0,
        _ => -2,
    };
    Some(Modifier::new(format!("prone target at {} range", band.label()), dm))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dm(target: Stance, band: RangeBand, ranged: bool) -> Option<i32> {
        target_stance_modifier(target, band, ranged).map(|modifier| modifier.dm)
    }

    #[test]
    fn prone_targets_follow_the_stance_section() {
        assert_eq!(dm(Stance::Prone, RangeBand::Personal, true), Some(2));
        assert_eq!(dm(Stance::Prone, RangeBand::Close, true), Some(0));
        // "Stance" says every ranged attack beyond Close, so Short counts too.
        assert_eq!(dm(Stance::Prone, RangeBand::Short, true), Some(-2));
        assert_eq!(dm(Stance::Prone, RangeBand::Distant, true), Some(-2));
    }

    #[test]
    fn melee_on_a_prone_target_gains_only_at_personal_range() {
        assert_eq!(dm(Stance::Prone, RangeBand::Personal, false), Some(2));
        assert_eq!(dm(Stance::Prone, RangeBand::Close, false), None);
    }

    #[test]
    fn standing_and_crouched_targets_have_no_stance_dm() {
        assert_eq!(dm(Stance::Standing, RangeBand::Personal, true), None);
        assert_eq!(dm(Stance::Crouched, RangeBand::Long, true), None);
    }
}
