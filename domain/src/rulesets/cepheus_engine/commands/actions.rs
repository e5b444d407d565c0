//! Declared actions (cepheus-engine.txt, "Dynamic Initiative", "Minor Actions", "Aiming",
//! "Aiming for the Kill", "Changing Stance", "Drawing and Reloading", "Movement", "Significant
//! Actions", "Reactions", "Free Actions", "Extended Actions", "Battlefield Comms", "Tactics and
//! Leadership", "Grappling", "Explosions", "Fatigue").
//!
//! Decisions:
//! - Turn actions (aim, aim_for_kill, change_stance, move, draw_or_reload, other_minor,
//!   leadership, start_extended_action, grapple, other_significant) need the combatant's turn, a
//!   combatant able to act, and room in its turn (`economy.rs`). Costs: aim, aim_for_kill,
//!   change_stance, move, draw_or_reload and other_minor are minor; leadership, grapple,
//!   start_extended_action and other_significant are significant.
//! - Free, off-turn: hasten (its own timing rules, `dynamic::hasten`), react, explosion (both
//!   reactions), comms, fatigue (the referee's), abandon_extended_action (at any time, as the text
//!   allows), tactics (see below) and free (a shouted warning can come at any moment; it needs a
//!   combatant able to act, and a note of 1 to 200 characters).
//! - Aiming: each aim adds +1 (each aim for the kill +1 damage) at one target, at most 6 of each;
//!   a seventh is refused. Aiming at a new target starts again from 0. Aim and aim for the kill at
//!   the same target are kept side by side.
//! - Changing to the stance already held is refused (field `stance`).
//! - Movement: up to 6 m, halved when crouched; prone characters crawl, like the seriously
//!   wounded, at most 1.5 m (the text is silent on crawling speed). `metres` is optional and is
//!   only checked against that limit; terrain is the table's.
//! - Leadership: a significant action; the leader rolls 2D6 + Leadership (−3 unskilled) + the
//!   characteristic DM (SOC unless another is named) + its own penalties, against 8. The target's
//!   Initiative rises by a positive Effect for one round. Neither may be cut off from comms.
//! - Tactics: a check at the start of combat, so it is refused after round 1 or once the commander
//!   has taken an action. 2D6 + Tactics + the characteristic DM (INT unless named) + penalties.
//!   Every listed unit member in communication gains the Effect for the combat; those cut off are
//!   skipped and listed in the notes. A member that already has a Tactics bonus is refused.
//! - Grapple: a significant action of the combatant whose turn it is (side `a`) against
//!   `target_id` (side `b`). Each side's DM is its Natural Weapons skill ("natural_weapons", −3
//!   unskilled) + STR or DEX DM (the side's choice, else the better current one) + its own
//!   penalties. The two are in an established grapple when they are recorded as grappling each
//!   other. Grapple damage goes to the loser with the request's `overflow_to` / `allocation`; a
//!   knocked-prone loser becomes prone. The grapple is recorded on both or cleared from both.
//!   Range is taken as Personal: asking to grapple says the two are in the same square.
//! - Explosion: `damage` (0 to 10,000, before armour) on the combatant, reduced by its response
//!   (a reaction: dodge −1D6, dive half and prone and the next significant action lost), then its
//!   armour, then allocated.
//! - Fatigue on a fatigued combatant knocks it out: it is marked defeated.
//! - A dead combatant takes no action at all, free ones included (fatigue, rest, comms, tactics,
//!   healing), and a dead unit member named in a Tactics check receives no bonus: the ruleset's
//!   one rule answers before the action runs (`CepheusEngine::may_receive`, asked by
//!   `receiving::run`), 409 on `combatant_id` or `unit_ids[i]`, as for attacks and damage.

use super::super::allocation::{AllocationChoice, DamageSplit, Overflow};
use super::super::attack_request::MeleeCharacteristic;
use super::super::character::Physical;
use super::super::circumstances::MAX_AIM;
use super::super::collision::CollisionOutcome;
use super::super::damage::{Status, apply_armour};
use super::super::dynamic::{hasten, leadership_boost, react, set_comms, tactics_boost};
use super::super::explosion::{
    ExplosionOutcome, ExplosionResponse, check_can_react, resolve_explosion_exposure,
};
use super::super::fatigue::{FatigueOutcome, apply_fatigue};
use super::super::grapple::{
    GrappleChoice, GrappleOption, GrappleOutcome, GrappleRequest, GrappleRole, GrappleSide, resolve_grapple,
};
use super::super::modifier::{Modifier, ModifierCode, total_dm};
use super::super::opposed::{CheckRoll, roll_check};
use super::super::range::RangeBand;
use super::super::stance::Stance;
use super::super::{CepheusEngine, Stats, state::CombatState};
use super::apply::{HitResult, apply_hit};
use super::super::economy::{ActionEconomy, Cost, spend};
use super::super::state::ExtendedAction;
use super::extended;
use super::recovery::{self, HealMethod, HealRequest, HealingReport};
use super::vehicle_actions::{self, Occupants};
use super::{
    CharacteristicName, combatant, combatant_mut, ensure_can_act, ensure_turn,
    own_check_modifiers, parts, parts_mut, state_mut,
};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event, MAX_COMBATANTS};
use crate::rulesets::{RuleError, RulesetReport, plugin};
use crate::score::{Measure, Score};
use serde::{Deserialize, Serialize};

/// Longest note on a free or miscellaneous action, in characters.
pub const MAX_NOTE_CHARS: usize = 200;
/// Most blast damage accepted.
pub const MAX_EXPLOSION_DAMAGE: i32 = 10_000;

/// A vehicle's speed in km/h.
pub type SpeedKph = Measure<0, 5000>;

/// A reaction declared on its own, against something the engine does not model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineStandaloneReaction))]
#[serde(rename_all = "snake_case")]
pub enum StandaloneReaction {
    Dodge,
    Parry,
}

/// POST /v1/encounters/{id}/actions: one declared action, tagged by `action`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAction))]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Hasten {
        combatant_id: CombatantId,
    },
    React {
        combatant_id: CombatantId,
        reaction: StandaloneReaction,
    },
    Aim {
        combatant_id: CombatantId,
        target_id: CombatantId,
    },
    AimForKill {
        combatant_id: CombatantId,
        target_id: CombatantId,
    },
    ChangeStance {
        combatant_id: CombatantId,
        stance: Stance,
    },
    Leadership {
        combatant_id: CombatantId,
        target_id: CombatantId,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
    },
    Tactics {
        combatant_id: CombatantId,
        unit_ids: Vec<CombatantId>,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
    },
    Comms {
        combatant_id: CombatantId,
        in_contact: bool,
    },
    Fatigue {
        combatant_id: CombatantId,
    },
    StartExtendedAction {
        combatant_id: CombatantId,
        skill: String,
        /// 2 to 1,000 rounds.
        rounds: Score<2, 1000>,
    },
    AbandonExtendedAction {
        combatant_id: CombatantId,
    },
    Grapple {
        combatant_id: CombatantId,
        target_id: CombatantId,
        #[serde(default)]
        characteristic: Option<MeleeCharacteristic>,
        #[serde(default)]
        target_characteristic: Option<MeleeCharacteristic>,
        /// What the combatant does if it wins.
        #[serde(default)]
        choice: Option<GrappleChoice>,
        /// What the target does if it wins an established grapple.
        #[serde(default)]
        target_choice: Option<GrappleChoice>,
        /// The loser's allocation of grapple damage.
        #[serde(default)]
        overflow_to: Option<Overflow>,
        #[serde(default)]
        allocation: Option<DamageSplit>,
    },
    Explosion {
        combatant_id: CombatantId,
        /// Blast damage before the response and armour, 0 to 10,000.
        damage: Score<0, 10_000>,
        #[serde(default)]
        response: ExplosionResponse,
        #[serde(default)]
        overflow_to: Option<Overflow>,
        #[serde(default)]
        allocation: Option<DamageSplit>,
    },
    Move {
        combatant_id: CombatantId,
        /// Metres moved, 0 to 6 (less when crouched, prone or seriously wounded).
        #[serde(default)]
        metres: Option<Measure<0, 6>>,
    },
    DrawOrReload {
        combatant_id: CombatantId,
    },
    OtherMinor {
        combatant_id: CombatantId,
        #[serde(default)]
        note: Option<String>,
    },
    OtherSignificant {
        combatant_id: CombatantId,
        #[serde(default)]
        note: Option<String>,
    },
    Free {
        combatant_id: CombatantId,
        note: String,
    },
    Collision {
        combatant_id: CombatantId,
        /// 0 to 5,000 km/h.
        speed_kph: SpeedKph,
        #[serde(default)]
        target_ids: Vec<CombatantId>,
        #[serde(default)]
        unsecured_ids: Vec<CombatantId>,
        #[serde(default)]
        secured_ids: Vec<CombatantId>,
        #[serde(default)]
        overflow_to: Option<Overflow>,
    },
    EvasiveAction {
        combatant_id: CombatantId,
        skill: String,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
    },
    Ram {
        combatant_id: CombatantId,
        skill: String,
        target_id: CombatantId,
        speed_kph: SpeedKph,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
        /// The referee's DM for the ram, −10 to +10.
        #[serde(default)]
        dm: Score<-10, 10>,
        #[serde(default)]
        target_solid: bool,
        #[serde(default)]
        unsecured_ids: Vec<CombatantId>,
        #[serde(default)]
        secured_ids: Vec<CombatantId>,
        #[serde(default)]
        overflow_to: Option<Overflow>,
    },
    Stunt {
        combatant_id: CombatantId,
        skill: String,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
        /// The stunt's difficulty DM, −10 to +10.
        #[serde(default)]
        dm: Score<-10, 10>,
    },
    Weave {
        combatant_id: CombatantId,
        skill: String,
        /// 1 to 250, and at most speed ÷ 20 rounded up.
        weaving_number: Score<1, 250>,
        speed_kph: SpeedKph,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
    },
    Drive {
        combatant_id: CombatantId,
        #[serde(default)]
        demanding: bool,
    },
    RegainConsciousness {
        combatant_id: CombatantId,
        /// 0 to 1,000.
        #[serde(default)]
        failed_checks: Score<0, 1000>,
    },
    Rest {
        combatant_id: CombatantId,
    },
    Heal {
        combatant_id: CombatantId,
        method: HealMethod,
        /// 1 to 365.
        #[serde(default)]
        days: Option<Score<1, 365>>,
        #[serde(default)]
        medic_id: Option<CombatantId>,
        /// An outside medic's Medicine level, −3 (unskilled) to 15.
        #[serde(default)]
        medic_skill: Option<Score<-3, 15>>,
        #[serde(default)]
        split: Option<DamageSplit>,
    },
}

impl Action {
    /// The acting combatant.
    pub fn combatant_id(&self) -> &CombatantId {
        match self {
            Action::Hasten { combatant_id }
            | Action::React { combatant_id, .. }
            | Action::Aim { combatant_id, .. }
            | Action::AimForKill { combatant_id, .. }
            | Action::ChangeStance { combatant_id, .. }
            | Action::Leadership { combatant_id, .. }
            | Action::Tactics { combatant_id, .. }
            | Action::Comms { combatant_id, .. }
            | Action::Fatigue { combatant_id }
            | Action::StartExtendedAction { combatant_id, .. }
            | Action::AbandonExtendedAction { combatant_id }
            | Action::Grapple { combatant_id, .. }
            | Action::Explosion { combatant_id, .. }
            | Action::Move { combatant_id, .. }
            | Action::DrawOrReload { combatant_id }
            | Action::OtherMinor { combatant_id, .. }
            | Action::OtherSignificant { combatant_id, .. }
            | Action::Free { combatant_id, .. }
            | Action::Collision { combatant_id, .. }
            | Action::EvasiveAction { combatant_id, .. }
            | Action::Ram { combatant_id, .. }
            | Action::Stunt { combatant_id, .. }
            | Action::Weave { combatant_id, .. }
            | Action::Drive { combatant_id, .. }
            | Action::RegainConsciousness { combatant_id, .. }
            | Action::Rest { combatant_id }
            | Action::Heal { combatant_id, .. } => combatant_id,
        }
    }

    /// The `action` tag.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Hasten { .. } => "hasten",
            Action::React { .. } => "react",
            Action::Aim { .. } => "aim",
            Action::AimForKill { .. } => "aim_for_kill",
            Action::ChangeStance { .. } => "change_stance",
            Action::Leadership { .. } => "leadership",
            Action::Tactics { .. } => "tactics",
            Action::Comms { .. } => "comms",
            Action::Fatigue { .. } => "fatigue",
            Action::StartExtendedAction { .. } => "start_extended_action",
            Action::AbandonExtendedAction { .. } => "abandon_extended_action",
            Action::Grapple { .. } => "grapple",
            Action::Explosion { .. } => "explosion",
            Action::Move { .. } => "move",
            Action::DrawOrReload { .. } => "draw_or_reload",
            Action::OtherMinor { .. } => "other_minor",
            Action::OtherSignificant { .. } => "other_significant",
            Action::Free { .. } => "free",
            Action::Collision { .. } => "collision",
            Action::EvasiveAction { .. } => "evasive_action",
            Action::Ram { .. } => "ram",
            Action::Stunt { .. } => "stunt",
            Action::Weave { .. } => "weave",
            Action::Drive { .. } => "drive",
            Action::RegainConsciousness { .. } => "regain_consciousness",
            Action::Rest { .. } => "rest",
            Action::Heal { .. } => "heal",
        }
    }
}

/// A 2D6 check made for an action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCheckReport))]
pub struct CheckReport {
    pub purpose: String,
    pub modifiers: Vec<Modifier>,
    pub roll: CheckRoll,
}

/// Where the combatant's aim stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAimReport))]
pub struct AimReport {
    pub target_id: CombatantId,
    pub aim: u8,
    pub aim_for_kill: u8,
}

/// What one declared action did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineActionReport))]
pub struct ActionReport {
    pub combatant_id: CombatantId,
    pub name: String,
    pub action: String,
    pub cost: Cost,
    /// The combatant's actions this turn, after this one (`None` for free actions).
    pub economy: Option<ActionEconomy>,
    pub description: String,
    pub target_id: Option<CombatantId>,
    pub check: Option<CheckReport>,
    pub aim: Option<AimReport>,
    pub stance: Option<Stance>,
    pub grapple: Option<GrappleOutcome>,
    pub explosion: Option<ExplosionOutcome>,
    /// Damage the action put on someone.
    pub hit: Option<HitResult>,
    pub fatigue: Option<FatigueOutcome>,
    pub extended: Option<ExtendedAction>,
    /// Unit members whose Initiative a Tactics check raised.
    pub boosted: Vec<CombatantId>,
    pub notes: Vec<String>,
    /// A collision's (or ram's) damage roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision: Option<CollisionOutcome>,
    /// Everyone a collision or ram hurt, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hits: Vec<HitResult>,
    /// The weaving number pursuers must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weaving_number: Option<i32>,
    /// Hours of rest that ended fatigue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest_hours: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healing: Option<HealingReport>,
}

impl ActionReport {
    pub fn new(id: &CombatantId, name: &str, action: &str, cost: Cost) -> Self {
        Self {
            combatant_id: id.clone(),
            name: name.to_string(),
            action: action.to_string(),
            cost,
            economy: None,
            description: String::new(),
            target_id: None,
            check: None,
            aim: None,
            stance: None,
            grapple: None,
            explosion: None,
            hit: None,
            fatigue: None,
            extended: None,
            boosted: Vec::new(),
            notes: Vec::new(),
            collision: None,
            hits: Vec::new(),
            weaving_number: None,
            rest_hours: None,
            healing: None,
        }
    }
}

/// Carries out one declared action (see the module decisions). Refused actions leave the
/// encounter unchanged.
pub fn act(
    encounter: &mut Encounter,
    action: Action,
    dice: &mut Dice,
) -> Result<(Vec<Event>, ActionReport), EncounterError> {
    plugin::ensure_active::<CepheusEngine>(encounter)?;
    let mut draft = encounter.clone();
    let mut consequences = Vec::new();
    let start = dice.rolls().len();
    let report = perform(&mut draft, &action, dice, &mut consequences)?;
    let mut events = vec![Event::ActionTaken {
        combatant_id: action.combatant_id().clone(),
        action: action.name().to_string(),
        report: RulesetReport::CepheusEngine(crate::rulesets::cepheus_engine::Report::Action(Box::new(report.clone()))),
        dice: dice.rolls()[start..].to_vec(),
    }];
    events.extend(consequences);
    *encounter = draft;
    Ok((events, report))
}

pub(super) fn invalid(field: &str, message: impl Into<String>) -> EncounterError {
    EncounterError::invalid(field, message)
}

/// A turn action: the combatant's turn, able to act, not grappling, and room in the turn.
pub(super) fn turn_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    cost: Cost,
    what: &str,
    grapple_allowed: bool,
) -> Result<ActionEconomy, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    let (_, state) = parts(found, "combatant_id")?;
    ensure_turn(encounter, id, "combatant_id")?;
    ensure_can_act(found, "combatant_id")?;
    if !grapple_allowed && state.grappling_with.is_some() {
        return Err(invalid(
            "action",
            format!("{} is locked in a grapple and can only make grapple checks", found.name),
        ));
    }
    spend(encounter, id, cost, what)
}

fn clear_aim(state: &mut CombatState) -> bool {
    let had = state.aim > 0 || state.aim_for_kill > 0;
    state.aim = 0;
    state.aim_for_kill = 0;
    state.aim_target = None;
    had
}

/// Clears the combatant's aim and notes it.
pub(super) fn lose_aim(
    encounter: &mut Encounter,
    id: &CombatantId,
    report: &mut ActionReport,
) -> Result<(), EncounterError> {
    if clear_aim(state_mut(encounter, id, "combatant_id")?) {
        report.notes.push(format!("{} stopped aiming and lost the aim", report.name));
    }
    Ok(())
}

/// Another combatant of the encounter, able to be targeted (not the actor, not dead).
pub(super) fn other(
    encounter: &Encounter,
    actor: &CombatantId,
    target: &CombatantId,
) -> Result<String, EncounterError> {
    let found = combatant(encounter, target, "target_id")?;
    let (stats, _) = parts(found, "target_id")?;
    if actor == target {
        return Err(invalid("target_id", "the target must be another combatant"));
    }
    if stats.status() == Status::Dead {
        return Err(invalid("target_id", format!("{} is dead", found.name)));
    }
    Ok(found.name.clone())
}

fn check_note(field: &str, note: &str) -> Result<(), EncounterError> {
    let length = note.chars().count();
    if note.trim().is_empty() || length > MAX_NOTE_CHARS {
        return Err(invalid(field, format!("a note has 1 to {MAX_NOTE_CHARS} characters (got {length})")));
    }
    Ok(())
}

fn skill_modifier(stats: &Stats, skill: &str) -> Modifier {
    match stats.skill_level(skill) {
        Some(level) => Modifier::new(ModifierCode::Skill, format!("{skill} {level}"), level),
        None => Modifier::new(ModifierCode::Skill, format!("unskilled in {skill}"), stats.skill_dm(skill)),
    }
}

/// The modifiers of a skill check: skill, characteristic DM and own penalties.
pub(super) fn skill_check_with(
    encounter: &Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: CharacteristicName,
) -> Result<Vec<Modifier>, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    let (stats, state) = parts(found, "combatant_id")?;
    let mut modifiers = vec![skill_modifier(stats, skill)];
    modifiers.push(Modifier::new(ModifierCode::CharacteristicDm, format!("{} DM", characteristic.label()), characteristic.dm(stats)));
    modifiers.extend(own_check_modifiers(stats, state, encounter.round));
    Ok(modifiers)
}

/// 2D6 + skill + characteristic + own penalties, against 8.
fn skill_check(
    encounter: &Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: CharacteristicName,
    purpose: &str,
    dice: &mut Dice,
) -> Result<CheckReport, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    let (stats, state) = parts(found, "combatant_id")?;
    let mut modifiers = vec![skill_modifier(stats, skill)];
    let dm = characteristic.dm(stats);
    modifiers.push(Modifier::new(ModifierCode::CharacteristicDm, format!("{} DM", characteristic.label()), dm));
    modifiers.extend(own_check_modifiers(stats, state, encounter.round));
    let roll = roll_check(total_dm(&modifiers), dice, purpose)?;
    Ok(CheckReport { purpose: purpose.to_string(), modifiers, roll })
}

fn perform(
    encounter: &mut Encounter,
    action: &Action,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    let id = action.combatant_id().clone();
    let found = combatant(encounter, &id, "combatant_id")?;
    let _ = parts(found, "combatant_id")?;
    let name = found.name.clone();
    let new = |cost| ActionReport::new(&id, &name, action.name(), cost);
    match action {
        Action::Hasten { .. } => {
            ensure_can_act(found, "combatant_id")?;
            hasten(encounter, &id, events)?;
            let mut report = new(Cost::Free);
            report.description =
                format!("{name} acts hastily: +2 Initiative and −1 DM on all checks this round");
            Ok(report)
        }
        Action::React { reaction, .. } => {
            standalone_reaction(encounter, &id, *reaction, new(Cost::Free), events)
        }
        Action::Aim { target_id, .. } => aim(encounter, &id, target_id, false, new(Cost::Minor)),
        Action::AimForKill { target_id, .. } => aim(encounter, &id, target_id, true, new(Cost::Minor)),
        Action::ChangeStance { stance, .. } => {
            let (_, state) = parts(found, "combatant_id")?;
            if state.stance == *stance {
                return Err(invalid("stance", format!("{name} is already {}", stance.label())));
            }
            let mut report = new(Cost::Minor);
            report.economy = Some(turn_action(encounter, &id, Cost::Minor, "changing stance", false)?);
            lose_aim(encounter, &id, &mut report)?;
            state_mut(encounter, &id, "combatant_id")?.stance = *stance;
            report.stance = Some(*stance);
            report.description = format!("{name} is now {}", stance.label());
            Ok(report)
        }
        Action::Leadership { target_id, characteristic, .. } => leadership(
            encounter,
            &id,
            target_id,
            characteristic.unwrap_or(CharacteristicName::Soc),
            new(Cost::Significant),
            dice,
            events,
        ),
        Action::Tactics { unit_ids, characteristic, .. } => tactics(
            encounter,
            &id,
            unit_ids,
            characteristic.unwrap_or(CharacteristicName::Int),
            new(Cost::Free),
            dice,
            events,
        ),
        Action::Comms { in_contact, .. } => {
            set_comms(encounter, &id, *in_contact, events)?;
            let mut report = new(Cost::Free);
            report.description = if *in_contact {
                format!("{name} is in communication with its unit and commander")
            } else {
                format!("{name} is cut off: no Tactics or Leadership benefit until contact returns")
            };
            Ok(report)
        }
        Action::Fatigue { .. } => fatigue(encounter, &id, new(Cost::Free)),
        Action::StartExtendedAction { skill, rounds, .. } => {
            let mut report = new(Cost::Significant);
            report.economy =
                Some(turn_action(encounter, &id, Cost::Significant, "an extended action", false)?);
            lose_aim(encounter, &id, &mut report)?;
            let round = encounter.round;
            let state = state_mut(encounter, &id, "combatant_id")?;
            let started = extended::start(state, skill, rounds.get().unsigned_abs(), round)?;
            report.description = format!(
                "{name} starts an extended action ({}) of {} rounds; this round is the first",
                started.skill, started.rounds
            );
            report.extended = Some(started);
            Ok(report)
        }
        Action::AbandonExtendedAction { .. } => {
            let state = state_mut(encounter, &id, "combatant_id")?;
            let Some(abandoned) = state.extended.take() else {
                return Err(invalid("action", format!("{name} has no extended action to abandon")));
            };
            let mut report = new(Cost::Free);
            report.description = format!(
                "{name} abandons the extended action ({}) after {} of {} rounds",
                abandoned.skill, abandoned.completed, abandoned.rounds
            );
            report.extended = Some(abandoned);
            Ok(report)
        }
        Action::Grapple { .. } => grapple(encounter, action, new(Cost::Significant), dice),
        Action::Explosion { damage, response, overflow_to, allocation, .. } => {
            let choice = AllocationChoice { overflow_to: *overflow_to, allocation: allocation.map(Into::into) };
            explosion(encounter, &id, damage.get(), *response, &choice, new(Cost::Free), dice, events)
        }
        Action::Move { metres, .. } => movement(encounter, &id, metres.map(Measure::get), new(Cost::Minor)),
        Action::DrawOrReload { .. } => {
            simple(encounter, &id, Cost::Minor, new(Cost::Minor), format!("{name} draws or reloads a weapon"))
        }
        Action::OtherMinor { note, .. } | Action::OtherSignificant { note, .. } => {
            let cost =
                if matches!(action, Action::OtherMinor { .. }) { Cost::Minor } else { Cost::Significant };
            if let Some(note) = note {
                check_note("note", note)?;
            }
            let what = note.clone().unwrap_or_else(|| "something else".to_string());
            simple(encounter, &id, cost, new(cost), format!("{name}: {what}"))
        }
        Action::Free { note, .. } => {
            check_note("note", note)?;
            ensure_can_act(found, "combatant_id")?;
            let mut report = new(Cost::Free);
            report.description = format!("{name}: {note}");
            Ok(report)
        }
        Action::Collision { speed_kph, target_ids, unsecured_ids, secured_ids, overflow_to, .. } => {
            let occupants = Occupants { targets: target_ids, unsecured: unsecured_ids, secured: secured_ids };
            vehicle_actions::collision(encounter, speed_kph.get(), &occupants, *overflow_to, new(Cost::Free), dice)
        }
        Action::EvasiveAction { skill, characteristic, .. } => vehicle_actions::evasive_action(
            encounter,
            &id,
            skill,
            *characteristic,
            new(Cost::Significant),
            dice,
        ),
        Action::Ram {
            skill,
            target_id,
            speed_kph,
            characteristic,
            dm,
            target_solid,
            unsecured_ids,
            secured_ids,
            overflow_to,
            ..
        } => {
            let occupants = Occupants { targets: &[], unsecured: unsecured_ids, secured: secured_ids };
            vehicle_actions::ram(
                encounter,
                &id,
                skill,
                *characteristic,
                target_id,
                speed_kph.get(),
                dm.get(),
                *target_solid,
                &occupants,
                *overflow_to,
                new(Cost::Significant),
                dice,
            )
        }
        Action::Stunt { skill, characteristic, dm, .. } => {
            vehicle_actions::stunt(encounter, &id, skill, *characteristic, dm.get(), new(Cost::Significant), dice)
        }
        Action::Weave { skill, weaving_number, speed_kph, characteristic, .. } => vehicle_actions::weave(
            encounter,
            &id,
            skill,
            *characteristic,
            weaving_number.get(),
            speed_kph.get(),
            new(Cost::Significant),
            dice,
        ),
        Action::Drive { demanding, .. } => {
            vehicle_actions::drive(encounter, &id, *demanding, new(Cost::Minor))
        }
        Action::RegainConsciousness { failed_checks, .. } => {
            recovery::regain_consciousness(encounter, &id, failed_checks.get().unsigned_abs(), new(Cost::Free), dice)
        }
        Action::Rest { .. } => recovery::rest(encounter, &id, new(Cost::Free)),
        Action::Heal { method, days, medic_id, medic_skill, split, .. } => {
            let request = HealRequest {
                method: *method,
                days: days.map(|days| days.get().unsigned_abs()),
                medic_id: medic_id.as_ref(),
                medic_skill: medic_skill.map(Score::get),
                split: split.map(Into::into),
            };
            recovery::heal(encounter, &id, &request, new(Cost::Free), dice)
        }
    }
}

fn simple(
    encounter: &mut Encounter,
    id: &CombatantId,
    cost: Cost,
    mut report: ActionReport,
    description: String,
) -> Result<ActionReport, EncounterError> {
    report.economy = Some(turn_action(encounter, id, cost, &description, false)?);
    lose_aim(encounter, id, &mut report)?;
    report.description = description;
    Ok(report)
}

/// A reaction on its own (cepheus-engine.txt, "Reactions", "Dodging", "Parrying", "Stance").
fn standalone_reaction(
    encounter: &mut Encounter,
    id: &CombatantId,
    reaction: StandaloneReaction,
    mut report: ActionReport,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    let (stats, state) = parts(found, "combatant_id")?;
    let name = found.name.clone();
    if !stats.status().can_act() {
        return Err(invalid("reaction", format!("{name} cannot react in its state")));
    }
    if state.extended.is_some() {
        return Err(invalid("reaction", format!("{name} is busy with an extended action and cannot react")));
    }
    if reaction == StandaloneReaction::Dodge && state.stance == Stance::Prone {
        return Err(invalid("reaction", format!("{name} is prone and cannot dodge")));
    }
    let what = match reaction {
        StandaloneReaction::Dodge => "dodge",
        StandaloneReaction::Parry => "parry",
    };
    react(encounter, id, what, events)?;
    lose_aim(encounter, id, &mut report)?;
    report.description =
        format!("{name} reacts ({what}): −2 Initiative for one round, −1 DM on checks this round");
    Ok(report)
}

/// Aiming or aiming for the kill (cepheus-engine.txt, "Aiming", "Aiming for the Kill").
fn aim(
    encounter: &mut Encounter,
    id: &CombatantId,
    target: &CombatantId,
    for_kill: bool,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let target_name = other(encounter, id, target)?;
    let (_, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    let same = state.aim_target.as_ref() == Some(target);
    let current = if !same {
        0
    } else if for_kill {
        state.aim_for_kill
    } else {
        state.aim
    };
    if current >= MAX_AIM {
        let what = if for_kill { "aiming for the kill" } else { "aiming" };
        return Err(invalid("action", format!("{} already has the most {what} allowed (+6)", report.name)));
    }
    report.economy = Some(turn_action(encounter, id, Cost::Minor, "aiming", false)?);
    let state = state_mut(encounter, id, "combatant_id")?;
    if !same {
        if clear_aim(state) {
            report.notes.push("aim at the previous target lost".into());
        }
        state.aim_target = Some(target.clone());
    }
    if for_kill {
        state.aim_for_kill += 1;
    } else {
        state.aim += 1;
    }
    report.aim =
        Some(AimReport { target_id: target.clone(), aim: state.aim, aim_for_kill: state.aim_for_kill });
    report.target_id = Some(target.clone());
    report.description = if for_kill {
        format!(
            "{} aims for the kill at {target_name}: +{} damage on the next attack",
            report.name, state.aim_for_kill
        )
    } else {
        format!("{} aims at {target_name}: +{} on the next attack", report.name, state.aim)
    };
    Ok(report)
}

/// Leadership (cepheus-engine.txt, "Tactics and Leadership", "Battlefield Comms").
fn leadership(
    encounter: &mut Encounter,
    id: &CombatantId,
    target: &CombatantId,
    characteristic: CharacteristicName,
    mut report: ActionReport,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    let target_name = other(encounter, id, target)?;
    let (_, target_state) = parts(combatant(encounter, target, "target_id")?, "target_id")?;
    if target_state.cut_off {
        return Err(invalid(
            "target_id",
            format!("{target_name} is cut off from comms and cannot benefit from Leadership"),
        ));
    }
    let (_, own) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    if own.cut_off {
        return Err(invalid(
            "combatant_id",
            format!("{} is cut off from comms and cannot lead", report.name),
        ));
    }
    report.economy = Some(turn_action(encounter, id, Cost::Significant, "a Leadership check", false)?);
    lose_aim(encounter, id, &mut report)?;
    let check = skill_check(encounter, id, "leadership", characteristic, "Leadership check", dice)?;
    let effect = check.roll.effect;
    leadership_boost(encounter, target, effect, events)?;
    report.description = if effect > 0 {
        format!(
            "{}'s Leadership (Effect {effect:+}) raises {target_name}'s Initiative by {effect} for one round",
            report.name
        )
    } else {
        format!("{}'s Leadership check (Effect {effect:+}) has no effect", report.name)
    };
    report.target_id = Some(target.clone());
    report.check = Some(check);
    Ok(report)
}

/// Tactics (cepheus-engine.txt, "Initiative", "Tactics and Leadership", "Battlefield Comms").
fn tactics(
    encounter: &mut Encounter,
    id: &CombatantId,
    unit: &[CombatantId],
    characteristic: CharacteristicName,
    mut report: ActionReport,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    ensure_can_act(found, "combatant_id")?;
    let (_, state) = parts(found, "combatant_id")?;
    let has_acted = found.acted_this_round
        || (state.economy.round == encounter.round && (state.economy.significant + state.economy.minor) > 0);
    if encounter.round != 1 || has_acted {
        return Err(invalid(
            "action",
            "a Tactics check is made at the start of combat: in round 1, before the commander acts",
        ));
    }
    if unit.is_empty() || unit.len() > MAX_COMBATANTS {
        return Err(invalid("unit_ids", format!("list 1 to {MAX_COMBATANTS} unit members")));
    }
    let mut in_contact = Vec::new();
    for (index, member) in unit.iter().enumerate() {
        let field = format!("unit_ids[{index}]");
        let found = combatant(encounter, member, &field)?;
        let (_, state) = parts(found, &field)?;
        if unit[..index].contains(member) {
            return Err(invalid(&field, format!("{} is listed twice", found.name)));
        }
        if found.initiative.is_none() {
            return Err(invalid(&field, format!("{} has no initiative yet", found.name)));
        }
        if state.tactics_bonus != 0 {
            return Err(invalid(&field, format!("{} already has a Tactics bonus this combat", found.name)));
        }
        if state.cut_off {
            report.notes.push(format!("{} is cut off from comms and gains nothing", found.name));
        } else {
            in_contact.push(member.clone());
        }
    }
    let check = skill_check(encounter, id, "tactics", characteristic, "Tactics check", dice)?;
    let effect = check.roll.effect;
    tactics_boost(encounter, &in_contact, effect, events)?;
    if effect > 0 {
        report.boosted = in_contact;
        report.description = format!(
            "{}'s Tactics (Effect {effect:+}) raises the unit's Initiative by {effect} for the combat",
            report.name
        );
    } else {
        report.description = format!("{}'s Tactics check (Effect {effect:+}) has no effect", report.name);
    }
    report.check = Some(check);
    Ok(report)
}

/// Fatigue imposed by the referee (cepheus-engine.txt, "Fatigue").
fn fatigue(
    encounter: &mut Encounter,
    id: &CombatantId,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let combatant = combatant_mut(encounter, id, "combatant_id")?;
    let name = combatant.name.clone();
    let (stats, state) = parts_mut(combatant, "combatant_id")?;
    let outcome = apply_fatigue(stats);
    let out = !stats.status().can_act();
    if out {
        state.extended = None;
        clear_aim(state);
    }
    let partner = if out { state.grappling_with.take() } else { None };
    if out {
        combatant_mut(encounter, id, "combatant_id")?.flags.defeated = true;
    }
    if let Some(partner) = partner {
        state_mut(encounter, &partner, "combatant_id")?.grappling_with = None;
    }
    report.description = match outcome {
        FatigueOutcome::Fatigued => format!("{name} is fatigued: −2 DM on all checks until rested"),
        FatigueOutcome::KnockedOut => format!("{name} was already fatigued and falls unconscious"),
    };
    report.fatigue = Some(outcome);
    Ok(report)
}

/// Movement (cepheus-engine.txt, "Movement", "Stance", "Injury and Recovery").
fn movement(
    encounter: &mut Encounter,
    id: &CombatantId,
    metres: Option<f64>,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let (stats, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    let mut limit = stats.status().movement_limit_metres().unwrap_or(6.0);
    match state.stance {
        Stance::Standing => {}
        Stance::Crouched => limit /= 2.0,
        Stance::Prone => limit = limit.min(1.5),
    }
    if let Some(metres) = metres
        && (!metres.is_finite() || metres <= 0.0 || metres > limit)
    {
        return Err(invalid(
            "metres",
            format!("{} can move more than 0 and at most {limit} m now", report.name),
        ));
    }
    report.economy = Some(turn_action(encounter, id, Cost::Minor, "moving", false)?);
    lose_aim(encounter, id, &mut report)?;
    report.description = match metres {
        Some(metres) => format!("{} moves {metres} m (at most {limit} m)", report.name),
        None => format!("{} moves (at most {limit} m)", report.name),
    };
    Ok(report)
}

/// One side's opposed Natural Weapons DM.
fn grapple_side(
    encounter: &Encounter,
    id: &CombatantId,
    field: &str,
    characteristic: Option<MeleeCharacteristic>,
) -> Result<(i32, u32), EncounterError> {
    let (stats, state) = parts(combatant(encounter, id, field)?, field)?;
    let (str_dm, dex_dm) = (stats.current_dm(Physical::Str), stats.current_dm(Physical::Dex));
    let characteristic_dm = match characteristic {
        Some(MeleeCharacteristic::Str) => str_dm,
        Some(MeleeCharacteristic::Dex) => dex_dm,
        None => str_dm.max(dex_dm),
    };
    let own = total_dm(&own_check_modifiers(stats, state, encounter.round));
    let armour = u32::try_from(stats.armour.get()).unwrap_or(0);
    Ok((stats.skill_dm("natural_weapons") + characteristic_dm + own, armour))
}

fn grapple_field(error: RuleError) -> EncounterError {
    let RuleError::Invalid { field, message } = error else { return error.into() };
    let renamed = if let Some(rest) = field.strip_prefix("attacker.choice") {
        format!("choice{rest}")
    } else if let Some(rest) = field.strip_prefix("defender.choice") {
        format!("target_choice{rest}")
    } else {
        field
    };
    EncounterError::invalid(renamed, message)
}

/// Grappling (cepheus-engine.txt, "Grappling").
fn grapple(
    encounter: &mut Encounter,
    action: &Action,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    let Action::Grapple {
        combatant_id: id,
        target_id: target,
        characteristic,
        target_characteristic,
        choice,
        target_choice,
        overflow_to,
        allocation,
    } = action
    else {
        unreachable!("called for grapple actions only")
    };
    let target_name = other(encounter, id, target)?;
    let (_, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    if let Some(partner) = &state.grappling_with
        && partner != target
    {
        return Err(invalid(
            "target_id",
            format!("{} is locked in a grapple with {}", report.name, encounter.name_of(partner)),
        ));
    }
    let in_grapple = state.grappling_with.as_ref() == Some(target);
    let (attacker_dm, attacker_armour) = grapple_side(encounter, id, "combatant_id", *characteristic)?;
    let (defender_dm, defender_armour) =
        grapple_side(encounter, target, "target_id", *target_characteristic)?;
    let request = GrappleRequest {
        range: RangeBand::Personal,
        in_grapple,
        attacker: GrappleSide { dm: attacker_dm, armour: attacker_armour, choice: *choice },
        defender: GrappleSide { dm: defender_dm, armour: defender_armour, choice: *target_choice },
    };
    report.economy = Some(turn_action(encounter, id, Cost::Significant, "a grapple check", true)?);
    lose_aim(encounter, id, &mut report)?;
    let outcome = resolve_grapple(&request, dice).map_err(grapple_field)?;
    if let Some(done) = &outcome.action {
        let loser = match done.by {
            GrappleRole::Attacker => target,
            GrappleRole::Defender => id,
        };
        if done.loser_prone {
            state_mut(encounter, loser, "target_id")?.stance = Stance::Prone;
        }
        if let Some(damage) = &done.damage {
            let choice = AllocationChoice { overflow_to: *overflow_to, allocation: allocation.map(Into::into) };
            report.hit = Some(apply_hit(encounter, loser, damage.after_armour, &choice, dice, "target_id")?);
        }
        let winner = if done.by == GrappleRole::Attacker { &report.name } else { &target_name };
        report.description = format!("{winner} wins the grapple and {}", done.description);
        if done.option == GrappleOption::Escape {
            report.notes.push("the winner moves away as with a movement action".into());
        }
    } else {
        report.description = if in_grapple {
            "neither side wins: the grapple holds".to_string()
        } else {
            format!("{} fails to grapple {target_name}", report.name)
        };
    }
    let still = outcome.grappling && report.hit.as_ref().is_none_or(|hit| !hit.defeated);
    state_mut(encounter, id, "combatant_id")?.grappling_with = still.then(|| target.clone());
    state_mut(encounter, target, "target_id")?.grappling_with = still.then(|| id.clone());
    report.target_id = Some(target.clone());
    report.grapple = Some(outcome);
    Ok(report)
}

/// Caught in an explosion (cepheus-engine.txt, "Explosions", "Reactions", "Armor").
#[allow(clippy::too_many_arguments)]
fn explosion(
    encounter: &mut Encounter,
    id: &CombatantId,
    damage: i32,
    response: ExplosionResponse,
    choice: &AllocationChoice,
    mut report: ActionReport,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    if !(0..=MAX_EXPLOSION_DAMAGE).contains(&damage) {
        return Err(invalid("damage", "blast damage must be a whole number from 0 to 10000"));
    }
    let found = combatant(encounter, id, "combatant_id")?;
    let (stats, state) = parts(found, "combatant_id")?;
    let name = found.name.clone();
    let armour = u32::try_from(stats.armour.get()).unwrap_or(0);
    if response != ExplosionResponse::None {
        if !stats.status().can_act() || found.flags.defeated {
            return Err(invalid("response", format!("{name} cannot react in its state")));
        }
        if state.extended.is_some() {
            return Err(invalid(
                "response",
                format!("{name} is busy with an extended action and cannot react"),
            ));
        }
        check_can_react("response", response, state.stance)?;
        let what = if response == ExplosionResponse::Dive {
            "dived for cover from a blast"
        } else {
            "dodged a blast"
        };
        react(encounter, id, what, events).map_err(|error| match error {
            EncounterError::Invalid { message, .. } => invalid("response", message),
            other => other,
        })?;
        lose_aim(encounter, id, &mut report)?;
    }
    let exposure = resolve_explosion_exposure(damage, response, dice)?;
    if exposure.ends_prone {
        let state = state_mut(encounter, id, "combatant_id")?;
        state.stance = Stance::Prone;
        state.loses_next_significant_action = true;
    }
    let after_armour = apply_armour(exposure.damage_after, armour, 0);
    report.hit = Some(apply_hit(encounter, id, after_armour, choice, dice, "combatant_id")?);
    report.description = format!(
        "{name} is caught in a blast: {}; armour {armour} leaves {after_armour}",
        exposure.explanation
    );
    if exposure.ends_prone {
        report.stance = Some(Stance::Prone);
    }
    report.explosion = Some(exposure);
    Ok(report)
}
