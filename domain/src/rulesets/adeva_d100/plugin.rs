//! Adeva d100 as a plug-in: the ruleset and its operations (adeva-d100.txt, "Combat Rules").

use super::commands::{self as ops, ActionReport, AttackReport, DamageReport};
use super::outcome::Report;
use super::options::AdevaOptions;
use super::{Stats, bonus, state::CombatState};
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError, Event};
use crate::rulesets::{
    Command, CommandVisitor, Delivery, InitiativeContext, InitiativeRoll, InlineDelivery, Receipt, Refusal,
    RuleError, Ruleset, RulesetId, RulesetInfo, Stateless, TiePolicy,
};
use std::borrow::Cow;

/// The Adeva d100 ruleset.
pub struct AdevaD100;

impl Ruleset for AdevaD100 {
    const ID: RulesetId = RulesetId::AdevaD100;
    const SCHEMA_PREFIX: &'static str = "AdevaD100";
    const INFO: RulesetInfo = RulesetInfo {
        name: "Adeva d100 (roll-under, degrees of success)",
        source: "Adeva d100 rules, \"Combat Rules\" chapter (Creative Commons Attribution-ShareAlike 3.0)",
        initiative: "1d10 + Agility Bonus (tens digit of Ag)",
        tie_break: "higher Agility, then a 1d10 roll-off (re-rolling ties)",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str = r#"{"ws": 35, "bs": 40, "s": 30, "t": 35, "ag": 34, "int": 30,
        "per": 32, "wp": 30, "fel": 28, "wounds": 12, "armour": 4}"#;
    type Stats = Stats;
    type State = CombatState;
    type Options = AdevaOptions;
    type Report = Report;

    fn initiative(
        stats: &Stats,
        _context: InitiativeContext,
        dice: &mut Dice,
        purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        roll_initiative(stats, dice, purpose)
    }

    fn tie_keys(stats: &Stats) -> Vec<i32> {
        tie_keys(stats)
    }

    fn validate_options(options: &AdevaOptions) -> Result<(), RuleError> {
        options.validate()
    }

    fn end_of_round(
        encounter: &mut Encounter,
        events: &mut Vec<Event>,
        _dice: &mut crate::dice::Dice,
    ) -> Result<(), crate::encounter::EncounterError> {
        super::round::end_of_round(encounter, events);
        crate::rulesets::hooks::forfeit_delayed_actions(encounter, events);
        Ok(())
    }

    fn end_of_turn(encounter: &mut Encounter, id: &crate::encounter::CombatantId, events: &mut Vec<Event>) {
        super::round::end_of_turn(encounter, id, events);
    }

    /// "Most characters perish if they are dropped to 0 wounds; characters with Fate Points
    /// instead take Lethal Damage" (adeva-d100.txt, "Attacking", Step Seven): a character whose
    /// wounds are tracked, at 0 and without Fate Points, is dead and receives nothing more; one
    /// with Fate Points at 0 still receives everything (docs/rulesets/adeva-d100.md).
    fn may_receive(stats: &Stats, _state: &CombatState, _receipt: Receipt) -> Result<(), Refusal> {
        if stats.wounds.is_some() && stats.current_wounds() == 0 && stats.fate_points.get() == 0 {
            return Err(Refusal(
                "dead at 0 wounds without Fate Points (adeva-d100.txt, \"Attacking\", Step Seven)".into(),
            ));
        }
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

/// Still tied after Agility → each rolls 1d10, higher placed higher (adeva-d100.txt, "Combat
/// Structure", Step Three). The text does not say what a second tie does; we re-roll it.
pub const TIE_POLICY: TiePolicy = TiePolicy::RollOff { sides: 10 };

/// Initiative = 1d10 + Agility Bonus (adeva-d100.txt, "Combat Structure", Step Three).
pub fn roll_initiative(stats: &Stats, dice: &mut Dice, purpose: &str) -> Result<InitiativeRoll, RuleError> {
    let agility_bonus = bonus(stats.ag);
    let die = dice.roll(10, purpose)?;
    let score = die as i32 + agility_bonus;
    Ok(InitiativeRoll { score, explanation: format!("1d10 ({die}) + AB {agility_bonus} = {score}") })
}

/// Ties go to the higher Agility (adeva-d100.txt, "Combat Structure", Step Three).
pub fn tie_keys(stats: &Stats) -> Vec<i32> {
    vec![stats.ag.get()]
}

/// Damage delivered to a stat block sent inline (its wounds are on the stat block).
fn inline_delivery<'a>(name: &'a str, field: &str, stats: &'a Stats) -> InlineDelivery<'a, AdevaD100> {
    let state = Cow::Owned(CombatState::default());
    InlineDelivery { name, field: field.to_owned(), stats, state, receipt: Receipt::Damage }
}

/// An attack action (adeva-d100.txt, "Attacking").
pub struct Attacks;

impl Command for Attacks {
    type Ruleset = AdevaD100;
    const NAME: &'static str = "attacks";
    const DESCRIPTION: &'static str = "Resolves an attack action (adeva-d100.txt, \"Attacking\"): the d100 \
        roll-under test with every modifier, degrees of success, hits, evasion, deflectors, damage, soak, \
        critical confirmation and Lethal Damage.";
    const EXAMPLE: &'static str = r#"{"attacker_id": "cmb_attacker", "target_id": "cmb_target",
        "action": {"action": "standard_attack", "weapon": {"name": "Stub pistol", "class": "ranged"}},
        "damage": {"count": 1, "sides": 10, "bonus": 3}}"#;
    type Request = ops::EncounterAttack;
    type Report = AttackReport;

    fn deliveries(request: &Self::Request) -> Vec<Delivery<'_>> {
        vec![Delivery::new(&request.target_id, "target_id", Receipt::Damage)]
    }

    fn run(
        encounter: &mut Encounter,
        request: Self::Request,
        dice: &mut Dice,
    ) -> Result<(Vec<Event>, AttackReport), EncounterError> {
        ops::attack(encounter, request, dice)
    }
}

impl Stateless for Attacks {
    type InlineRequest = ops::InlineAttack;
    const INLINE_EXAMPLE: &'static str = r#"{"attacker": {"ws": 35, "bs": 45, "s": 30, "t": 35, "ag": 34,
        "int": 30, "per": 32, "wp": 30, "fel": 28}, "target": {"ws": 30, "bs": 30, "s": 30, "t": 30, "ag": 30,
        "int": 30, "per": 30, "wp": 30, "fel": 30, "wounds": 10},
        "action": {"action": "standard_attack", "weapon": {"name": "Lasgun", "class": "ranged"}},
        "damage": {"count": 1, "sides": 10, "bonus": 3}}"#;

    fn inline_deliveries(request: &ops::InlineAttack) -> Vec<InlineDelivery<'_, AdevaD100>> {
        let name = request.target_name.as_deref().unwrap_or("target");
        vec![inline_delivery(name, "target", &request.target)]
    }

    fn run_inline(request: ops::InlineAttack, dice: &mut Dice) -> Result<AttackReport, RuleError> {
        ops::attack_inline(request, dice)
    }
}

/// Damage outside an attack (adeva-d100.txt, "Damage").
pub struct Damage;

impl Command for Damage {
    type Ruleset = AdevaD100;
    const NAME: &'static str = "damage";
    const DESCRIPTION: &'static str = "Applies damage to a combatant (adeva-d100.txt, \"Damage\"): soak \
        (Toughness Bonus + armour less penetration) when asked, then the wounds lost.";
    const EXAMPLE: &'static str = r#"{"combatant_id": "cmb_target", "amount": 9, "apply_soak": true}"#;
    type Request = ops::EncounterDamage;
    type Report = DamageReport;

    fn deliveries(request: &Self::Request) -> Vec<Delivery<'_>> {
        vec![Delivery::new(&request.combatant_id, "combatant_id", Receipt::Damage)]
    }

    fn run(
        encounter: &mut Encounter,
        request: Self::Request,
        dice: &mut Dice,
    ) -> Result<(Vec<Event>, DamageReport), EncounterError> {
        ops::damage(encounter, request, dice)
    }
}

impl Stateless for Damage {
    type InlineRequest = ops::InlineDamage;
    const INLINE_EXAMPLE: &'static str = r#"{"target": {"ws": 30, "bs": 30, "s": 30, "t": 30, "ag": 30,
        "int": 30, "per": 30, "wp": 30, "fel": 30, "wounds": 10}, "amount": 9, "apply_soak": true}"#;

    fn inline_deliveries(request: &ops::InlineDamage) -> Vec<InlineDelivery<'_, AdevaD100>> {
        let name = request.name.as_deref().unwrap_or("target");
        vec![inline_delivery(name, "target", &request.target)]
    }

    fn run_inline(request: ops::InlineDamage, dice: &mut Dice) -> Result<DamageReport, RuleError> {
        ops::damage_inline(request, dice)
    }
}

/// Every other action of the Action List (adeva-d100.txt, "Actions").
pub struct Actions;

impl Command for Actions {
    type Ruleset = AdevaD100;
    const NAME: &'static str = "actions";
    const DESCRIPTION: &'static str = "Takes an action from the Action List (adeva-d100.txt, \"Actions\"): \
        movement, aim, guard, grapples, overwatch, suppressive fire, falls, decay and the rest.";
    const EXAMPLE: &'static str = r#"{"action": "aim", "combatant_id": "cmb_attacker", "action_type": "half"}"#;
    type Request = ops::Action;
    type Report = ActionReport;

    fn deliveries(request: &Self::Request) -> Vec<Delivery<'_>> {
        ops::actions::delivery(request).into_iter().collect()
    }

    fn run(
        encounter: &mut Encounter,
        request: Self::Request,
        dice: &mut Dice,
    ) -> Result<(Vec<Event>, ActionReport), EncounterError> {
        ops::act(encounter, request, dice)
    }
}
