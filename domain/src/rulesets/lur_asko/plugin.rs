//! Lur-Asko as a plug-in (lur-asko.txt, "Back in Combat"): the ruleset and its operations.

use super::commands::{
    self, ActionReport, ActionRequest, AttackReport, EncounterAttack, EncounterDamage, InlineAttack, InlineDamage,
};
use super::{CombatState, Options, Report, Stats};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::{
    Command, CommandVisitor, InitiativeContext, InitiativeRoll, Receipt, Refusal, RuleError, Ruleset, RulesetId, RulesetInfo, Stateless,
    TiePolicy,
};

/// Lur-Asko as a plug-in (lur-asko.txt, "Back in Combat").
pub struct LurAsko;

impl Ruleset for LurAsko {
    const ID: RulesetId = RulesetId::LurAsko;
    const SCHEMA_PREFIX: &'static str = "LurAsko";
    const INFO: RulesetInfo = RulesetInfo {
        name: "Lur-Asko (damage and drive against armour ranges, energy, shielding, auras)",
        source: "Lur-Asko rules, \"Back in Combat\" chapter (damage, drive and armour ranges)",
        initiative: "no formula in the rule text: send a fixed value per combatant",
        tie_break: "combatants on the same value keep the order they joined in",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str = r#"{"injury_factor": 20, "armour": {"low": 16, "high": 28, "metallic": true},
        "resistances": [{"source": "elf", "against": {"energy": "frost"}, "percent": 75}]}"#;
    type Stats = Stats;
    type State = CombatState;
    type Options = Options;
    type Report = Report;

    fn initiative(_stats: &Stats, _context: InitiativeContext, _dice: &mut Dice, _purpose: &str) -> Result<InitiativeRoll, RuleError> {
        initiative()
    }

    fn tie_keys(_stats: &Stats) -> Vec<i32> {
        Vec::new()
    }

    fn validate_options(options: &Options) -> Result<(), RuleError> {
        options.defense_dice("options.defense_dice").map(|_| ())
    }

    fn end_of_turn(encounter: &mut Encounter, id: &CombatantId, events: &mut Vec<Event>) {
        super::round::end_of_turn(encounter, id, events);
    }

    /// The text has no death: degrees of injury are the GM's to read ("Damage, Drive, & Armor
    /// Ranges"), so every combatant receives everything, one marked defeated included; what it
    /// holds stays bounded instead (docs/rulesets/lur-asko.md, "The dead and the defeated").
    fn may_receive(_stats: &Stats, _state: &CombatState, _receipt: Receipt) -> Result<(), Refusal> {
        Ok(())
    }

    fn status(
        stats: &Self::Stats,
        state: &Self::State,
        context: &crate::rulesets::StatusContext,
    ) -> crate::rulesets::RulesetStatus {
        super::status::status(stats, state, context)
    }

    fn commands<V: CommandVisitor>(visitor: &mut V) {
        visitor.stateless::<Attacks>();
        visitor.stateless::<Damage>();
        visitor.command::<Actions>();
    }
}

/// The text sets no tie-break; combatants on the same value keep the order they joined in.
pub const TIE_POLICY: TiePolicy = TiePolicy::JoinOrder;

/// The Lur-Asko text gives no initiative formula: the caller sets each value.
pub fn initiative() -> Result<InitiativeRoll, RuleError> {
    Err(RuleError::invalid(
        "fixed",
        "lur-asko sets no initiative roll: send a fixed value for each combatant",
    ))
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
        commands::attacks::attack(encounter, request, dice)
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
        commands::attacks::attack_inline(request, dice)
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
        commands::attacks::damage(encounter, request, dice)
    }
}

impl Stateless for Damage {
    type InlineRequest = InlineDamage;
    const INLINE_EXAMPLE: &'static str = r#"{"target": {"name": "Ward", "stats": {"injury_factor": 10,
        "armour": {"low": 16, "high": 28}}}, "attack": {"weapons": [{"name": "Axe", "delivery": "melee",
        "damage": 17, "drive": 20}], "injury_type": "Limb"}}"#;

    fn run_inline(request: InlineDamage, dice: &mut Dice) -> Result<AttackReport, RuleError> {
        commands::attacks::damage_inline(request, dice)
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
        commands::actions::act(encounter, request, dice)
    }
}
