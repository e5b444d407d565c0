//! Cepheus Engine as a plug-in: the ruleset and its operations (cepheus-engine.txt,
//! "Chapter 5: Personal Combat").

use super::commands::{self as ops, ActionReport, AttackReport, DamageReport};
use super::outcome::Report;
use super::{CombatState, Stats, characteristic_dm};
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError, Event};
use crate::rulesets::{
    Command, CommandVisitor, Delivery, InitiativeContext, InitiativeRoll, InlineDelivery, NoOptions, Receipt,
    Refusal, RuleError, Ruleset, RulesetId, RulesetInfo, Stateless, TiePolicy,
};
use std::borrow::Cow;

/// The Cepheus Engine ruleset.
pub struct CepheusEngine;

impl Ruleset for CepheusEngine {
    const ID: RulesetId = RulesetId::CepheusEngine;
    const SCHEMA_PREFIX: &'static str = "CepheusEngine";
    const INFO: RulesetInfo = RulesetInfo {
        name: "Cepheus Engine (2D6 + DMs, range bands, dynamic initiative)",
        source: "Cepheus Engine System Reference Document, Chapter 5: Personal Combat (Samardan Press, Open Game License 1.0a)",
        initiative: "2D6 + DEX DM; in an ambush the aware take an automatic 12 + DEX DM",
        tie_break: "higher DEX; still tied → same slot, acting simultaneously",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str =
        r#"{"str": 7, "dex": 9, "end": 8, "int": 7, "edu": 8, "soc": 6, "skills": {"gun_combat": 1}, "armour": 2}"#;
    type Stats = Stats;
    type State = CombatState;
    type Options = NoOptions;
    type Report = Report;

    fn initiative(
        stats: &Stats,
        context: InitiativeContext,
        dice: &mut Dice,
        purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        roll_initiative(stats, context, dice, purpose)
    }

    fn tie_keys(stats: &Stats) -> Vec<i32> {
        tie_keys(stats)
    }

    fn end_of_round(
        encounter: &mut Encounter,
        events: &mut Vec<Event>,
        _dice: &mut crate::dice::Dice,
    ) -> Result<(), crate::encounter::EncounterError> {
        super::round::end_of_round(encounter, events);
        Ok(())
    }

    fn act_from_delay(
        encounter: &mut Encounter,
        id: &crate::encounter::CombatantId,
        count: i32,
        events: &mut Vec<Event>,
    ) {
        super::round::settle_this_round(encounter, id);
        crate::rulesets::set_initiative(encounter, id, count, "acted from a delay on this count", events);
    }

    fn suspend_turn(
        encounter: &mut Encounter,
        current: &crate::encounter::CombatantId,
        by: &crate::encounter::CombatantId,
    ) -> bool {
        super::round::suspend_turn(encounter, current, by)
    }

    fn take_suspended(encounter: &mut Encounter) -> Option<crate::encounter::CombatantId> {
        super::round::take_suspended(encounter)
    }

    /// "3 characteristics are at Zero: Character is dead" (cepheus-engine.txt, "Damage", the
    /// Damage Results table): the dead receive nothing more; the unconscious still receive
    /// everything (docs/rulesets/cepheus-engine.md, "The dead and the defeated").
    fn may_receive(stats: &Stats, _state: &CombatState, _receipt: Receipt) -> Result<(), Refusal> {
        if stats.status() == super::damage::Status::Dead {
            return Err(Refusal(
                "dead, with three characteristics at zero (cepheus-engine.txt, \"Damage\", Damage Results)".into(),
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

/// Tied combatants act together (cepheus-engine.txt, "The Combat Round": still tied after
/// Dexterity → act simultaneously).
pub const TIE_POLICY: TiePolicy = TiePolicy::Simultaneous;

/// Initiative (cepheus-engine.txt, "Initiative" and "Personal Combat Checklist" step 1): 2D6 + DEX DM;
/// in an ambush (some but not all aware) the aware take an automatic 12 + DEX DM.
pub fn roll_initiative(
    stats: &Stats,
    context: InitiativeContext,
    dice: &mut Dice,
    purpose: &str,
) -> Result<InitiativeRoll, RuleError> {
    let dm = characteristic_dm(stats.dex);
    if context.ambush && !context.surprised {
        let score = 12 + dm;
        return Ok(InitiativeRoll {
            score,
            explanation: format!("ambush: automatic 12 + DEX DM {dm:+} = {score}"),
        });
    }
    let first = dice.roll(6, purpose)?;
    let second = dice.roll(6, purpose)?;
    let score = first as i32 + second as i32 + dm;
    Ok(InitiativeRoll { score, explanation: format!("2D6 ({first}+{second}) + DEX DM {dm:+} = {score}") })
}

/// Ties go to the higher Dexterity (cepheus-engine.txt, "The Combat Round").
pub fn tie_keys(stats: &Stats) -> Vec<i32> {
    vec![stats.dex.get()]
}

/// Damage delivered to a `target` stat block sent inline (its damage is on the stat block).
fn inline_delivery<'a>(name: Option<&'a str>, stats: &'a Stats) -> InlineDelivery<'a, CepheusEngine> {
    let state = Cow::Owned(CombatState::default());
    InlineDelivery { name: name.unwrap_or("target"), field: "target".into(), stats, state, receipt: Receipt::Damage }
}

/// An attack (cepheus-engine.txt, "Attacks", "Damage").
pub struct Attacks;

impl Command for Attacks {
    type Ruleset = CepheusEngine;
    const NAME: &'static str = "attacks";
    const DESCRIPTION: &'static str = "Resolves an attack (cepheus-engine.txt, \"Attacks\"): 2D6 + skill + \
        characteristic DM + every circumstance DM against 8+, the Effect, damage dice + Effect, armour, and \
        the damage allocated to the target's characteristics.";
    const EXAMPLE: &'static str = r#"{"attacker_id": "cmb_attacker", "target_id": "cmb_target",
        "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "distance_m": 30}"#;
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
    const INLINE_EXAMPLE: &'static str = r#"{"attacker": {"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 8,
        "skills": {"gun_combat": 2}}, "target": {"str": 8, "dex": 9, "end": 7, "int": 6, "edu": 5, "soc": 4},
        "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "distance_m": 20}"#;

    fn inline_deliveries(request: &ops::InlineAttack) -> Vec<InlineDelivery<'_, CepheusEngine>> {
        vec![inline_delivery(request.target_name.as_deref(), &request.target)]
    }

    fn run_inline(request: ops::InlineAttack, dice: &mut Dice) -> Result<AttackReport, RuleError> {
        ops::attack_inline(request, dice)
    }
}

/// Damage outside an attack (cepheus-engine.txt, "Damage", "Armor").
pub struct Damage;

impl Command for Damage {
    type Ruleset = CepheusEngine;
    const NAME: &'static str = "damage";
    const DESCRIPTION: &'static str = "Applies damage to a combatant (cepheus-engine.txt, \"Damage\"): armour \
        first when asked, then the points allocated to END, STR and DEX.";
    const EXAMPLE: &'static str = r#"{"target_id": "cmb_target", "damage": 7, "apply_armour": true}"#;
    type Request = ops::EncounterDamage;
    type Report = DamageReport;

    fn deliveries(request: &Self::Request) -> Vec<Delivery<'_>> {
        vec![Delivery::new(&request.target_id, "target_id", Receipt::Damage)]
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
    const INLINE_EXAMPLE: &'static str =
        r#"{"target": {"str": 7, "dex": 7, "end": 8, "int": 8, "edu": 8, "soc": 7}, "damage": 9}"#;

    fn inline_deliveries(request: &ops::InlineDamage) -> Vec<InlineDelivery<'_, CepheusEngine>> {
        vec![inline_delivery(request.target_name.as_deref(), &request.target)]
    }

    fn run_inline(request: ops::InlineDamage, dice: &mut Dice) -> Result<DamageReport, RuleError> {
        ops::damage_inline(request, dice)
    }
}

/// Every other declared action (reactions, hasten, aim, stance, Leadership, Tactics, grapples, …).
pub struct Actions;

impl Command for Actions {
    type Ruleset = CepheusEngine;
    const NAME: &'static str = "actions";
    const DESCRIPTION: &'static str = "Takes a declared action (cepheus-engine.txt, \"Combat Actions\", \
        \"Dynamic Initiative\", \"Grappling\", \"Vehicles\"): reactions, hasten, aim, stance, Leadership, \
        Tactics, grapples, explosions, vehicle actions, recovery.";
    const EXAMPLE: &'static str = r#"{"action": "hasten", "combatant_id": "cmb_attacker"}"#;
    type Request = ops::Action;
    type Report = ActionReport;

    /// The acting combatant takes an action; whom it names receive what it brings (see
    /// `commands/receivers.rs`).
    fn deliveries(request: &Self::Request) -> Vec<Delivery<'_>> {
        ops::receivers::deliveries(request)
    }

    fn run(
        encounter: &mut Encounter,
        request: Self::Request,
        dice: &mut Dice,
    ) -> Result<(Vec<Event>, ActionReport), EncounterError> {
        ops::act(encounter, request, dice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::cepheus_engine::Characteristic;

    fn stats(dex: i64) -> Stats {
        let c = |v| Characteristic::new(v).unwrap();
        Stats::with_characteristics(c(7), c(dex), c(7), c(7), c(7), c(7))
    }

    #[test]
    fn dm_table_matches_the_srd_at_every_boundary() {
        let table = [
            (0, -3),
            (1, -2),
            (2, -2),
            (3, -1),
            (5, -1),
            (6, 0),
            (8, 0),
            (9, 1),
            (11, 1),
            (12, 2),
            (14, 2),
            (15, 3),
            (30, 3),
        ];
        for (value, dm) in table {
            let value: i64 = value;
            assert_eq!(characteristic_dm(Characteristic::new(value).unwrap()), dm, "DEX {value}");
        }
    }

    #[test]
    fn initiative_is_2d6_plus_dex_dm() {
        // DEX 9 → DM +1; dice 4 and 3 → 4 + 3 + 1 = 8.
        let mut dice = Dice::scripted(vec![4, 3], 0).unwrap();
        let roll = roll_initiative(&stats(9), InitiativeContext::default(), &mut dice, "initiative").unwrap();
        assert_eq!(roll.score, 8);
        assert_eq!(dice.rolls().len(), 2);
    }

    #[test]
    fn aware_side_of_an_ambush_takes_automatic_12() {
        // DEX 4 → DM −1: 12 − 1 = 11, no dice rolled.
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let context = InitiativeContext { ambush: true, surprised: false };
        let roll = roll_initiative(&stats(4), context, &mut dice, "initiative").unwrap();
        assert_eq!(roll.score, 11);
        assert!(dice.rolls().is_empty());
    }

    #[test]
    fn surprised_side_of_an_ambush_rolls_normally() {
        // DEX 12 → DM +2; dice 1 and 1 → 4.
        let mut dice = Dice::scripted(vec![1, 1], 0).unwrap();
        let context = InitiativeContext { ambush: true, surprised: true };
        assert_eq!(roll_initiative(&stats(12), context, &mut dice, "i").unwrap().score, 4);
    }
}

