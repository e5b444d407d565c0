//! `actions`: a character's own actions (aim, brace, regroup, moves, the bonus 5-ft. step,
//! Press, skill checks, anything else by its cost) spent from the round's actions, and the
//! GC's declarations of the fluid-initiative table's other rows (spycraft2.txt, "Step 5: Combat
//! Round", "Step 6: Fluid Initiative Modifiers").

use super::{ensure_may_act, snapshot, store, surprise_round};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::plugin::{self, combatant};
use crate::rulesets::spycraft2::economy::{self, Cost, Spend, Spent};
use crate::rulesets::spycraft2::fluid::{Condition, FluidCode, FluidEntry};
use crate::rulesets::spycraft2::modifier::{CallerModifier, caller_modifiers, check_text};
use crate::rulesets::spycraft2::skill::{self, PendingCheck, SkillCheckResult};
use crate::rulesets::spycraft2::stats::Bonus;
use crate::rulesets::spycraft2::state::{CombatState, ExtraHalf};
use crate::rulesets::spycraft2::{Report, Spycraft2};
use crate::rulesets::{Registered, Summary};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// The cost of a skill check or another action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2ActionCost))]
#[serde(rename_all = "snake_case")]
pub enum ActionCost {
    Free,
    Half,
    Full,
}

impl From<ActionCost> for Cost {
    fn from(cost: ActionCost) -> Self {
        match cost {
            ActionCost::Free => Cost::Free,
            ActionCost::Half => Cost::Half,
            ActionCost::Full => Cost::Full,
        }
    }
}

/// One action or declaration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Action))]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Aim (half action): Count +1.
    Aim {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target_id: Option<CombatantId>,
    },
    /// Brace (half action): Count +1.
    Brace,
    /// Regroup (full action): Count +5 plus the Intelligence modifier.
    Regroup,
    /// A move (half action); Count −2 when terrain reduced the character's Speed.
    Move {
        #[serde(default)]
        terrain_slowed: bool,
    },
    /// The bonus 5-ft. step, for a character who takes no other move action this round.
    BonusStep,
    /// Press (free action): moves the Count by the caller's amount at the end of the round,
    /// outside the ±10 cap; required as the first action after a Count of 50 or more.
    Press { count_change: Score<-50, 50> },
    /// A skill check of the given cost, rolled by the server when it resolves: now, or for a
    /// full-action check split because only 1 half action was left, with its second half (this
    /// character's first action next round).
    SkillCheck {
        name: String,
        cost: ActionCost,
        /// The skill's total bonus (1d20 + this + `modifiers`).
        bonus: Bonus,
        /// The DC; absent for an opposed check (the total is reported for the GC).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dc: Option<Score<1, 100>>,
        /// At most 20.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[cfg_attr(feature = "schema", schema(max_items = 20))]
        modifiers: Vec<CallerModifier>,
    },
    /// The second half of a split skill check: the check is rolled now.
    FinishSkillCheck,
    /// Any other action, by its cost (reload, draw, talk, …); `movement` for move actions.
    Other {
        name: String,
        cost: ActionCost,
        #[serde(default)]
        movement: bool,
    },
    /// GC: an ability grants a half action from another source this round (e.g. Surge of Speed,
    /// `forbids_attack`).
    GrantHalfAction {
        source: String,
        #[serde(default)]
        forbids_attack: bool,
    },
    /// GC: the character gains (`active: true`) or loses a condition; its row applies once in
    /// each round the character has it, even if it ends during that round.
    Condition { condition: Condition, active: bool },
    /// GC: the character suffers a critical injury (Count −10, once per round).
    CriticalInjury,
    /// GC: the character scores a Triumph (Count +10).
    Triumph,
    /// GC: Action Dice spent to activate a critical failure of a check (Count −2 per die).
    CriticalFailure { action_dice: Score<1, 10> },
    /// GC: another ability, feat or effect moves the Count (within the round's ±10 cap).
    Ability { name: String, count_change: Score<-20, 20> },
}

impl crate::bare_or_tagged::BareOrTagged for Action {
    const TAG: &'static str = "action";
    const BARE: &'static [&'static str] =
        &["aim", "brace", "regroup", "move", "bonus_step", "finish_skill_check", "critical_injury", "triumph"];
}

/// `POST /v1/encounters/{id}/spycraft2/actions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2ActionRequest))]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    pub combatant_id: CombatantId,
    /// A choice without fields may be its bare name: `"brace"` is `{"action": "brace"}`.
    #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<Action>))]
    pub action: Action,
    /// The action was prompted at a time other than the character's Initiative Count.
    #[serde(default)]
    pub off_count: bool,
}

/// What an action did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2ActionReport))]
pub struct ActionReport {
    pub combatant_id: CombatantId,
    pub name: String,
    pub action: Action,
    /// What the action cost; `None` for a GC declaration or an action prompted off-count.
    pub spent: Option<Spent>,
    pub off_count: bool,
    /// Rows recorded on the character's Count, settled at the end of the round.
    pub fluid: Vec<FluidEntry>,
    /// This was the character's first action: it is no longer flat-footed.
    pub no_longer_flat_footed: bool,
    /// Half actions of the round's 2 still unused, and half actions from other sources.
    pub halves_left: u32,
    pub extra_halves_left: u32,
    /// The skill check this action resolved (rolled now); absent for a check split over two
    /// rounds until its second half, and for every other action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<SkillCheckResult>,
}

impl Summary for ActionReport {
    fn summary(&self) -> String {
        let what = label(&self.action);
        let rows: Vec<String> = self.fluid.iter().map(|e| format!("{:+} {}", e.value, e.reason)).collect();
        let count = if rows.is_empty() { String::new() } else { format!(" (Count at round end: {})", rows.join(", ")) };
        let check = self.check.as_ref().map_or_else(String::new, |check| {
            let verdict = match check.success {
                Some(true) => format!(" against DC {}: success", check.dc.unwrap_or_default()),
                Some(false) => format!(" against DC {}: failure", check.dc.unwrap_or_default()),
                None => String::new(),
            };
            format!(", {} check {} (d20 {}){verdict}", check.name, check.total, check.die)
        });
        format!("{}: {}{}{}", self.name, what.replace('_', " "), check, count)
    }
}

/// How the economy sees an action; `None` for a declaration.
fn spend_of(action: &Action) -> Option<Spend> {
    let with = |cost: Cost| Spend { cost: Some(cost), ..Spend::default() };
    Some(match action {
        Action::Aim { .. } | Action::Brace => with(Cost::Half),
        Action::Regroup => with(Cost::Full),
        Action::Move { .. } => Spend { movement: true, ..with(Cost::Half) },
        Action::BonusStep => Spend { bonus_step: true, ..Spend::default() },
        Action::Press { .. } => Spend { press: true, ..with(Cost::Free) },
        Action::SkillCheck { name, cost, .. } => Spend {
            splittable: (*cost == ActionCost::Full).then(|| name.clone()),
            ..with((*cost).into())
        },
        Action::FinishSkillCheck => Spend { finish_split: true, ..with(Cost::Half) },
        Action::Other { cost, movement, .. } => Spend { movement: *movement, ..with((*cost).into()) },
        Action::GrantHalfAction { .. }
        | Action::Condition { .. }
        | Action::CriticalInjury
        | Action::Triumph
        | Action::CriticalFailure { .. }
        | Action::Ability { .. } => return None,
    })
}

/// The table rows an action records.
fn rows(action: &Action, int_modifier: i32) -> Vec<FluidEntry> {
    match action {
        Action::Aim { .. } => vec![FluidEntry::aim()],
        Action::Brace => vec![FluidEntry::brace()],
        Action::Regroup => vec![FluidEntry::regroup(int_modifier)],
        Action::Move { terrain_slowed: true } => vec![FluidEntry::terrain()],
        Action::Press { count_change } => {
            vec![FluidEntry::new(FluidCode::Press, count_change.get(), "Press action (outside the ±10 cap)")]
        }
        Action::CriticalInjury => vec![FluidEntry::new(FluidCode::CriticalInjury, -10, "suffered a critical injury")],
        Action::Triumph => vec![FluidEntry::triumph()],
        Action::CriticalFailure { action_dice } => vec![FluidEntry::new(
            FluidCode::CriticalMiss,
            -2 * action_dice.get(),
            format!("critical failure ({} Action Dice spent)", action_dice.get()),
        )],
        Action::Ability { name, count_change } => {
            vec![FluidEntry::new(FluidCode::Ability, count_change.get(), name.clone())]
        }
        _ => Vec::new(),
    }
}

fn check_texts(action: &Action) -> Result<(), EncounterError> {
    match action {
        Action::SkillCheck { name, .. } | Action::Other { name, .. } | Action::Ability { name, .. } => {
            check_text("action.name", name)
        }
        Action::GrantHalfAction { source, .. } => check_text("action.source", source),
        _ => Ok(()),
    }
}

/// Takes the action or records the declaration.
pub fn act(
    encounter: &mut Encounter,
    request: ActionRequest,
    dice: &mut Dice,
) -> Result<(Vec<Event>, ActionReport), EncounterError> {
    let ActionRequest { combatant_id: id, action, off_count } = request;
    check_texts(&action)?;
    let pending = pending_check(&action)?;
    if let Action::Aim { target_id: Some(target) } = &action {
        combatant(encounter, target, "action.target_id")?;
    }
    let spend = spend_of(&action);
    if spend.is_some() {
        ensure_may_act(encounter, &id, "combatant_id", off_count)?;
    } else {
        plugin::ensure_active::<Spycraft2>(encounter)?;
        combatant(encounter, &id, "combatant_id")?;
    }
    let surprise = surprise_round(encounter);
    let (name, stats, mut state) = snapshot(encounter, &id, "combatant_id")?;
    let spent = match (&spend, off_count) {
        (Some(spend), false) => Some(economy::spend(&mut state, spend, surprise)?),
        (Some(spend), true) => {
            refuse_off_count(spend)?;
            None
        }
        (None, _) => None,
    };
    let mut fluid = Vec::new();
    declare(&mut state, &action, &mut fluid)?;
    for entry in rows(&action, stats.int_modifier.get()) {
        if state.record(entry.clone(), None)? {
            fluid.push(entry);
        }
    }
    let check = resolve_check(&name, &mut state, &action, pending, spent.as_ref(), dice)?;
    let no_longer_flat_footed = spend.is_some() && state.flat_footed;
    if spend.is_some() {
        state.flat_footed = false;
    }
    let report = ActionReport {
        combatant_id: id.clone(),
        name,
        action: action.clone(),
        spent,
        off_count,
        fluid,
        no_longer_flat_footed,
        halves_left: 2 - state.budget.halves_used.min(2),
        extra_halves_left: state.budget.extra_halves.len() as u32,
        check,
    };
    store(encounter, &id, state);
    let event = Event::ActionTaken {
        combatant_id: id,
        action: label(&action).to_owned(),
        report: Spycraft2::report(Report::Action(Box::new(report.clone()))),
        dice: dice.rolls().to_vec(),
    };
    Ok((vec![event], report))
}

/// The check a `skill_check` describes, its modifiers checked (before anything is spent).
fn pending_check(action: &Action) -> Result<Option<PendingCheck>, EncounterError> {
    let Action::SkillCheck { name, bonus, dc, modifiers, .. } = action else { return Ok(None) };
    Ok(Some(PendingCheck {
        name: name.clone(),
        bonus: bonus.get(),
        dc: dc.map(Score::get),
        modifiers: caller_modifiers("action.modifiers", modifiers)?,
    }))
}

/// Rolls the skill check the action resolves (spycraft2.txt, "Step 5: Combat Round": the rolls
/// are made when the check is resolved): a check taken whole now; a split check's first half
/// keeps it in the state; its second half takes it back and rolls it.
fn resolve_check(
    who: &str,
    state: &mut CombatState,
    action: &Action,
    pending: Option<PendingCheck>,
    spent: Option<&Spent>,
    dice: &mut Dice,
) -> Result<Option<SkillCheckResult>, EncounterError> {
    let check = match (action, pending) {
        (Action::SkillCheck { .. }, Some(pending)) if spent == Some(&Spent::SplitStarted) => {
            state.pending_check = Some(pending);
            return Ok(None);
        }
        (Action::SkillCheck { .. }, Some(pending)) => pending,
        // A split check begun before its bonus and DC were kept has nothing to roll.
        (Action::FinishSkillCheck, _) => match state.pending_check.take() {
            Some(pending) => pending,
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    skill::resolve(who, &check, dice).map(Some)
}

/// Off its count a character takes only the prompted action: not the bonus step (taken during
/// its own Count) nor half of a split skill check.
fn refuse_off_count(spend: &Spend) -> Result<(), EncounterError> {
    if spend.bonus_step {
        return Err(EncounterError::invalid("action", "the bonus 5-ft. step is taken during the character's own Initiative Count"));
    }
    if spend.splittable.is_some() || spend.finish_split {
        return Err(EncounterError::invalid("action", "a split skill check is taken on the character's own Initiative Counts"));
    }
    Ok(())
}

/// The declarations that change state beyond a table row.
fn declare(state: &mut CombatState, action: &Action, fluid: &mut Vec<FluidEntry>) -> Result<(), EncounterError> {
    match action {
        Action::GrantHalfAction { source, forbids_attack } => {
            if state.budget.extra_halves.len() >= 10 {
                return Err(EncounterError::invalid("action", "at most 10 granted half actions per round"));
            }
            state.budget.extra_halves.push(ExtraHalf { source: source.clone(), forbids_attack: *forbids_attack });
        }
        Action::Condition { condition, active } if state.set_condition(*condition, *active)? => {
            fluid.push(condition.entry());
        }
        _ => {}
    }
    Ok(())
}

/// The action's machine name (its `action` tag).
pub fn label(action: &Action) -> &'static str {
    match action {
        Action::Aim { .. } => "aim",
        Action::Brace => "brace",
        Action::Regroup => "regroup",
        Action::Move { .. } => "move",
        Action::BonusStep => "bonus_step",
        Action::Press { .. } => "press",
        Action::SkillCheck { .. } => "skill_check",
        Action::FinishSkillCheck => "finish_skill_check",
        Action::Other { .. } => "other",
        Action::GrantHalfAction { .. } => "grant_half_action",
        Action::Condition { .. } => "condition",
        Action::CriticalInjury => "critical_injury",
        Action::Triumph => "triumph",
        Action::CriticalFailure { .. } => "critical_failure",
        Action::Ability { .. } => "ability",
    }
}
