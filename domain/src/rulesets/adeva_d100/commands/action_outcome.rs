//! What the actions command reports: each action's outcome and the report around it
//! (adeva-d100.txt, "Action List").

use super::super::actions::ExtendedAction;
use super::super::actions::economy::Interruption;
use super::super::actions::manoeuvres::{DisarmOutcome, KnockDownOutcome, TakeDownResult};
use super::super::actions::overwatch::{FirstToAct, Overwatch, TriggerVerdict};
use super::super::actions::pinning::PinningOutcome;
use super::super::actions::starship::RamDamage;
use super::super::actions::suppressive::SuppressiveOutcome;
use super::super::actions::ActionSpec;
use super::super::altitude::{AltitudeBand, AltitudeChange};
use super::super::damage::HitDamage;
use super::super::decay::CharacteristicDecay;
use super::super::movement::{MoveKind, MovementBands};
use super::super::opposed::OpposedResult;
use super::super::test_roll::ModifiedTest;
use super::attack::AttackReport;
use super::fire;
use crate::encounter::CombatantId;
use serde::{Deserialize, Serialize};

/// What an action did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ActionOutcome))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActionOutcome {
    Declared {
        spec: Box<ActionSpec>,
    },
    Fell {
        from: AltitudeBand,
        to: AltitudeBand,
        crashed: bool,
    },
    FallStarted {
        from: AltitudeBand,
    },
    Crash {
        damage: u32,
        wounds_after: u32,
        defeated: bool,
    },
    Fatigue {
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating")]
        #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
        levels: u32,
    },
    Decay {
        decays: Vec<CharacteristicDecay>,
    },
    Moved {
        move_kind: MoveKind,
        squares: u32,
        bands: MovementBands,
        altitude: Option<AltitudeChange>,
    },
    KnockDown {
        target_id: CombatantId,
        contest: Box<OpposedResult>,
        outcome: KnockDownOutcome,
    },
    Disarm {
        target_id: CombatantId,
        contest: Box<OpposedResult>,
        outcome: DisarmOutcome,
        object: String,
    },
    Feint {
        target_id: CombatantId,
        contest: Box<OpposedResult>,
        won: bool,
    },
    MultipleAttack {
        target_id: CombatantId,
        attacks: Vec<AttackReport>,
    },
    SuppressiveFire {
        outcome: Box<SuppressiveOutcome>,
        /// Each hit's damage, soak and wounds, in hit order.
        #[serde(default)]
        damage: Vec<fire::SuppressiveHit>,
    },
    OverwatchSet {
        overwatch: Box<Overwatch>,
    },
    OverwatchTrigger {
        target_id: CombatantId,
        verdict: TriggerVerdict,
        first: Option<Box<FirstToAct>>,
        /// The readied attack, rolled when the Overwatch fires.
        attack: Option<Box<AttackReport>>,
        pinning: Option<Box<PinningOutcome>>,
    },
    Grapple {
        target_id: CombatantId,
        test: Box<ModifiedTest>,
        dodge: Option<Box<ModifiedTest>>,
        started: bool,
    },
    GrappleAction {
        other_id: CombatantId,
        spec: Box<ActionSpec>,
        contests: Vec<OpposedResult>,
        /// The Either action's Standard Attack, rolled.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attack: Option<Box<AttackReport>>,
    },
    TakeDown {
        target_id: CombatantId,
        test: Box<ModifiedTest>,
        dodge: Option<Box<ModifiedTest>>,
        damage: Option<Box<HitDamage>>,
        result: Option<Box<TakeDownResult>>,
    },
    Stood {},
    /// The controller's turn ended without the 'Grapple' Full Action: the grapple is over.
    GrappleEnded {
        other_id: CombatantId,
    },
    Boarding {
        target_id: CombatantId,
        test: Box<ModifiedTest>,
        evasion: Option<Box<ModifiedTest>>,
        hit: bool,
        /// Taken from the Hull (wounds), ignoring AP and TB.
        hull_damage: Option<u32>,
    },
    Ram {
        target_id: CombatantId,
        test: Box<ModifiedTest>,
        dodge: Option<Box<ModifiedTest>>,
        damage: RamDamage,
        impacts: Vec<u32>,
    },
    Extended {
        extended: ExtendedAction,
        complete: bool,
        interruption: Option<Interruption>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ActionReport))]
pub struct ActionReport {
    pub combatant_id: CombatantId,
    /// The actor's name.
    pub name: String,
    pub action: String,
    pub outcome: ActionOutcome,
    pub notes: Vec<String>,
}

/// What one action's run returns: the actor, the action's name, its outcome and notes.
pub(super) type Ran = (CombatantId, String, ActionOutcome, Vec<String>);
