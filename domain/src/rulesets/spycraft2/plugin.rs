//! Spycraft 2.0 as a plug-in: the ruleset and its operations (spycraft2.txt, the seven steps).

use super::attack::AttackReport;
use super::commands::actions::{ActionReport, ActionRequest, act};
use super::commands::attacks::{AttackRequest, InlineAttackRequest, attack, attack_inline};
use super::commands::damage::{DamageReport, DamageRequest, InlineDamageRequest, damage, damage_inline};
use super::commands::distance::{DistanceRequest, InlineDistanceRequest, distance, distance_inline};
use super::commands::enter::{EnterReport, EnterRequest, enter};
use super::commands::group_initiative::{GroupInitiativeReport, GroupInitiativeRequest, group_initiative};
use super::commands::saves::{InlineSaveRequest, SaveRequest, save, save_inline};
use super::commands::surprise::{SurpriseReport, SurpriseRequest, surprise};
use super::distance::DistanceReport;
use super::saves::SaveReport;
use super::{CombatState, Report, Stats};
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError, Event};
use crate::rulesets::{
    Command, CommandVisitor, Delivery, InitiativeContext, InitiativeExtension, InitiativeRoll, InlineDelivery, NoOptions, Receipt,
    Refusal, RuleError, Ruleset, RulesetId, RulesetInfo, Stateless, TiePolicy,
};
use std::borrow::Cow;


/// Still tied after the Initiative bonus → each rolls 1d20, highest first, re-rolling ties
/// (spycraft2.txt, "Step 5: Combat Round").
pub const TIE_POLICY: TiePolicy = TiePolicy::RollOff { sides: 20 };

/// Initiative Count = 1d20 + Initiative bonus; no threats or errors on this check
/// (spycraft2.txt, "Step 3: Initiative Checks").
pub fn roll_initiative(stats: &Stats, dice: &mut Dice, purpose: &str) -> Result<InitiativeRoll, RuleError> {
    let bonus = stats.initiative_bonus.get();
    let die = dice.roll(20, purpose)?;
    let score = die as i32 + bonus;
    Ok(InitiativeRoll { score, explanation: format!("1d20 ({die}) + Initiative bonus {bonus:+} = {score}") })
}

/// Ties go to the higher Initiative bonus (spycraft2.txt, "Step 5: Combat Round").
pub fn tie_keys(stats: &Stats) -> Vec<i32> {
    vec![stats.initiative_bonus.get()]
}

/// The Spycraft 2.0 ruleset.
pub struct Spycraft2;

impl Ruleset for Spycraft2 {
    const ID: RulesetId = RulesetId::Spycraft2;
    const SCHEMA_PREFIX: &'static str = "Spycraft2";
    const INFO: RulesetInfo = RulesetInfo {
        name: "Spycraft 2.0 (d20 initiative, surprise, fluid initiative)",
        source: "Spycraft 2.0 Rulebook, combat chapter: the seven steps of combat (Crafty Games, Open Game License 1.0a)",
        initiative: "1d20 + Initiative bonus",
        tie_break: "higher Initiative bonus, then a 1d20 roll-off (re-rolling ties)",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str = r#"{"initiative_bonus": 4, "attack_bonus": 5, "defense": 16,
        "vulnerable_defense": 3, "vitality": 24, "wounds": 12, "damage_reduction": 2, "fortitude": 3,
        "reflex": 4, "will": 1, "int_modifier": 1, "visual_range_ft": 300, "hearing_range_ft": 150,
        "action_dice": 3, "action_die": "d4"}"#;
    type Stats = Stats;
    type State = CombatState;
    type Options = NoOptions;
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

    /// Action Dice spent on the Initiative check (spycraft2.txt, "Step 3: Initiative Checks",
    /// Special Note).
    fn extend_initiative(
        stats: &Stats,
        state: &mut CombatState,
        extension: InitiativeExtension,
        dice: &mut Dice,
        purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        super::action_dice::boost_initiative(stats, state, extension.count, extension.had_count, dice, purpose)
    }

    fn end_of_round(
        encounter: &mut Encounter,
        events: &mut Vec<Event>,
        dice: &mut crate::dice::Dice,
    ) -> Result<(), crate::encounter::EncounterError> {
        crate::rulesets::hooks::forfeit_delayed_actions(encounter, events);
        super::round::end_of_round(encounter, events, dice)
    }

    /// The chapter names no death; as players expect, wounds at −10 are dead (wounds stop there
    /// already) and the dead receive nothing more: no damage, condition, healing or action
    /// (docs/rulesets/spycraft2.md, "The dead and the defeated"). Below 0 wounds but above −10 a
    /// character still receives everything.
    fn may_receive(stats: &Stats, state: &CombatState, _receipt: Receipt) -> Result<(), Refusal> {
        if super::damage::is_dead(stats, state) {
            let wounds = stats.wounds.get() - state.wounds_lost;
            return Err(Refusal(format!("dead at {wounds} wounds (docs/rulesets/spycraft2.md, \"The dead and the defeated\")")));
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
        visitor.stateless::<Distance>();
        visitor.command::<Surprise>();
        visitor.command::<GroupInitiative>();
        visitor.command::<Enter>();
        visitor.command::<Actions>();
        visitor.stateless::<Attacks>();
        visitor.stateless::<Damage>();
        visitor.stateless::<Saves>();
    }
}

/// The combat state an inline request describes (what it has lost so far).
fn inline_state(
    vitality_lost: Option<crate::score::Score<0, 1000>>,
    wounds_lost: Option<crate::score::Score<0, 110>>,
) -> Cow<'static, CombatState> {
    Cow::Owned(CombatState {
        vitality_lost: vitality_lost.map_or(0, |lost| lost.get()),
        wounds_lost: wounds_lost.map_or(0, |lost| lost.get()),
        ..CombatState::default()
    })
}

/// Step 2: the base encounter distance.
pub struct Distance;

impl Command for Distance {
    type Ruleset = Spycraft2;
    const NAME: &'static str = "distance";
    const DESCRIPTION: &'static str = "Rolls the base encounter distance by terrain (spycraft2.txt, \"Step 2: \
        Base Encounter Distance\": indoors line of sight, 6d6 × 20 ft., 4d6 × 10 ft., 2d6 × 10 ft., 6d6 × 5 ft.), \
        capped at the highest visual or hearing range of any combatant.";
    const EXAMPLE: &'static str = r#"{"terrain": "forest"}"#;
    type Request = DistanceRequest;
    type Report = DistanceReport;

    fn run(encounter: &mut Encounter, request: DistanceRequest, dice: &mut Dice) -> Result<(Vec<Event>, DistanceReport), EncounterError> {
        distance(encounter, request, dice)
    }
}

impl Stateless for Distance {
    type InlineRequest = InlineDistanceRequest;
    const INLINE_EXAMPLE: &'static str = r#"{"terrain": "plains", "senses_ft": [300, 150]}"#;

    fn run_inline(request: InlineDistanceRequest, dice: &mut Dice) -> Result<DistanceReport, RuleError> {
        distance_inline(request, dice)
    }
}

/// Step 4: the surprise round's team checks.
pub struct Surprise;

impl Command for Surprise {
    type Ruleset = Spycraft2;
    const NAME: &'static str = "surprise";
    const DESCRIPTION: &'static str = "Decides the surprise round before round 1 (spycraft2.txt, \"Step 4: \
        Surprise Round\"): none aware (the highest opposed team check gets it), some aware (the acting group \
        only if it wins), all aware (none); with partial group awareness only the listed participants act.";
    const EXAMPLE: &'static str = r#"{"awareness": "some_aware", "groups": [
        {"side": "agents", "bonus": 6, "acting": true}, {"side": "guards", "bonus": 2}]}"#;
    type Request = SurpriseRequest;
    type Report = SurpriseReport;

    fn run(encounter: &mut Encounter, request: SurpriseRequest, dice: &mut Dice) -> Result<(Vec<Event>, SurpriseReport), EncounterError> {
        surprise(encounter, request, dice)
    }
}

/// Step 3: one Initiative check per group of opponents.
pub struct GroupInitiative;

impl Command for GroupInitiative {
    type Ruleset = Spycraft2;
    const NAME: &'static str = "group-initiative";
    const DESCRIPTION: &'static str = "One Initiative check (1d20 + Initiative bonus) for each group of \
        opponents, whose members share the Count (spycraft2.txt, \"Step 3: Initiative Checks\").";
    const EXAMPLE: &'static str = r#"{"groups": [{"name": "Guards", "combatant_ids": ["cmb_guard_1", "cmb_guard_2"]}]}"#;
    type Request = GroupInitiativeRequest;
    type Report = GroupInitiativeReport;

    fn run(encounter: &mut Encounter, request: GroupInitiativeRequest, dice: &mut Dice) -> Result<(Vec<Event>, GroupInitiativeReport), EncounterError> {
        group_initiative(encounter, request, dice)
    }
}

/// Steps 1 and 3: entering a running fight.
pub struct Enter;

impl Command for Enter {
    type Ruleset = Spycraft2;
    const NAME: &'static str = "enter";
    const DESCRIPTION: &'static str = "A character enters the fight after it began: it rolls its Initiative \
        check on entry and is flat-footed unless it entered intentionally (spycraft2.txt, \"Step 1: \
        Flat-Footedness\", \"Step 3: Initiative Checks\").";
    const EXAMPLE: &'static str = r#"{"combatant_id": "cmb_newcomer", "intentional": true}"#;
    type Request = EnterRequest;
    type Report = EnterReport;

    fn run(encounter: &mut Encounter, request: EnterRequest, dice: &mut Dice) -> Result<(Vec<Event>, EnterReport), EncounterError> {
        enter(encounter, request, dice)
    }
}

/// Step 5's actions and the declared rows of Step 6's table.
pub struct Actions;

impl Command for Actions {
    type Ruleset = Spycraft2;
    const NAME: &'static str = "actions";
    const DESCRIPTION: &'static str = "Takes an action on the character's Initiative Count, spent from 1 full \
        or 2 half actions (or the surprise round's 1 free, half or full action), or declares a row of the \
        fluid-initiative table: aim, brace, regroup, moves and terrain, the bonus 5-ft. step, Press, split \
        skill checks, granted half actions, conditions, critical injuries, Triumphs, critical failures \
        (spycraft2.txt, \"Step 5: Combat Round\", \"Step 6: Fluid Initiative Modifiers\").";
    const EXAMPLE: &'static str = r#"{"combatant_id": "cmb_attacker", "action": {"action": "aim"}}"#;
    type Request = ActionRequest;
    type Report = ActionReport;

    fn deliveries(request: &ActionRequest) -> Vec<Delivery<'_>> {
        let receipt = match request.action {
            super::commands::actions::Action::Condition { .. } => Receipt::Condition,
            _ => Receipt::Action,
        };
        vec![Delivery::new(&request.combatant_id, "combatant_id", receipt)]
    }

    fn run(encounter: &mut Encounter, request: ActionRequest, dice: &mut Dice) -> Result<(Vec<Event>, ActionReport), EncounterError> {
        act(encounter, request, dice)
    }
}

/// The attacks whose events the fluid-initiative table reacts to.
pub struct Attacks;

impl Command for Attacks {
    type Ruleset = Spycraft2;
    const NAME: &'static str = "attacks";
    const DESCRIPTION: &'static str = "Resolves an attack check (1d20 + attack bonus + modifiers against \
        Defense; flat-footed targets lose Dexterity and dodge bonuses), threats and errors activated by \
        Action Dice, damage through armour to vitality then wounds (critical hits straight to wounds), and \
        the fluid-initiative rows it triggers (spycraft2.txt, \"Table: Fluid Initiative Modifiers\").";
    const EXAMPLE: &'static str = r#"{"attacker_id": "cmb_attacker", "target_id": "cmb_target",
        "weapon": {"name": "Pistol", "damage": {"count": 2, "sides": 6}}}"#;
    type Request = AttackRequest;
    type Report = AttackReport;

    fn deliveries(request: &AttackRequest) -> Vec<Delivery<'_>> {
        vec![Delivery::new(&request.target_id, "target_id", Receipt::Damage)]
    }

    fn run(encounter: &mut Encounter, request: AttackRequest, dice: &mut Dice) -> Result<(Vec<Event>, AttackReport), EncounterError> {
        attack(encounter, request, dice)
    }
}

impl Stateless for Attacks {
    type InlineRequest = InlineAttackRequest;
    const INLINE_EXAMPLE: &'static str = r#"{"attacker": {"initiative_bonus": 3, "attack_bonus": 5},
        "target": {"initiative_bonus": 1, "defense": 15, "vitality": 12},
        "weapon": {"name": "Pistol", "damage": {"count": 2, "sides": 6}}}"#;

    fn inline_deliveries(request: &InlineAttackRequest) -> Vec<InlineDelivery<'_, Spycraft2>> {
        let state = inline_state(request.target_vitality_lost, request.target_wounds_lost);
        vec![InlineDelivery { name: "target", field: "target_wounds_lost".into(), stats: &request.target, state, receipt: Receipt::Damage }]
    }

    fn run_inline(request: InlineAttackRequest, dice: &mut Dice) -> Result<AttackReport, RuleError> {
        attack_inline(request, dice)
    }
}

/// Damage outside an attack.
pub struct Damage;

impl Command for Damage {
    type Ruleset = Spycraft2;
    const NAME: &'static str = "damage";
    const DESCRIPTION: &'static str = "Applies damage through armour to vitality then wounds (critical: wounds \
        only) and records the Injuries rows of the fluid-initiative table (spycraft2.txt).";
    const EXAMPLE: &'static str = r#"{"combatant_id": "cmb_target", "amount": 9}"#;
    type Request = DamageRequest;
    type Report = DamageReport;

    fn deliveries(request: &DamageRequest) -> Vec<Delivery<'_>> {
        vec![Delivery::new(&request.combatant_id, "combatant_id", Receipt::Damage)]
    }

    fn run(encounter: &mut Encounter, request: DamageRequest, dice: &mut Dice) -> Result<(Vec<Event>, DamageReport), EncounterError> {
        damage(encounter, request, dice)
    }
}

impl Stateless for Damage {
    type InlineRequest = InlineDamageRequest;
    const INLINE_EXAMPLE: &'static str = r#"{"target": {"initiative_bonus": 1, "vitality": 12}, "amount": 9}"#;

    fn inline_deliveries(request: &InlineDamageRequest) -> Vec<InlineDelivery<'_, Spycraft2>> {
        let state = inline_state(request.vitality_lost, request.wounds_lost);
        vec![InlineDelivery { name: "target", field: "wounds_lost".into(), stats: &request.target, state, receipt: Receipt::Damage }]
    }

    fn run_inline(request: InlineDamageRequest, dice: &mut Dice) -> Result<DamageReport, RuleError> {
        damage_inline(request, dice)
    }
}

/// Saving throws and the table's Saving Throws rows.
pub struct Saves;

impl Command for Saves {
    type Ruleset = Spycraft2;
    const NAME: &'static str = "saves";
    const DESCRIPTION: &'static str = "Rolls a Fortitude, Reflex or Will save (1d20 + bonus + modifiers \
        against a DC); a failure costs 2 on the Count, and 5 more against a stress condition or blast damage \
        (spycraft2.txt, \"Table: Fluid Initiative Modifiers\", \"Saving Throws\").";
    const EXAMPLE: &'static str = r#"{"combatant_id": "cmb_target", "save": "will", "dc": 15, "against": "stress"}"#;
    type Request = SaveRequest;
    type Report = SaveReport;

    fn run(encounter: &mut Encounter, request: SaveRequest, dice: &mut Dice) -> Result<(Vec<Event>, SaveReport), EncounterError> {
        save(encounter, request, dice)
    }
}

impl Stateless for Saves {
    type InlineRequest = InlineSaveRequest;
    const INLINE_EXAMPLE: &'static str = r#"{"stats": {"initiative_bonus": 0, "reflex": 4}, "save": "reflex", "dc": 15, "against": "blast"}"#;

    fn run_inline(request: InlineSaveRequest, dice: &mut Dice) -> Result<SaveReport, RuleError> {
        save_inline(request, dice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    #[test]
    fn initiative_count_is_1d20_plus_bonus() {
        // bonus +4, die 13 → 17.
        let stats = Stats::with_initiative_bonus(Score::new(4).unwrap());
        let mut dice = Dice::scripted(vec![13], 0).unwrap();
        assert_eq!(roll_initiative(&stats, &mut dice, "i").unwrap().score, 17);
    }

    #[test]
    fn a_natural_20_or_1_is_just_its_value() {
        // No threat or error on an Initiative check: 20 + 2 = 22, 1 + 2 = 3.
        let stats = Stats::with_initiative_bonus(Score::new(2).unwrap());
        let mut dice = Dice::scripted(vec![20, 1], 0).unwrap();
        assert_eq!(roll_initiative(&stats, &mut dice, "i").unwrap().score, 22);
        assert_eq!(roll_initiative(&stats, &mut dice, "i").unwrap().score, 3);
    }

    #[test]
    fn old_stat_blocks_still_read() {
        let stats: Stats = serde_json::from_str(r#"{"initiative_bonus": 4}"#).unwrap();
        assert_eq!(stats, Stats::with_initiative_bonus(Score::new(4).unwrap()));
        assert!(serde_json::from_str::<Stats>(r#"{"initiative_bonus": 4, "defence": 3}"#).is_err());
    }
}
