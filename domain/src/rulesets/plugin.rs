//! The ruleset plug-in seam: what a rule system supplies to the generic encounter engine.
//!
//! A ruleset is one folder under `rulesets/<id>/` with a unit type implementing [`Ruleset`]
//! (stat block, per-combatant combat state, encounter options, initiative and tie-break, round
//! hooks) and one unit type per operation implementing [`Command`] (and [`Stateless`] when it
//! also works on inline stat blocks), each with its own typed request and report. The ruleset is
//! then registered with one line in `rulesets/mod.rs`; the `registry!` macro generates the
//! [`super::RulesetId`] enum, the stat-block / state / options / report unions and every
//! dispatch, and the api walks [`for_each_command`](super::for_each_command) to publish one typed
//! route per operation. No other file names a ruleset.

use super::receiving::{Delivery, InlineDelivery, Receipt, Refusal};
use super::status::{RulesetStatus, StatusContext};
use super::{
    InitiativeContext, InitiativeExtension, InitiativeRoll, RuleError, RulesetId, RulesetOptions,
    RulesetReport, RulesetState, StatBlock, TiePolicy,
};
use crate::dice::Dice;
use crate::encounter::{Combatant, CombatantId, Encounter, EncounterError, Event, Flags};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// With the `schema` feature, every ruleset type must also be a named OpenAPI schema.
#[cfg(feature = "schema")]
pub trait Schema: utoipa::ToSchema {}
#[cfg(feature = "schema")]
impl<T: utoipa::ToSchema> Schema for T {}
/// Without the `schema` feature there is nothing to publish.
#[cfg(not(feature = "schema"))]
pub trait Schema {}
#[cfg(not(feature = "schema"))]
impl<T> Schema for T {}

/// What a request is: read from JSON, published as a schema.
pub trait Input: DeserializeOwned + Debug + Send + 'static + Schema {}
impl<T> Input for T where T: DeserializeOwned + Debug + Send + 'static + Schema {}

/// What a report is: written to JSON, published as a schema.
pub trait Output: Serialize + Clone + Debug + Send + Sync + 'static + Schema {}
impl<T> Output for T where T: Serialize + Clone + Debug + Send + Sync + 'static + Schema {}

/// What stored ruleset data is (stat blocks, combat state, options, event reports): read from and
/// written to JSON, published as a schema.
pub trait Data: Input + Output + PartialEq + Sync {}
impl<T> Data for T where T: Input + Output + PartialEq + Sync {}

/// A report that can say what happened in one plain-English line (a chat bot posts it as is).
pub trait Summary {
    fn summary(&self) -> String;
}

/// How a ruleset is described to clients (`GET /v1/rulesets`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesetInfo {
    /// e.g. "Cepheus Engine (2D6 + DMs, range bands, dynamic initiative)".
    pub name: &'static str,
    /// Where a reader finds the rules: game, chapter, licence.
    pub source: &'static str,
    /// How initiative is reached, in one line.
    pub initiative: &'static str,
    /// How ties are broken, in one line.
    pub tie_break: &'static str,
}

/// A rule system, as the generic encounter engine sees it.
pub trait Ruleset: Sized + Send + Sync + 'static {
    /// The id: the stored text, the URL segment and the spec tag.
    const ID: RulesetId;
    /// Prefix of every schema name of this ruleset, e.g. `CepheusEngine`.
    const SCHEMA_PREFIX: &'static str;
    const INFO: RulesetInfo;
    /// How combatants with equal initiative and equal tie keys are ordered.
    const TIE_POLICY: TiePolicy;
    /// A combatant's stat block, as the client sends it.
    type Stats: Data;
    /// What the engine tracks per combatant during a fight (not sent by clients).
    type State: Data + Default;
    /// Encounter settings chosen when the encounter is created.
    type Options: Data + Default;
    /// The union of this ruleset's reports, as carried by its events.
    type Report: Data + Summary;

    /// A stat block as JSON text, for the docs and the spec's examples (a test reads it back).
    const STATS_EXAMPLE: &'static str;

    /// Rolls (or reads) one combatant's initiative.
    fn initiative(
        stats: &Self::Stats,
        context: InitiativeContext,
        dice: &mut Dice,
        purpose: &str,
    ) -> Result<InitiativeRoll, RuleError>;

    /// Keys compared, highest first, when two initiative scores are equal.
    fn tie_keys(stats: &Self::Stats) -> Vec<i32>;

    /// The ruleset's own extension of one combatant's initiative entry (see
    /// [`InitiativeExtension`]), applied to the check just rolled: `score` is what it adds,
    /// `explanation` its working. A ruleset whose text has such a rule implements it; by default
    /// it is refused (422 naming `dice`).
    fn extend_initiative(
        _stats: &Self::Stats,
        _state: &mut Self::State,
        _extension: InitiativeExtension,
        _dice: &mut Dice,
        _purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        Err(RuleError::invalid(
            "dice",
            format!("{} has no resource to spend on the initiative roll", Self::ID.as_str()),
        ))
    }

    /// Checks settings the types cannot.
    fn validate_options(_options: &Self::Options) -> Result<(), RuleError> {
        Ok(())
    }

    /// Runs after the end-of-round moment, before the next round starts. By default a combatant
    /// still delaying loses its held action. `dice` are the advance's own (its `rolls` or `seed`):
    /// whatever the hook rolls is scripted by the caller and reported with the advance. An error
    /// (a scripted die that does not fit, or too few with `strict_rolls`) refuses the advance,
    /// and, as with a [`Command`], the changed encounter is discarded.
    fn end_of_round(
        encounter: &mut Encounter,
        events: &mut Vec<Event>,
        _dice: &mut Dice,
    ) -> Result<(), EncounterError> {
        super::hooks::forfeit_delayed_actions(encounter, events);
        Ok(())
    }

    /// A combatant's turn ends (or is skipped, or a delaying combatant's held turn ends with the
    /// round), just before the end-of-turn moment expires the effects that last "until the end
    /// of" that turn: what the combatant was during the turn is still recorded. Nothing by
    /// default.
    fn end_of_turn(_encounter: &mut Encounter, _id: &CombatantId, _events: &mut Vec<Event>) {}

    /// A delaying combatant acts now, on the count `count`; by default its initiative becomes
    /// that count.
    fn act_from_delay(encounter: &mut Encounter, id: &CombatantId, count: i32, events: &mut Vec<Event>) {
        super::hooks::set_initiative(encounter, id, count, "acted from a delay on this count", events);
    }

    /// A delaying combatant (`by`) acts now while `current`'s turn runs. `true`: the ruleset has
    /// recorded `current`'s turn as suspended, to resume when the interrupter's turn ends (see
    /// [`Ruleset::take_suspended`]); `false` (the default): `current`'s turn ends first.
    fn suspend_turn(_encounter: &mut Encounter, _current: &CombatantId, _by: &CombatantId) -> bool {
        false
    }

    /// The most recently suspended turn, taken off the record; `None` when no turn is suspended
    /// (always, by default).
    fn take_suspended(_encounter: &mut Encounter) -> Option<CombatantId> {
        None
    }

    /// Whether a combatant with this stat block and combat state may receive `receipt` (damage, a
    /// condition, healing, an action): the one rule for the dead and the defeated, asked before
    /// every operation, stored or stateless (see [`super::receiving`]). `Err` says what the
    /// combatant is, citing the ruleset's rule text.
    fn may_receive(stats: &Self::Stats, state: &Self::State, receipt: Receipt) -> Result<(), Refusal>;

    /// Lists the ruleset's operations (each becomes a typed route).
    fn commands<V: CommandVisitor>(visitor: &mut V);

    /// What the combatant is now, in ruleset-neutral terms (see [`super::status`]): its health
    /// tracks, the conditions its rules derive from them and from the combat state, and what it
    /// may still do this turn or round. Required: every ruleset answers in its own terms, citing
    /// its rule text. The encounter's effects and the summary line are added generically.
    fn status(stats: &Self::Stats, state: &Self::State, context: &StatusContext) -> RulesetStatus;
}

/// One operation of a ruleset on a stored encounter:
/// `POST /v1/encounters/{id}/<ruleset id>/<NAME>`.
pub trait Command: Sized + 'static {
    type Ruleset: Registered;
    /// The URL segment, e.g. `attacks`.
    const NAME: &'static str;
    /// One paragraph for the spec: what the operation resolves, with its rule source.
    const DESCRIPTION: &'static str;
    type Request: Input;
    /// The same report type answers the stored and the stateless form.
    type Report: Output + Summary;

    /// A request as JSON text, for the spec's example (a test reads it back as a `Request`).
    /// Combatant ids in it are placeholders.
    const EXAMPLE: &'static str;

    /// The stored combatants the request delivers something to, each asked
    /// [`Ruleset::may_receive`] before [`Command::run`] (by [`super::receiving::run`]).
    fn deliveries(_request: &Self::Request) -> Vec<Delivery<'_>> {
        Vec::new()
    }

    /// Runs the operation on `encounter`, changing it in place.
    ///
    /// The contract: **a command's error discards the encounter.** A command may refuse after it
    /// has changed `encounter` (half-way through an attack, a roll-off, a chain of effects); the
    /// caller throws the changed value away, so a command never copies the encounter to protect
    /// it. Every caller honours this: the store runs a change on its own working copy of the
    /// loaded encounter and drops it, rolling its savepoint back, when the command fails
    /// (`Store::apply_change` in `db/src/store/encounters.rs`, reached from the api through
    /// `app::mutate` in `api/src/app/write.rs`); the stateless form ([`Stateless::run_inline`])
    /// works on values it owns and returns nothing but its report. Code that calls a command and
    /// carries on after its error must run it on a copy.
    ///
    /// A refused *direct* call (the rules tests call commands on an encounter they keep) still
    /// changes nothing where a request can cause the refusal: each command checks its refusals,
    /// and rolls what decides them, before its first change (cepheus-engine's
    /// `economy::check_spend` and `dynamic::check_react`; adeva-d100's `peek`, `spent_state` and
    /// `refreshed_mut`, with the turn refresh stored only by a write). No command copies the
    /// encounter to get there. What is left to the contract above are chains that refuse midway
    /// on a fault no request check can see first (a scripted die out of range or run out in a
    /// later roll, an adeva Multiple Attack's second weapon).
    fn run(
        encounter: &mut Encounter,
        request: Self::Request,
        dice: &mut Dice,
    ) -> Result<(Vec<Event>, Self::Report), EncounterError>;
}

/// The stateless twin of a [`Command`]: the stat blocks come inline, nothing is stored:
/// `POST /v1/rulesets/<ruleset id>/<NAME>`.
pub trait Stateless: Command {
    type InlineRequest: Input;

    /// An inline request as JSON text, for the spec's example (a test reads it back).
    const INLINE_EXAMPLE: &'static str;

    /// The inline combatants the request delivers something to, each asked
    /// [`Ruleset::may_receive`] before [`Stateless::run_inline`] (by
    /// [`super::receiving::run_inline`]).
    fn inline_deliveries(_request: &Self::InlineRequest) -> Vec<InlineDelivery<'_, Self::Ruleset>> {
        Vec::new()
    }

    fn run_inline(request: Self::InlineRequest, dice: &mut Dice) -> Result<Self::Report, RuleError>;
}

/// Walks the registered operations (see [`Ruleset::commands`]).
pub trait CommandVisitor {
    fn command<C: Command>(&mut self);
    fn stateless<C: Stateless>(&mut self);
}

/// Walks the registered rulesets.
pub trait RulesetVisitor {
    fn ruleset<R: Ruleset>(&mut self);
}

/// What `registry!` adds to every registered ruleset: its arm of each union.
pub trait Registered: Ruleset {
    fn stats(block: &StatBlock) -> Option<&Self::Stats>;
    fn stats_mut(block: &mut StatBlock) -> Option<&mut Self::Stats>;
    fn state(state: &RulesetState) -> Option<&Self::State>;
    fn state_mut(state: &mut RulesetState) -> Option<&mut Self::State>;
    fn options(options: &RulesetOptions) -> Option<&Self::Options>;
    fn report(report: Self::Report) -> RulesetReport;
    fn block(stats: Self::Stats) -> StatBlock;
}

/// The combatant `id`, or a refusal naming `field`.
pub fn combatant<'a>(
    encounter: &'a Encounter,
    id: &CombatantId,
    field: &str,
) -> Result<&'a Combatant, EncounterError> {
    encounter
        .combatant(id)
        .ok_or_else(|| EncounterError::invalid(field, format!("combatant '{id}' is not in this encounter")))
}

/// The combatant `id`, mutably, or a refusal naming `field`.
pub fn combatant_mut<'a>(
    encounter: &'a mut Encounter,
    id: &CombatantId,
    field: &str,
) -> Result<&'a mut Combatant, EncounterError> {
    encounter
        .combatant_mut(id)
        .ok_or_else(|| EncounterError::invalid(field, format!("combatant '{id}' is not in this encounter")))
}

fn not_of<R: Ruleset>(combatant: &Combatant, field: &str) -> EncounterError {
    let id = R::ID.as_str();
    let article = if id.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    EncounterError::invalid(field, format!("{} is not {article} {id} combatant", combatant.name))
}

/// A combatant's stat block and combat state under ruleset `R`.
pub fn parts<'a, R: Registered>(
    combatant: &'a Combatant,
    field: &str,
) -> Result<(&'a R::Stats, &'a R::State), EncounterError> {
    match (R::stats(&combatant.stats), R::state(&combatant.state)) {
        (Some(stats), Some(state)) => Ok((stats, state)),
        _ => Err(not_of::<R>(combatant, field)),
    }
}

/// A combatant's stat block and combat state under ruleset `R`, mutably. A combatant stored
/// before its ruleset kept any state starts from the default state.
pub fn parts_mut<'a, R: Registered>(
    combatant: &'a mut Combatant,
    field: &str,
) -> Result<(&'a mut R::Stats, &'a mut R::State), EncounterError> {
    parts_and_flags_mut::<R>(combatant, field).map(|(stats, state, _)| (stats, state))
}

/// [`parts_mut`], and the combatant's flags beside them.
pub fn parts_and_flags_mut<'a, R: Registered>(
    combatant: &'a mut Combatant,
    field: &str,
) -> Result<(&'a mut R::Stats, &'a mut R::State, &'a mut Flags), EncounterError> {
    if R::stats(&combatant.stats).is_none() {
        return Err(not_of::<R>(combatant, field));
    }
    if combatant.state == RulesetState::None {
        combatant.state = RulesetState::for_ruleset(R::ID);
    }
    let Combatant { stats, state, flags, .. } = combatant;
    match (R::stats_mut(stats), R::state_mut(state)) {
        (Some(stats), Some(state)) => Ok((stats, state, flags)),
        _ => Err(EncounterError::invalid(field, "the combatant's combat state belongs to another ruleset")),
    }
}

/// The encounter's settings under ruleset `R` (the defaults if it has none of its own).
pub fn options<R: Registered>(encounter: &Encounter) -> R::Options {
    R::options(&encounter.options).cloned().unwrap_or_default()
}

/// Refuses a command meant for ruleset `R` on an encounter of another ruleset.
pub fn ensure_ruleset<R: Ruleset>(encounter: &Encounter) -> Result<(), EncounterError> {
    super::guards::ensure_ruleset(encounter, R::ID)
}

/// Refuses a command unless the encounter follows ruleset `R` and its rounds are running.
pub fn ensure_active<R: Ruleset>(encounter: &Encounter) -> Result<(), EncounterError> {
    super::guards::ensure_active(encounter, R::ID)
}

/// It must be this combatant's turn.
pub fn ensure_turn(encounter: &Encounter, id: &CombatantId, field: &str) -> Result<(), EncounterError> {
    if encounter.current.as_ref() == Some(id) {
        return Ok(());
    }
    Err(EncounterError::invalid(field, format!("it is not {}'s turn", encounter.name_of(id))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::test_support::{add, adeva, cepheus, encounter, id};
    use crate::rulesets::{adeva_d100::AdevaD100, cepheus_engine::CepheusEngine};

    /// Cepheus used to refuse a combatant stored before its ruleset kept any state; every
    /// ruleset now starts such a combatant from the default state, as adeva-d100 always did.
    #[test]
    fn a_combatant_stored_without_state_starts_from_the_default_state() {
        let mut enc = encounter(RulesetId::CepheusEngine);
        add(&mut enc, "Cy", cepheus(7));
        let cy = enc.combatant_mut(&id("Cy")).unwrap();
        cy.state = RulesetState::None;
        assert!(parts::<CepheusEngine>(cy, "attacker_id").is_err(), "reading does not upgrade");
        let (_, state) = parts_mut::<CepheusEngine>(cy, "attacker_id").unwrap();
        assert_eq!(*state, Default::default());
        assert_eq!(cy.state, RulesetState::for_ruleset(RulesetId::CepheusEngine));
    }

    #[test]
    fn a_combatant_of_another_ruleset_is_refused_on_the_field() {
        let mut enc = encounter(RulesetId::AdevaD100);
        add(&mut enc, "Ada", adeva(40));
        let ada = enc.combatant_mut(&id("Ada")).unwrap();
        let error = parts_mut::<CepheusEngine>(ada, "target_id").unwrap_err();
        assert_eq!(error, EncounterError::invalid("target_id", "Ada is not a cepheus-engine combatant"));
        assert!(parts::<AdevaD100>(ada, "target_id").is_ok());
        let mut enc = encounter(RulesetId::CepheusEngine);
        add(&mut enc, "Cy", cepheus(7));
        let cy = enc.combatant_mut(&id("Cy")).unwrap();
        let error = parts_mut::<AdevaD100>(cy, "target_id").unwrap_err();
        assert_eq!(error, EncounterError::invalid("target_id", "Cy is not an adeva-d100 combatant"));
    }
}
