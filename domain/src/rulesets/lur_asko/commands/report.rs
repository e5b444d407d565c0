//! The report of an attack or of called damage, the same for stored and inline combatants.

use super::super::outcome::{AuraOutcome, Defense, EnergyEffect, Outcome, Portion, ShieldUse};
use crate::encounter::CombatantId;
use crate::rulesets::Summary;
use serde::{Deserialize, Serialize};

/// A condition put on (or taken off) the encounter because of the hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoCondition))]
pub struct Condition {
    pub combatant: String,
    pub name: String,
    /// When it ends, in words (e.g. "end of Raider's next turn").
    pub ends: String,
}

/// Where a combatant stands after the hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoStanding))]
pub struct Standing {
    pub combatant: String,
    pub damage_taken: u32,
    pub degrees: u32,
    pub fatigue: u32,
}

/// Everything one attack (or one called hit) did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoAttackReport))]
pub struct AttackReport {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_id: Option<CombatantId>,
    pub attacker: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<CombatantId>,
    pub target: String,
    /// Hindrance the attacker took on by reducing damage voluntarily.
    pub hindrance: u32,
    /// Every portion of every weapon, step by step, as far as it got.
    pub portions: Vec<Portion>,
    /// Every shield met, in order: low, medium, then high.
    pub shielding: Vec<ShieldUse>,
    pub defense: Defense,
    #[serde(flatten)]
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aura: Option<AuraOutcome>,
    /// Conditions added to or taken off the encounter (stored encounters only).
    pub conditions: Vec<Condition>,
    /// The combatants hit, after the damage.
    pub standings: Vec<Standing>,
}

impl Summary for AttackReport {
    fn summary(&self) -> String {
        let mut line = match &self.outcome {
            Outcome::StoppedByShielding => format!("{}'s attack on {} is stopped by shielding", self.attacker, self.target),
            Outcome::Defended => format!("{} defends against {}", self.target, self.attacker),
            Outcome::Hit { critical, hit } => {
                let critical = if critical.is_some() { " critically" } else { "" };
                let injury = &hit.injury;
                format!(
                    "{} hits {}{critical}: {} damage, {} → {}, {} degree(s) of {} injury{}",
                    self.attacker,
                    self.target,
                    injury.damage,
                    injury.damage_before,
                    injury.damage_after,
                    injury.degrees,
                    injury.injury_type,
                    effects_text(&hit.effects),
                )
            }
        };
        if let Some(AuraOutcome::Struck(strike)) = &self.aura {
            let injury = &strike.hit.injury;
            line.push_str(&format!(
                "; {}'s {} strikes back for {} damage, {} degree(s) of Core injury{}",
                strike.owner,
                strike.aura,
                injury.damage,
                injury.degrees,
                effects_text(&strike.hit.effects)
            ));
        }
        line
    }
}

/// The effects in words, e.g. ", stunned until the end of Raider's next turn".
pub fn effects_text(effects: &[EnergyEffect]) -> String {
    effects
        .iter()
        .filter_map(|effect| match effect {
            EnergyEffect::WarFeverRoll { hindrance, .. } => Some(format!("a war-fever roll owed ({hindrance} Hindrance)")),
            EnergyEffect::Stunned { attacker, .. } => Some(format!("stunned until the end of {attacker}'s next turn")),
            EnergyEffect::Ignited { .. } => Some("ignited".to_owned()),
            EnergyEffect::Fatigue { fatigue, .. } => Some(format!("{fatigue} fatigue")),
            EnergyEffect::Deafened { turns } => Some(format!("deafened for {turns} turns")),
            EnergyEffect::KnockedDown { .. } => Some("knocked down".to_owned()),
            EnergyEffect::Prevented { .. } => None,
        })
        .map(|text| format!(", {text}"))
        .collect()
}
