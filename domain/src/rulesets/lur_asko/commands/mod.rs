//! Lur-Asko's operations: `attacks`, `damage` (both with stateless twins) and `actions`.

pub mod actions;
pub mod attacks;
pub mod report;
pub mod request;
pub mod stored;

#[cfg(test)]
mod tests_stored;

use super::LurAsko;
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError, Event};
use crate::rulesets::{Command, RuleError, RulesetReport, Stateless, Summary};
pub use actions::{ActionReport, ActionRequest};
pub use report::AttackReport;
pub use request::{EncounterAttack, EncounterDamage, InlineAttack, InlineDamage};
use serde::{Deserialize, Serialize};

/// Every Lur-Asko report, as the attack, damage and action events carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoReport))]
pub enum Report {
    Attack(Box<AttackReport>),
    Action(Box<ActionReport>),
}

impl Summary for Report {
    fn summary(&self) -> String {
        match self {
            Self::Attack(report) => report.summary(),
            Self::Action(report) => report.summary(),
        }
    }
}

/// Clears lapsed auras and says so in the log (Damage Auras).
pub fn lapse_events(encounter: &mut Encounter) -> Vec<Event> {
    stored::settle_auras(encounter)
        .into_iter()
        .map(|(combatant_id, combatant, auras)| Event::ActionTaken {
            combatant_id,
            action: "auras_lapsed".into(),
            report: RulesetReport::LurAsko(Report::Action(Box::new(ActionReport::AurasLapsed { combatant, auras }))),
            dice: Vec::new(),
        })
        .collect()
}

/// An attack (lur-asko.txt, "Back in Combat").
pub struct Attacks;

impl Command for Attacks {
    type Ruleset = LurAsko;
    const NAME: &'static str = "attacks";
    const DESCRIPTION: &'static str = "Resolves an attack (lur-asko.txt, \"Back in Combat\"): voluntary \
        reductions, low- then medium-precision shielding, the defense roll (at most the TN defends; failing \
        by 20+ is a critical hit), critical drive, combined normal/energy drive, armour ranges, high-precision \
        shielding, resistances and weaknesses in turn, degrees of injury, energy effects, and a damage aura \
        striking back.";
    const EXAMPLE: &'static str = r#"{"attacker_id": "cmb_attacker", "target_id": "cmb_target",
        "attack": {"weapons": [{"name": "Shock blade", "delivery": "melee", "damage": 32, "drive": 15,
        "energy": {"type": "electric", "damage": 24}}], "injury_type": "Limb"},
        "defense": {"defense": "roll", "tn": 14}}"#;
    type Request = EncounterAttack;
    type Report = AttackReport;

    fn run(encounter: &mut Encounter, request: EncounterAttack, dice: &mut Dice) -> Result<(Vec<Event>, AttackReport), EncounterError> {
        attacks::attack(encounter, request, dice)
    }
}

impl Stateless for Attacks {
    type InlineRequest = InlineAttack;
    const INLINE_EXAMPLE: &'static str = r#"{"attacker": {"name": "Raider", "stats": {"injury_factor": 20}},
        "target": {"name": "Ward", "stats": {"injury_factor": 20, "armour": {"low": 16, "high": 28}},
        "shields": [{"name": "Veil", "precision": "medium", "points": 10}]},
        "attack": {"weapons": [{"name": "Arc gun", "delivery": "ranged", "energy": {"type": "electric", "damage": 40}}],
        "injury_type": "Torso"}, "defense": {"defense": "roll", "tn": 14}}"#;

    fn run_inline(request: InlineAttack, dice: &mut Dice) -> Result<AttackReport, RuleError> {
        attacks::attack_inline(request, dice)
    }
}

/// Damage called out on a hit that has landed (lur-asko.txt, "Damage, Drive, & Armor Ranges").
pub struct Damage;

impl Command for Damage {
    type Ruleset = LurAsko;
    const NAME: &'static str = "damage";
    const DESCRIPTION: &'static str = "Applies a hit that has landed (\"17, 20 drive\", lur-asko.txt, \"Damage, \
        Drive, & Armor Ranges\"): shields in precision order, drive against the armour range, resistances, \
        degrees of injury and energy effects.";
    const EXAMPLE: &'static str = r#"{"target_id": "cmb_target", "attack": {"weapons": [{"name": "Axe",
        "delivery": "melee", "damage": 17, "drive": 20}], "injury_type": "Limb"}}"#;
    type Request = EncounterDamage;
    type Report = AttackReport;

    fn run(encounter: &mut Encounter, request: EncounterDamage, dice: &mut Dice) -> Result<(Vec<Event>, AttackReport), EncounterError> {
        attacks::damage(encounter, request, dice)
    }
}

impl Stateless for Damage {
    type InlineRequest = InlineDamage;
    const INLINE_EXAMPLE: &'static str = r#"{"target": {"name": "Ward", "stats": {"injury_factor": 10,
        "armour": {"low": 16, "high": 28}}}, "attack": {"weapons": [{"name": "Axe", "delivery": "melee",
        "damage": 17, "drive": 20}], "injury_type": "Limb"}}"#;

    fn run_inline(request: InlineDamage, dice: &mut Dice) -> Result<AttackReport, RuleError> {
        attacks::damage_inline(request, dice)
    }
}

/// Shields and auras (lur-asko.txt, "Energy Shielding", "Damage Auras").
pub struct Actions;

impl Command for Actions {
    type Ruleset = LurAsko;
    const NAME: &'static str = "actions";
    const DESCRIPTION: &'static str = "Raises or drops energy shields, charges or drops damage auras, and lets \
        an aura strike a character who touched, grabbed, tripped or grappled its owner (lur-asko.txt, \
        \"Energy Shielding\", \"Damage Auras\").";
    const EXAMPLE: &'static str = r#"{"action": "raise_shield", "combatant_id": "cmb_target",
        "shield": "Veil", "precision": "medium", "points": 20}"#;
    type Request = ActionRequest;
    type Report = ActionReport;

    fn run(encounter: &mut Encounter, request: ActionRequest, dice: &mut Dice) -> Result<(Vec<Event>, ActionReport), EncounterError> {
        actions::act(encounter, request, dice)
    }
}
