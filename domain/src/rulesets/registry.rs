//! The `registry!` macro: from one line per ruleset it declares the ruleset's module and
//! generates the [`RulesetId`](super::RulesetId) enum, the unions of stat blocks, combat states,
//! encounter options and reports, and every dispatch from an id or a union to the ruleset's
//! [`Ruleset`](super::Ruleset) implementation. Adding a ruleset adds a line, never a `match` arm.

macro_rules! registry {
    ($($variant:ident($id:literal) = $module:ident::$plugin:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// The id of a rule system, as used in the API (the rule text's file name).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RulesetId {
            $($variant),+
        }

        impl RulesetId {
            pub const ALL: &'static [RulesetId] = &[$(Self::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $id),+
                }
            }

            /// How the ruleset describes itself.
            pub fn info(self) -> RulesetInfo {
                match self {
                    $(Self::$variant => <$module::$plugin as Ruleset>::INFO),+
                }
            }

            pub fn tie_policy(self) -> TiePolicy {
                match self {
                    $(Self::$variant => <$module::$plugin as Ruleset>::TIE_POLICY),+
                }
            }

            /// Reads a stat block for this ruleset from any serde format (the API's JSON, the
            /// database's JSON text). Unknown fields are refused so typos surface.
            pub fn deserialize_stats<'de, D: serde::Deserializer<'de>>(
                self,
                input: D,
            ) -> Result<StatBlock, D::Error> {
                use serde::Deserialize;
                Ok(match self {
                    $(Self::$variant => StatBlock::$variant(
                        <$module::$plugin as Ruleset>::Stats::deserialize(input)?,
                    )),+
                })
            }

            /// Reads an encounter's settings for this ruleset from any serde format.
            pub fn deserialize_options<'de, D: serde::Deserializer<'de>>(
                self,
                input: D,
            ) -> Result<RulesetOptions, D::Error> {
                use serde::Deserialize;
                Ok(match self {
                    $(Self::$variant => RulesetOptions::$variant(
                        <$module::$plugin as Ruleset>::Options::deserialize(input)?,
                    )),+
                })
            }

            /// Runs after the end-of-round moment, before the next round starts.
            pub fn end_of_round(
                self,
                encounter: &mut Encounter,
                events: &mut Vec<Event>,
                dice: &mut Dice,
            ) -> Result<(), crate::encounter::EncounterError> {
                match self {
                    $(Self::$variant => <$module::$plugin as Ruleset>::end_of_round(encounter, events, dice)),+
                }
            }

            /// A combatant's turn ends, before the end-of-turn moment passes.
            pub fn end_of_turn(self, encounter: &mut Encounter, id: &CombatantId, events: &mut Vec<Event>) {
                match self {
                    $(Self::$variant => <$module::$plugin as Ruleset>::end_of_turn(encounter, id, events)),+
                }
            }

            /// A delaying combatant acts now, on the count `count`.
            pub fn act_from_delay(
                self,
                encounter: &mut Encounter,
                id: &CombatantId,
                count: i32,
                events: &mut Vec<Event>,
            ) {
                match self {
                    $(Self::$variant => {
                        <$module::$plugin as Ruleset>::act_from_delay(encounter, id, count, events)
                    }),+
                }
            }

            /// A delaying combatant interrupts `current`'s turn: true when the ruleset suspends it.
            pub fn suspend_turn(self, encounter: &mut Encounter, current: &CombatantId, by: &CombatantId) -> bool {
                match self {
                    $(Self::$variant => <$module::$plugin as Ruleset>::suspend_turn(encounter, current, by)),+
                }
            }

            /// The most recently suspended turn, taken off the record.
            pub fn take_suspended(self, encounter: &mut Encounter) -> Option<CombatantId> {
                match self {
                    $(Self::$variant => <$module::$plugin as Ruleset>::take_suspended(encounter)),+
                }
            }

            /// The names of the operations this ruleset implements beside initiative.
            pub fn operations(self) -> Vec<&'static str> {
                let mut names = CommandNames::default();
                match self {
                    $(Self::$variant => <$module::$plugin as Ruleset>::commands(&mut names)),+
                }
                names.0
            }
        }

        /// A combatant's ruleset-specific statistics.
        #[derive(Debug, Clone, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        pub enum StatBlock {
            $($variant(<$module::$plugin as Ruleset>::Stats)),+
        }

        impl StatBlock {
            pub fn ruleset(&self) -> RulesetId {
                match self {
                    $(Self::$variant(_) => RulesetId::$variant),+
                }
            }

            /// Rolls (or reads) this combatant's initiative by its ruleset's formula.
            pub fn roll_initiative(
                &self,
                context: InitiativeContext,
                dice: &mut Dice,
                purpose: &str,
            ) -> Result<InitiativeRoll, RuleError> {
                match self {
                    $(Self::$variant(stats) => {
                        <$module::$plugin as Ruleset>::initiative(stats, context, dice, purpose)
                    }),+
                }
            }

            /// Applies the combatant's initiative extension to its check
            /// ([`Ruleset::extend_initiative`]); a combatant stored before its ruleset kept any
            /// state starts from the default state.
            pub fn extend_initiative(
                &self,
                state: &mut RulesetState,
                extension: InitiativeExtension,
                dice: &mut Dice,
                purpose: &str,
            ) -> Result<InitiativeRoll, RuleError> {
                match self {
                    $(Self::$variant(stats) => {
                        if matches!(state, RulesetState::None) {
                            *state = RulesetState::$variant(Default::default());
                        }
                        match state {
                            RulesetState::$variant(state) => <$module::$plugin as Ruleset>::extend_initiative(
                                stats, state, extension, dice, purpose,
                            ),
                            #[allow(unreachable_patterns, reason = "one-ruleset builds")]
                            _ => Err(RuleError::invalid("combatant_id", "its combat state belongs to another ruleset")),
                        }
                    }),+
                }
            }

            /// Keys compared, highest first, when two initiative scores are equal.
            pub fn tie_keys(&self) -> Vec<i32> {
                match self {
                    $(Self::$variant(stats) => <$module::$plugin as Ruleset>::tie_keys(stats)),+
                }
            }

            /// Whether a combatant with this stat block and combat state may receive `receipt`,
            /// answered by its own ruleset ([`Ruleset::may_receive`]). A combatant stored before
            /// its ruleset kept any state is asked with the default state; one whose state
            /// belongs to another ruleset is not refused here.
            pub fn may_receive(&self, state: &RulesetState, receipt: Receipt) -> Result<(), Refusal> {
                match self {
                    $(Self::$variant(stats) => match state {
                        RulesetState::None => <$module::$plugin as Ruleset>::may_receive(
                            stats,
                            &Default::default(),
                            receipt,
                        ),
                        RulesetState::$variant(state) => {
                            <$module::$plugin as Ruleset>::may_receive(stats, state, receipt)
                        }
                        #[allow(unreachable_patterns, reason = "one-ruleset builds")]
                        _ => Ok(()),
                    }),+
                }
            }
        }

        impl StatBlock {
            /// The ruleset's part of the combatant's status ([`Ruleset::status`]); a combatant
            /// stored before its ruleset kept any state is read with the default state, one whose
            /// state belongs to another ruleset likewise.
            pub fn status(&self, state: &RulesetState, context: &status::StatusContext) -> status::RulesetStatus {
                match self {
                    $(Self::$variant(stats) => match state {
                        RulesetState::$variant(state) => <$module::$plugin as Ruleset>::status(stats, state, context),
                        #[allow(unreachable_patterns, reason = "one-ruleset builds")]
                        _ => <$module::$plugin as Ruleset>::status(stats, &Default::default(), context),
                    }),+
                }
            }
        }

        /// What a ruleset tracks per combatant during a fight, beside the client's stat block.
        /// `None` (stored as `"none"`) is read from combatants stored before their ruleset kept
        /// any state. The stored tag of a ruleset's state is its id (`{"cepheus-engine": …}`),
        /// never the Rust variant's name, so renaming a variant cannot orphan stored rows.
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum RulesetState {
            #[default]
            #[serde(rename = "none")]
            None,
            $(#[serde(rename = $id)] $variant(<$module::$plugin as Ruleset>::State)),+
        }

        impl RulesetState {
            /// The state itself, written out without the ruleset key (`None` as `{}`).
            pub fn serialize_untagged<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::Serialize;
                match self {
                    Self::None => serde::ser::SerializeMap::end(serializer.serialize_map(Some(0))?),
                    $(Self::$variant(state) => state.serialize(serializer)),+
                }
            }

            /// The starting state for a combatant of this ruleset.
            pub fn for_ruleset(ruleset: RulesetId) -> Self {
                match ruleset {
                    $(RulesetId::$variant => Self::$variant(Default::default())),+
                }
            }
        }

        /// An encounter's ruleset settings.
        #[derive(Debug, Clone, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        pub enum RulesetOptions {
            $($variant(<$module::$plugin as Ruleset>::Options)),+
        }

        impl RulesetOptions {
            /// The default settings of a ruleset.
            pub fn for_ruleset(ruleset: RulesetId) -> Self {
                match ruleset {
                    $(RulesetId::$variant => Self::$variant(Default::default())),+
                }
            }

            /// Checks values the types cannot.
            pub fn validate(&self) -> Result<(), RuleError> {
                match self {
                    $(Self::$variant(options) => <$module::$plugin as Ruleset>::validate_options(options)),+
                }
            }
        }

        /// A ruleset's report, as carried by the attack, damage and action events (written out as
        /// the report itself, no wrapper key).
        #[derive(Debug, Clone, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        pub enum RulesetReport {
            $($variant(<$module::$plugin as Ruleset>::Report)),+
        }

        impl Summary for RulesetReport {
            fn summary(&self) -> String {
                match self {
                    $(Self::$variant(report) => report.summary()),+
                }
            }
        }

        /// Published as one of the rulesets' report unions.
        #[cfg(feature = "schema")]
        impl utoipa::PartialSchema for RulesetReport {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                use utoipa::openapi::{OneOfBuilder, Ref};
                let mut one_of = OneOfBuilder::new();
                $(one_of = one_of.item(Ref::from_schema_name(
                    <<$module::$plugin as Ruleset>::Report as utoipa::ToSchema>::name(),
                ));)+
                one_of.into()
            }
        }

        #[cfg(feature = "schema")]
        impl utoipa::ToSchema for RulesetReport {
            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                use utoipa::PartialSchema;
                $(
                    type $variant = <$module::$plugin as Ruleset>::Report;
                    schemas.push(($variant::name().into_owned(), $variant::schema()));
                    $variant::schemas(schemas);
                )+
            }
        }

        $(
            impl Registered for $module::$plugin {
                fn stats(block: &StatBlock) -> Option<&Self::Stats> {
                    #[allow(irrefutable_let_patterns, reason = "one-ruleset builds")]
                    if let StatBlock::$variant(stats) = block { Some(stats) } else { None }
                }

                fn stats_mut(block: &mut StatBlock) -> Option<&mut Self::Stats> {
                    #[allow(irrefutable_let_patterns, reason = "one-ruleset builds")]
                    if let StatBlock::$variant(stats) = block { Some(stats) } else { None }
                }

                fn state(state: &RulesetState) -> Option<&Self::State> {
                    if let RulesetState::$variant(state) = state { Some(state) } else { None }
                }

                fn state_mut(state: &mut RulesetState) -> Option<&mut Self::State> {
                    if let RulesetState::$variant(state) = state { Some(state) } else { None }
                }

                fn options(options: &RulesetOptions) -> Option<&Self::Options> {
                    #[allow(irrefutable_let_patterns, reason = "one-ruleset builds")]
                    if let RulesetOptions::$variant(options) = options { Some(options) } else { None }
                }

                fn report(report: Self::Report) -> RulesetReport {
                    RulesetReport::$variant(report)
                }

                fn block(stats: Self::Stats) -> StatBlock {
                    StatBlock::$variant(stats)
                }
            }
        )+

        /// Walks every registered ruleset.
        pub fn for_each_ruleset<V: RulesetVisitor>(visitor: &mut V) {
            $(visitor.ruleset::<$module::$plugin>();)+
        }

        /// Walks every operation of every registered ruleset.
        pub fn for_each_command<V: CommandVisitor>(visitor: &mut V) {
            $(<$module::$plugin as Ruleset>::commands(visitor);)+
        }
    };
}

pub(crate) use registry;

/// Collects the names of a ruleset's operations.
#[derive(Default)]
pub(crate) struct CommandNames(pub Vec<&'static str>);

impl super::CommandVisitor for CommandNames {
    fn command<C: super::Command>(&mut self) {
        self.0.push(C::NAME);
    }

    fn stateless<C: super::Stateless>(&mut self) {
        self.command::<C>();
    }
}
