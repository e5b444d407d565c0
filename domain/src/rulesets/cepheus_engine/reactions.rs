//! Reactions: the target's dodge or parry, and the attacker's own earlier reactions
//! (cepheus-engine.txt, "Reactions", "Dodging" and "Parrying").
//!
//! Decisions:
//! - A target in any cover (1/4 or better) counts as having something to duck behind, so its dodge
//!   is −2; `dodges_behind_obstruction` gives −2 without cover.
//! - A parry subtracts the defender's melee skill level. An unskilled defender may still parry, but
//!   sends level 0 and subtracts nothing; the unskilled −3 is never turned into a bonus for the
//!   attacker. A level-0 parry is still listed, at −0.
//! - Every reaction the attacker has already made this round is −1 to the attack. Dodging and
//!   parrying add nothing beyond that −1 per reaction.

use super::cover::CoverLevel;
use super::modifier::Modifier;
use serde::{Deserialize, Serialize};

/// Whether, and how, the target dodges this attack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDodge))]
#[serde(rename_all = "snake_case")]
pub enum Dodge {
    #[default]
    None,
    /// Dodges; −2 instead of −1 when the target is in cover.
    Dodges,
    /// Dodges behind an obstruction even though it is not in cover.
    DodgesBehindObstruction,
}

/// The DM a dodging target imposes: −1, or −2 when it is in cover or has something to duck behind
/// (cepheus-engine.txt, "Dodging").
pub fn dodge_modifier(dodge: Dodge, cover: CoverLevel) -> Option<Modifier> {
    match dodge {
        Dodge::None => None,
        Dodge::Dodges if cover == CoverLevel::None => Some(Modifier::new("target dodges", -1)),
        Dodge::Dodges => Some(Modifier::new("target dodges from cover", -2)),
        Dodge::DodgesBehindObstruction => Some(Modifier::new("target dodges behind an obstruction", -2)),
    }
}

/// The DM a parrying target imposes: minus its melee skill level (cepheus-engine.txt,
/// "Parrying").
pub fn parry_modifier(melee_skill: i32) -> Modifier {
    Modifier::new(format!("target parries with melee skill {melee_skill}"), -melee_skill)
}

/// The attacker's own reactions so far this round: −1 each (cepheus-engine.txt, "Reactions").
pub fn own_reactions_modifier(reactions: u8) -> Option<Modifier> {
    if reactions == 0 {
        return None;
    }
    let dm = -i32::from(reactions);
    Some(Modifier::new(format!("attacker has reacted {reactions} time(s) this round"), dm))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dodge_is_minus_one_in_the_open_and_minus_two_with_cover() {
        assert_eq!(dodge_modifier(Dodge::None, CoverLevel::Half), None);
        assert_eq!(dodge_modifier(Dodge::Dodges, CoverLevel::None).map(|m| m.dm), Some(-1));
        assert_eq!(dodge_modifier(Dodge::Dodges, CoverLevel::Quarter).map(|m| m.dm), Some(-2));
        assert_eq!(dodge_modifier(Dodge::DodgesBehindObstruction, CoverLevel::None).map(|m| m.dm), Some(-2));
    }

    #[test]
    fn a_parry_subtracts_the_melee_skill() {
        // Melee-2 → −2; Melee-0 → −0.
        assert_eq!(parry_modifier(2).dm, -2);
        assert_eq!(parry_modifier(0).dm, 0);
    }

    #[test]
    fn each_earlier_reaction_costs_one() {
        assert_eq!(own_reactions_modifier(0), None);
        // Three reactions × −1 = −3.
        assert_eq!(own_reactions_modifier(3).map(|m| m.dm), Some(-3));
    }
}
