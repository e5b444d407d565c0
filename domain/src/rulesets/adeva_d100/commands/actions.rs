//! Declared actions on a stored encounter (adeva-d100.txt, "Action List", "Altitude",
//! "Characteristic Decay").
//!
//! Decisions:
//! - `declared` spends any Action List action on the actor's `TurnBudget` on its turn (attacks
//!   go through the attack command) and stores what lingers: Aim (in the budget), Guard Mode's
//!   modifier on attacks against the actor. Its tests are reported for the table to roll.
//! - `fall` starts a fall from the actor's band; `resolve_crash` rolls and applies a pending
//!   crash (1d10 + squares, `altitude.rs`, soaked by TB + AP). `fatigue` adds levels; `decay`
//!   adds a characteristic decay. These three are the GM's and need no turn.

use super::super::actions::aim::Aim;
use super::super::actions::charge::Charge;
use super::super::actions::ActionType;
use super::super::actions::Weapon;
use super::super::actions::declared::DeclaredAction;
use super::super::actions::grapple::GrappleMove;
use super::super::actions::overwatch::{
    OverwatchAttack, OverwatchTrigger,
};
use super::super::actions::starship::{Boarding, Ram};
use super::super::actions::suppressive::AutoMode;
use super::super::actions::{LingeringEffect, action_spec};
use super::super::altitude::AltitudeBand;
use super::super::damage::DamageDice;
use super::super::decay::CharacteristicDecay;
use super::super::movement::MoveKind;
use super::super::test_modifiers::CallerModifier;
use super::action_outcome::{ActionOutcome, ActionReport, Ran};
use super::core::EvasionChoice;
use super::economy;
use super::fire::WeaponAttack;
use super::overwatch::Observed;
use super::grapple;
use super::starship::BoardingEvasion;
use super::super::AdevaD100;
use super::{ensure_turn, refreshed_mut, peek};
use super::action_groups::{fire_action, manoeuvre};
use super::gm_actions::{add_decay, add_fatigue, resolve_crash, start_fall};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::{Delivery, Receipt, RulesetReport, plugin};
use serde::Deserialize;

/// `POST /v1/encounters/{id}/adeva-d100/actions`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Action))]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// "Aim": a half action (+10) or a full action (+20) on the next attack.
    Aim {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        action_type: ActionType,
    },
    /// "Guard Mode": −20 on attacks against the actor until the start of its next turn.
    GuardMode {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
    },
    /// "Charge" ending in a Grapple or a Knock Down, rolled and applied against `target_id` (a
    /// Charge ending in an attack goes through the attack command). The Half Move comes from the
    /// actor's stat block.
    Charge {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        #[serde(flatten)]
        charge: Charge,
        /// Grapple: the target dodges (its Reaction).
        #[serde(default)]
        dodge: bool,
        /// Knock Down won by 2+ DoS: deal Unarmed damage and a level of Fatigue.
        #[serde(default)]
        hurt: bool,
    },
    Fall {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
    },
    ResolveCrash {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
    },
    Fatigue {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating")]
        #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
        levels: u32,
    },
    Decay {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        decay: CharacteristicDecay,
    },
    /// "Movement", "Altitude": `{"action": "move", "combatant_id", "kind": "half_move", "altitude_to"?}`.
    Move {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        kind: MoveKind,
        #[serde(default)]
        altitude_to: Option<AltitudeBand>,
    },
    /// Stand up from prone (a half action; the text gives no more, see `dynamic.rs`).
    Stand {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
    },
    /// "Boarding" (starships): a WS test modified by the Marines, evaded by dodging, deflecting
    /// or Repel Boarders; a hit deals the Marines' damage to the Hull, ignoring AP and TB.
    Boarding {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        #[serde(flatten)]
        boarding: Boarding,
        /// The Marines' damage profile.
        damage: DamageDice,
        /// The target evades (dodge, deflect or Repel Boarders), as its reaction.
        #[serde(default)]
        evasion: Option<BoardingEvasion>,
        #[serde(default)]
        evasion_modifiers: Vec<CallerModifier>,
    },
    /// "Knock Down".
    KnockDown {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        /// Derived from the actor's turn (a Half Move taken before it); sent, it must agree.
        #[serde(default)]
        after_half_move: Option<bool>,
        /// Won by two or more DoS, deal Unarmed damage and a level of Fatigue (the actor's choice).
        #[serde(default)]
        hurt: bool,
    },
    /// "Disarm".
    Disarm {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        has_talent: bool,
        #[serde(default)]
        advanced_disarm: bool,
        #[serde(default)]
        object: Option<String>,
    },
    /// "Take Down".
    TakeDown {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        weapon: Weapon,
        has_talent: bool,
        damage: DamageDice,
        #[serde(default)]
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
        #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
        penetration: u32,
        #[serde(default)]
        dodge: bool,
        #[serde(default)]
        modifiers: Vec<CallerModifier>,
    },
    /// "Ram" (starships).
    Ram {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        #[serde(flatten)]
        ram: Ram,
        #[serde(default)]
        dodge: bool,
        #[serde(default)]
        modifiers: Vec<CallerModifier>,
    },
    /// "Feint".
    Feint {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
    },
    /// "Multiple Attack": each weapon through the attack command at −20.
    MultipleAttack {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
        #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
        equipped_weapons: u32,
        weapons: Vec<WeaponAttack>,
        #[serde(default)]
        modifiers: Vec<CallerModifier>,
    },
    /// "Suppressive Fire".
    SuppressiveFire {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        weapon: Weapon,
        mode: AutoMode,
        victims: Vec<CombatantId>,
        #[serde(default)]
        penalties: Vec<CallerModifier>,
        /// The weapon's damage; required when any hit lands.
        #[serde(default)]
        damage: Option<DamageDice>,
        #[serde(default)]
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
        #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
        penetration: u32,
    },
    /// "Overwatch": set it.
    OverwatchSet {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        weapon: Weapon,
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares")]
        #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
        kill_zone_radius_squares: u32,
        /// `"standard"` is `{"kind": "standard"}`.
        #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
        #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<OverwatchAttack>))]
        attack: OverwatchAttack,
        /// Each a bare name (`"any_enemy_acts"`) or a tagged object.
        #[serde(deserialize_with = "crate::bare_or_tagged::deserialize_vec")]
        #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema_vec::<OverwatchTrigger>))]
        triggers: Vec<OverwatchTrigger>,
    },
    /// "Overwatch": something `target_id` did may fire `actor_id`'s Overwatch.
    OverwatchTrigger {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        observed: Observed,
        #[serde(default)]
        simultaneous: bool,
        #[serde(default)]
        ally_yields: bool,
        #[serde(default)]
        gm_fires: bool,
        /// The readied attack's damage roll; needed when the Overwatch fires (the attack path refuses a
        /// weapon attack without it, field `damage`).
        #[serde(default)]
        damage: Option<DamageDice>,
        #[serde(default)]
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
        #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
        penetration: u32,
        /// The observed enemy's evasion against it.
        #[serde(default)]
        evasion: EvasionChoice,
        #[serde(default)]
        modifiers: Vec<CallerModifier>,
    },
    /// "Grapple (Initiate)".
    Grapple {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        target_id: CombatantId,
        hand_free: bool,
        #[serde(default)]
        dodge: bool,
    },
    /// The actions listed under "Grapple (Initiate)"; the role comes from the stored grapple.
    GrappleAction {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        /// `"release"` is `{"kind": "release"}`.
        #[serde(rename = "move", deserialize_with = "crate::bare_or_tagged::deserialize")]
        #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<GrappleMove>))]
        grapple_move: GrappleMove,
    },
    /// "Extended Actions": start one (its first turn of work).
    ExtendedStart {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
        name: String,
        #[serde(default)]
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::turns_opt")]
        #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 1000))]
        turns_needed: Option<u32>,
        restarts_if_interrupted: bool,
    },
    /// Another turn of the extended action under way.
    ExtendedWork {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
    },
    /// The GM: the extended action under way is interrupted.
    ExtendedInterrupt {
        #[serde(rename = "combatant_id", alias = "actor_id")]
        actor_id: CombatantId,
    },
}


pub fn act(
    encounter: &mut Encounter,
    action: Action,
    dice: &mut Dice,
) -> Result<(Vec<Event>, ActionReport), EncounterError> {
    plugin::ensure_active::<AdevaD100>(encounter)?;
    let start = dice.rolls().len();
    let (id, name, outcome, notes) = run(encounter, action, dice)?;
    let report = ActionReport {
        name: encounter.name_of(&id),
        combatant_id: id.clone(),
        action: name.clone(),
        outcome,
        notes,
    };
    let events = vec![Event::ActionTaken {
        combatant_id: id,
        action: name,
        report: RulesetReport::AdevaD100(crate::rulesets::adeva_d100::Report::Action(Box::new(report.clone()))),
        dice: dice.rolls()[start..].to_vec(),
    }];
    Ok((events, report))
}

/// What the action delivers, and to whom: the actor takes an action of its own; the GM's
/// fatigue, decay, fall and interruption put a condition on it, and a crash deals it falling
/// damage ("Altitude"). Asked of `AdevaD100::may_receive` before the action runs
/// (`receiving::run`); whom an action reaches besides is asked by `snapshot` (`mod.rs`).
pub fn delivery(action: &Action) -> Option<Delivery<'_>> {
    let (id, receipt) = match action {
        Action::Fatigue { actor_id, .. }
        | Action::Decay { actor_id, .. }
        | Action::Fall { actor_id }
        | Action::ExtendedInterrupt { actor_id } => (actor_id, Receipt::Condition),
        Action::ResolveCrash { actor_id } => (actor_id, Receipt::Damage),
        _ => (acting(action)?, Receipt::Action),
    };
    Some(Delivery::new(id, "combatant_id", receipt))
}

/// Who takes the action, for the actions a combatant takes itself (not the GM's).
fn acting(action: &Action) -> Option<&CombatantId> {
    match action {
        Action::Fall { .. }
        | Action::ResolveCrash { .. }
        | Action::Fatigue { .. }
        | Action::Decay { .. }
        | Action::ExtendedInterrupt { .. } => None,
        Action::Aim { actor_id, .. }
        | Action::GuardMode { actor_id }
        | Action::Charge { actor_id, .. }
        | Action::Move { actor_id, .. }
        | Action::Stand { actor_id }
        | Action::Boarding { actor_id, .. }
        | Action::KnockDown { actor_id, .. }
        | Action::Disarm { actor_id, .. }
        | Action::TakeDown { actor_id, .. }
        | Action::Ram { actor_id, .. }
        | Action::Feint { actor_id, .. }
        | Action::MultipleAttack { actor_id, .. }
        | Action::SuppressiveFire { actor_id, .. }
        | Action::OverwatchSet { actor_id, .. }
        | Action::OverwatchTrigger { actor_id, .. }
        | Action::Grapple { actor_id, .. }
        | Action::GrappleAction { actor_id, .. }
        | Action::ExtendedStart { actor_id, .. }
        | Action::ExtendedWork { actor_id } => Some(actor_id),
    }
}

fn run(encounter: &mut Encounter, action: Action, dice: &mut Dice) -> Result<Ran, EncounterError> {
    let Some(actor) = acting(&action).cloned() else {
        return dispatch(encounter, action, dice);
    };
    super::ensure_not_stunned(encounter, &actor)?;
    // Any action of its own ends the actor's Feint opening and its parry record (a new Feint
    // sets its own opening afterwards), so they lapse before it runs; a refused action puts them
    // back, as it changes nothing.
    let openings: Vec<_> = encounter.combatants.iter().map(|combatant| combatant.state.clone()).collect();
    super::lapse_openings(encounter, &actor);
    let ran = dispatch(encounter, action, dice);
    if ran.is_err() {
        for (combatant, state) in encounter.combatants.iter_mut().zip(openings) {
            combatant.state = state;
        }
    }
    ran
}

fn dispatch(encounter: &mut Encounter, action: Action, dice: &mut Dice) -> Result<Ran, EncounterError> {
    match action {
        Action::Aim { actor_id, action_type } => declare(encounter, actor_id, DeclaredAction::Aim(Aim { action_type })),
        Action::GuardMode { actor_id } => declare(encounter, actor_id, DeclaredAction::GuardMode {}),
        Action::Charge { actor_id, target_id, charge, dodge, hurt } => {
            let request = super::charge::ChargeRequest { actor: actor_id, target: target_id, charge, dodge, hurt };
            super::charge::charge(encounter, request, dice)
        }
        Action::Fall { actor_id } => start_fall(encounter, actor_id),
        Action::ResolveCrash { actor_id } => resolve_crash(encounter, actor_id, dice),
        Action::Fatigue { actor_id, levels } => add_fatigue(encounter, actor_id, levels),
        Action::Decay { actor_id, decay } => add_decay(encounter, actor_id, decay),
        Action::Stand { .. }
        | Action::Boarding { .. }
        | Action::Move { .. }
        | Action::KnockDown { .. }
        | Action::Disarm { .. }
        | Action::Feint { .. }
        | Action::TakeDown { .. }
        | Action::Ram { .. } => manoeuvre(encounter, action, dice),
        Action::MultipleAttack { .. }
        | Action::SuppressiveFire { .. }
        | Action::OverwatchSet { .. }
        | Action::OverwatchTrigger { .. } => fire_action(encounter, action, dice),
        Action::Grapple { actor_id, target_id, hand_free, dodge } => {
            grapple::initiate(encounter, actor_id, target_id, hand_free, dodge, dice)
        }
        Action::GrappleAction { actor_id, grapple_move } => {
            grapple::grapple_action(encounter, actor_id, grapple_move, dice)
        }
        Action::ExtendedStart { actor_id, name, turns_needed, restarts_if_interrupted } => {
            economy::start(encounter, actor_id, &name, turns_needed, restarts_if_interrupted)
        }
        Action::ExtendedWork { actor_id } => economy::keep_working(encounter, actor_id),
        Action::ExtendedInterrupt { actor_id } => economy::interrupt(encounter, actor_id),
    }
}

/// Spends an Action List action that rolls nothing here (Aim, Guard Mode, a Charge ending in a
/// Grapple or Knock Down) and stores what lingers; its tests are reported for the table to roll.
fn declare(encounter: &mut Encounter, actor_id: CombatantId, declared: DeclaredAction) -> Result<Ran, EncounterError> {
    ensure_turn(encounter, &actor_id, "combatant_id")?;
    let (stats, _, _) = peek(encounter, &actor_id, "combatant_id")?;
    let declared = super::core::with_movement(&declared, &stats)?;
    let spec = action_spec(&declared)?;
    if super::core::attack_weapon(&declared).is_ok() {
        return Err(EncounterError::invalid("strike", "a Charge ending in an attack is taken with the attack command"));
    }
    let (_, state, _) = refreshed_mut(encounter, &actor_id, "combatant_id")?;
    state.budget.spend(&spec)?;
    for effect in &spec.lingering {
        if let LingeringEffect::AttacksAgainst { modifier, .. } = effect {
            state.attacks_against = Some(modifier.clone());
        }
    }
    let notes = spec.notes.clone();
    Ok((actor_id, spec.name(), ActionOutcome::Declared { spec: Box::new(spec) }, notes))
}
