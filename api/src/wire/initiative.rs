use super::dice::DieResponse;
use super::encounter::{CurrentTurn, StatusWire, TurnSlotResponse};
use super::event::EventNotice;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A caller-set initiative (dice totalled at the table, or a ruleset without a formula).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FixedInitiative {
    pub combatant_id: String,
    /// −10000 to 10000.
    #[schema(minimum = -10000, maximum = 10000)]
    #[serde(deserialize_with = "super::lenient::whole")]
    pub value: i32,
}

/// Action Dice a combatant spends to boost its own Initiative check (spycraft2 only: "Step 3:
/// Initiative Checks", Special Note). Counted against the Action Dice its stat block records.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionDiceSpend {
    pub combatant_id: String,
    /// 1 to 10, at most the Action Dice the combatant has left.
    #[schema(minimum = 1, maximum = 10)]
    #[serde(deserialize_with = "super::lenient::whole")]
    pub dice: i64,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"seed": 7}))]
pub struct RollInitiativeRequest {
    /// Roll only for these combatants; omit to roll for everyone.
    #[schema(max_items = 200)]
    pub combatant_ids: Option<Vec<String>>,
    /// Caller-set values; these combatants take the value instead of rolling.
    #[schema(max_items = 200)]
    pub fixed: Option<Vec<FixedInitiative>>,
    /// Action Dice spent on a combatant's rolled check (spycraft2; 422 naming the entry
    /// elsewhere, for a fixed value, or beyond the dice it has left).
    #[schema(max_items = 200)]
    pub action_dice: Option<Vec<ActionDiceSpend>>,
    /// Seed for the RNG (0 to 2^53 − 1). Omit for a fresh one; the response reports it.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    #[serde(default, deserialize_with = "super::lenient::optional_whole")]
    pub seed: Option<u64>,
    /// Physical dice, used in order (initiative dice, then any roll-off dice) before the RNG.
    #[schema(max_items = 1000, value_type = Option<Vec<skirmish_domain::score::Score<1, 1000>>>)]
    #[serde(default, deserialize_with = "super::lenient::optional_wholes")]
    pub rolls: Option<Vec<u32>>,
    /// The `rolls` must be exactly the dice rolled: too few or too many is a 422 naming `rolls`
    /// that says how many dice the request needs and what for.
    #[serde(default)]
    pub strict_rolls: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InitiativeResponse {
    pub version: i64,
    pub seed: u64,
    /// Every die rolled, in order.
    pub dice: Vec<DieResponse>,
    /// Scripted values sent in `rolls` that no die used.
    pub unused_rolls: Vec<u32>,
    /// The combatants whose initiative was rolled in this request, in join order: everyone the
    /// request did not give a `fixed` value (with `combatant_ids`, only those listed). Their dice
    /// are in `dice`, each with its purpose (`initiative: <name>`); a group's members take the
    /// roll of its first member (their `initiative_set` events carry no dice).
    pub rolled: Vec<String>,
    pub turn_order: Vec<TurnSlotResponse>,
    pub events: Vec<EventNotice>,
}

/// What `advance` does.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdvanceTo {
    /// End the current turn and start the next (from setup: start round 1).
    #[default]
    NextTurn,
    /// The current combatant holds its action; the next in order starts.
    Delay,
    /// A delaying combatant (`combatant_id`) acts now, on the current count. In cepheus-engine it
    /// interrupts the running turn, which is suspended (`turn_interrupted`) and resumes
    /// (`turn_resumed`) when the delayer's turn ends; elsewhere the current turn ends first.
    ActNow,
    /// Everyone still to act passes; start the next round.
    NextRound,
    /// As `next_round` (or, from setup, the start of round 1), but stop at the start of the round
    /// with no turn running: declarations made at the start of a round (cepheus-engine hasten)
    /// are taken now; `next_turn` then starts the first turn.
    StartRound,
    /// End the encounter and every effect.
    EndEncounter,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"to": "next_turn"}))]
pub struct AdvanceRequest {
    /// Default `next_turn`. The body may be omitted altogether.
    #[serde(default)]
    pub to: AdvanceTo,
    /// With `act_now`: the delaying combatant that acts.
    pub combatant_id: Option<String>,
    /// Seed for the RNG of the round hooks' dice (0 to 2^53 − 1). Omit for a fresh one; the
    /// response reports it.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    #[serde(default, deserialize_with = "super::lenient::optional_whole")]
    pub seed: Option<u64>,
    /// Physical dice for what the round hooks roll (arrgs' End of Round checks, spycraft2's
    /// roll-offs of ties its fluid Counts create), used in order before the RNG.
    #[schema(max_items = 1000, value_type = Option<Vec<skirmish_domain::score::Score<1, 1000>>>)]
    #[serde(default, deserialize_with = "super::lenient::optional_wholes")]
    pub rolls: Option<Vec<u32>>,
    /// The `rolls` must be exactly the dice rolled: too few or too many is a 422 naming `rolls`
    /// that says how many dice the advance needs and what for.
    #[serde(default)]
    pub strict_rolls: bool,
}

/// An effect that fired or expired during the advance.
#[derive(Debug, Serialize, ToSchema)]
pub struct EffectNotice {
    pub effect_id: String,
    pub name: String,
    /// When or why, e.g. "start of Vasquez's turn".
    pub reason: String,
}

/// Where the encounter stands after an advance.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EncounterMoment {
    /// Combatants are being added.
    Setup,
    /// A round has started and no turn runs yet: start-of-round declarations are taken.
    RoundStart,
    /// A combatant's turn is running (`current_turn`).
    Turn,
    /// Combat is over.
    Ended,
}

impl EncounterMoment {
    pub fn of(encounter: &skirmish_domain::encounter::Encounter) -> Self {
        use skirmish_domain::encounter::EncounterStatus;
        match (encounter.status, &encounter.current) {
            (EncounterStatus::Setup, _) => Self::Setup,
            (EncounterStatus::Ended, _) => Self::Ended,
            (EncounterStatus::Active, Some(_)) => Self::Turn,
            (EncounterStatus::Active, None) => Self::RoundStart,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdvanceResponse {
    pub version: i64,
    /// `round_start` after `start_round`; `turn` while a combatant's turn runs.
    pub moment: EncounterMoment,
    pub status: StatusWire,
    pub round: u32,
    pub current_turn: Option<CurrentTurn>,
    pub turn_order: Vec<TurnSlotResponse>,
    /// Recurring effects that reached their moment.
    pub fired: Vec<EffectNotice>,
    pub expired: Vec<EffectNotice>,
    /// The seed of the RNG behind `dice`: send it back (with the same `rolls`) to replay.
    pub seed: u64,
    /// Every die the advance rolled (round hooks), in order, with its purpose and source.
    pub dice: Vec<DieResponse>,
    /// Scripted values sent in `rolls` that no die used.
    pub unused_rolls: Vec<u32>,
    pub events: Vec<EventNotice>,
}
