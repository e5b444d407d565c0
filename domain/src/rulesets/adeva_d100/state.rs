//! What the engine tracks per Adeva combatant during a fight (adeva-d100.txt, "Structured Time",
//! "Actions", "Heavy Attack", "Guard Mode", "Aim", "Counter-Attack", "Altitude").
//!
//! Decisions:
//! - The [`TurnBudget`] is reset lazily: the first command that touches a combatant's budget on its
//!   own turn (it is `encounter.current`) in a round other than `turn_round` starts its turn
//!   (`TurnBudget::start_turn`: actions, reaction and the Counter-Attack limit come back). Touching
//!   it while it is not current ends a turn still marked as under way. Lingering "until the start
//!   of your next turn" effects (Heavy Attack's −30 to Evasion, Guard Mode) end at that same reset.
//! - Surprise is read from the combatant's `flags.surprised` in round 1 (the encounter model's
//!   flag) and copied into `TurnBudget.surprised` when the state is first refreshed: its first turn
//!   is lost (every action on it refused, field `action`) and it takes no reactions until then.
//! - The turn of the current round has started when the combatant is current or has
//!   `acted_this_round`; the reset happens then even if no command touched it on its turn.
//! - A stat block sent with `falling: true` but no recorded start falls from its band at the time
//!   of the first end of round (recorded then); on the Ground it simply stops falling, no crash.
//! - End of round: a falling combatant drops one band; reaching the Ground it crashes. The hook
//!   has no dice, so the crash's 1d10 + squares damage is left pending (`pending_crash`) and
//!   rolled and applied by the `resolve_crash` action; the drop is reported as an `ActionTaken`
//!   event (action "fall").
//! - Stunned (Take Down, "stunned for one round"): `stunned_until_round` is the round after the
//!   stun, so the stunned combatant loses its next turn whatever the initiative order; every
//!   attack and action it would take is refused (field `action`) while the round is not past it,
//!   and the end of that round clears the field.
//! - Pinned ("held where it stood"): the text does not say when pinning ends. Decided: at the end
//!   of the pinned combatant's next turn started after it was pinned (pinned during its own turn,
//!   e.g. by an Overwatch its action triggered, it is held for the rest of that turn and the whole
//!   next one). While pinned it may not take any action with the Movement subtype (refused,
//!   field `action`).
//! - Prone: the text gives no modifier for being prone, so only the state is tracked; the `stand`
//!   action (a half action, on its turn) clears it.

use super::actions::TurnBudget;
use super::altitude::AltitudeBand;
use super::test_modifiers::Modifier;
use crate::encounter::CombatantId;
use serde::{Deserialize, Serialize};

/// Engine-managed Adeva combat state of one combatant.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100CombatState))]
#[serde(default)]
pub struct CombatState {
    pub budget: TurnBudget,
    /// The round whose turn `budget` was last started for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_round: Option<u32>,
    /// Heavy Attack: its own Evasion tests take this until the start of its next turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_evasion: Option<Modifier>,
    /// Guard Mode: attacks (and critical confirmations) against it take this until the start of
    /// its next turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacks_against: Option<Modifier>,
    /// The band a fall began in, while falling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fall_started_at: Option<AltitudeBand>,
    /// A crash the end of a round brought, not yet rolled (see the decisions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_crash: Option<AltitudeBand>,
    /// Knocked prone (Knock Down); cleared by the `stand` action (a half action).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prone: bool,
    /// Failed a Pinning test (Suppressive Fire, Overwatch): held where it stood, it cannot move
    /// (see the decisions for when it ends).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// A turn of this pinned combatant has started since it was pinned; pinning ends with it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned_turn: bool,
    /// Feint: this combatant may not dodge or parry the feinter's next melee attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feinted_by: Option<CombatantId>,
    /// The attacker whose melee attack this combatant parried successfully, as the last attack
    /// against it, not yet answered by a Counter-Attack nor passed by another action of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parried: Option<CombatantId>,
    /// Objects this combatant dropped (Disarm).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// A standing Overwatch, until it fires or the combatant takes a non-free action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overwatch: Option<super::actions::overwatch::Overwatch>,
    /// The other participant of this combatant's grapple.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grappled_with: Option<CombatantId>,
    /// Its place in that grapple.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grapple_role: Option<super::actions::grapple::GrappleRole>,
    /// An extended action under way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended: Option<super::actions::ExtendedAction>,
    /// Take Down: stunned until the end of this round; it may not attack or act until then and
    /// the field is cleared at that end of round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stunned_until_round: Option<u32>,
}

impl CombatState {
    /// Brings the budget up to date for `round` (adeva-d100.txt, "Combat Structure", Steps Two and
    /// Four; "Heavy Attack", "Guard Mode": "until the start of your next turn").
    ///
    /// `own_turn`: the combatant is current; `turn_passed`: it has had (or skipped) its turn this
    /// round (`acted_this_round`); `surprised`: it is flagged surprised and this is round 1. Its
    /// turn of `round` has started when either holds; if the stored `turn_round` is older, the turn
    /// is started now even though no command touched it on that turn (and, when it is no longer
    /// current, ended again), so the reaction, Heavy Attack's −30 and Guard Mode end exactly at the
    /// start of its next turn. A surprised combatant's first turn is marked lost (`turn_lost`).
    pub fn refresh(&mut self, round: u32, own_turn: bool, turn_passed: bool, surprised: bool) {
        if surprised && self.turn_round.is_none() {
            self.budget.surprised = true;
        }
        if round > 1 {
            // Surprise covers round 1 only.
            self.budget.surprised = false;
        }
        // A whole round went by untouched: its turn of the previous round started (and ended).
        if let Some(last) = self.turn_round
            && last + 1 < round
        {
            self.budget.start_turn();
            self.budget.end_turn();
            // That turn was the pinned combatant's held turn: pinning ends with it.
            self.pinned = false;
            self.pinned_turn = false;
            self.own_evasion = None;
            self.attacks_against = None;
            self.turn_round = Some(round - 1);
        }
        let started = own_turn || turn_passed;
        if started && self.turn_round.is_none_or(|r| r < round) {
            self.budget.start_turn();
            self.own_evasion = None;
            self.attacks_against = None;
            self.turn_round = Some(round);
            self.pinned_turn = self.pinned;
        }
        if !own_turn && self.budget.on_own_turn {
            self.budget.end_turn();
            if self.pinned_turn {
                self.pinned = false;
                self.pinned_turn = false;
            }
        }
    }
}
