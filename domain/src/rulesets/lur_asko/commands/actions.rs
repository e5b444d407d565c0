//! Actions on shields and auras (lur-asko.txt, "Energy Shielding", "Damage Auras").
//!
//! Decisions:
//! - Shielding points are created on the shielding character's own turn (the text says so); the
//!   points add to the named shield, which protects the listed combatants (itself when none are
//!   listed). A shield keeps its precision and techshield nature once raised.
//! - Unused points and stored aura damage expire as their source says, outside this text: the
//!   caller drops them (`drop_shield`, `drop_aura`, also for a device dropped or disabled).
//! - Charging an aura is not tied to a turn (stored damage may come from many sources); one aura
//!   holds one type of damage.

use super::super::LurAsko;
use super::super::aura::{self, AuraAmount};
use super::super::outcome::AuraStrike;
use super::super::pipeline::Target;
use super::super::state::{Aura, AuraKind, MAX_POOL, Precision, Shield};
use super::super::stats::check_label;
use super::report::{Condition, Standing};
use super::stored::{self, EffectIds, Landing};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event, remove_effect};
use crate::rulesets::Summary;
use crate::rulesets::plugin::{combatant_mut, ensure_active, ensure_turn, parts_mut};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Points added to a shield or damage stored in an aura.
pub type Amount = Score<1, 100_000>;

/// What provokes an aura outside an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoProvocation))]
#[serde(rename_all = "snake_case")]
pub enum Provocation {
    /// A melee, natural-weapon or unarmed hit resolved elsewhere (not a critical hit).
    MeleeHit,
    Touch,
    GrabItem,
    /// Trip, Dismount or Throw.
    Trip,
    /// The provoker ended its turn grappling with the aura's owner.
    GrappleAtEndOfTurn,
}

/// A Lur-Asko action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoAction))]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum ActionRequest {
    /// Create shielding points on the combatant's own turn.
    RaiseShield {
        combatant_id: CombatantId,
        shield: String,
        precision: Precision,
        points: Amount,
        #[serde(default)]
        techshield: bool,
        /// Who it protects; the combatant itself when empty.
        #[serde(default)]
        protects: Vec<CombatantId>,
    },
    /// The shield's unused points expire.
    DropShield { combatant_id: CombatantId, shield: String },
    /// Store damage in an aura.
    ChargeAura {
        combatant_id: CombatantId,
        aura: String,
        kind: AuraKind,
        amount: Amount,
        /// Created by a purely mental action.
        #[serde(default)]
        mental: bool,
    },
    /// The aura expires (its device dropped or disabled, its time up).
    DropAura { combatant_id: CombatantId, aura: String },
    /// The aura strikes a character who touched, grabbed, tripped or grappled its owner.
    AuraStrike {
        combatant_id: CombatantId,
        provoker_id: CombatantId,
        aura: String,
        /// All the stored damage when absent, else a multiple of 10.
        #[serde(default)]
        amount: Option<AuraAmount>,
        provocation: Provocation,
    },
}

/// What an action did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoActionReport))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ActionReport {
    ShieldRaised {
        combatant: String,
        shield: String,
        precision: Precision,
        points_before: u32,
        points_after: u32,
        protects: Vec<String>,
        /// Ignited characters extinguished by a high-precision shield.
        extinguished: Vec<String>,
    },
    ShieldDropped { combatant: String, shield: String, points_lost: u32 },
    AuraCharged { combatant: String, aura: String, stored_before: u32, stored_after: u32 },
    AuraDropped { combatant: String, aura: String, stored_lost: u32 },
    /// `standings`: the struck combatant afterwards (docs/api-conventions.md: always a list).
    AuraStruck { strike: Box<AuraStrike>, conditions: Vec<Condition>, standings: Vec<Standing> },
    /// Auras that lapsed at the end of their owner's turn because it could not act (or only
    /// mentally: those not created by a purely mental action).
    AurasLapsed {
        combatant: String,
        auras: Vec<String>,
        /// Why the owner could not act, e.g. "paralyzed".
        #[serde(default)]
        reason: String,
    },
}

impl Summary for ActionReport {
    fn summary(&self) -> String {
        match self {
            Self::ShieldRaised { combatant, shield, points_after, .. } => {
                format!("{combatant} raises {shield} to {points_after} shielding points")
            }
            Self::ShieldDropped { combatant, shield, points_lost } => {
                format!("{combatant}'s {shield} lapses ({points_lost} points lost)")
            }
            Self::AuraCharged { combatant, aura, stored_after, .. } => format!("{combatant}'s {aura} now stores {stored_after}"),
            Self::AuraDropped { combatant, aura, .. } => format!("{combatant}'s {aura} expires"),
            Self::AuraStruck { strike, .. } => format!(
                "{}'s {} strikes {} for {} damage, {} degree(s) of Core injury{}",
                strike.owner,
                strike.aura,
                strike.struck,
                strike.hit.injury.damage,
                strike.hit.injury.degrees,
                super::report::effects_text(&strike.hit.effects)
            ),
            Self::AurasLapsed { combatant, auras, reason } => {
                format!("{combatant}'s auras lapse at the end of its turn ({reason}): {}", auras.join(", "))
            }
        }
    }
}

/// Runs one action (a refusal is discarded whole: see [`crate::rulesets::Command::run`]).
pub fn act(encounter: &mut Encounter, request: ActionRequest, dice: &mut Dice) -> Result<(Vec<Event>, ActionReport), EncounterError> {
    ensure_active::<LurAsko>(encounter)?;
    let mut events = Vec::new();
    let (actor, report) = match request {
        ActionRequest::RaiseShield { combatant_id, shield, precision, points, techshield, protects } => {
            ensure_turn(encounter, &combatant_id, "combatant_id")?;
            let protects = if protects.is_empty() { vec![combatant_id.clone()] } else { protects };
            let spec = Shield { name: shield, precision, points: points.get() as u32, techshield, protects };
            let report = raise_shield(encounter, &combatant_id, spec, &mut events)?;
            (combatant_id, report)
        }
        ActionRequest::DropShield { combatant_id, shield } => {
            let report = drop_shield(encounter, &combatant_id, &shield)?;
            (combatant_id, report)
        }
        ActionRequest::ChargeAura { combatant_id, aura, kind, amount, mental } => {
            let report = charge_aura(encounter, &combatant_id, Aura { name: aura, kind, stored: amount.get() as u32, mental })?;
            (combatant_id, report)
        }
        ActionRequest::DropAura { combatant_id, aura } => {
            let report = drop_aura(encounter, &combatant_id, &aura)?;
            (combatant_id, report)
        }
        ActionRequest::AuraStrike { combatant_id, provoker_id, aura, amount, provocation: _ } => {
            let report = aura_strike(encounter, &combatant_id, &provoker_id, &aura, amount, &mut events)?;
            (combatant_id, report)
        }
    };
    let _ = dice;
    events.insert(0, Event::ActionTaken {
        combatant_id: actor,
        action: action_name(&report).to_owned(),
        report: crate::rulesets::RulesetReport::LurAsko(super::Report::Action(Box::new(report.clone()))),
        dice: Vec::new(),
    });
    Ok((events, report))
}

fn action_name(report: &ActionReport) -> &'static str {
    match report {
        ActionReport::ShieldRaised { .. } => "raise_shield",
        ActionReport::ShieldDropped { .. } => "drop_shield",
        ActionReport::AuraCharged { .. } => "charge_aura",
        ActionReport::AuraDropped { .. } => "drop_aura",
        ActionReport::AuraStruck { .. } => "aura_strike",
        ActionReport::AurasLapsed { .. } => "auras_lapsed",
    }
}

fn raise_shield(draft: &mut Encounter, id: &CombatantId, spec: Shield, events: &mut Vec<Event>) -> Result<ActionReport, EncounterError> {
    check_label("shield", &spec.name)?;
    let mut protects = Vec::new();
    for (index, protected) in spec.protects.iter().enumerate() {
        protects.push(stored::lur(draft, protected, &format!("protects[{index}]"))?.0.to_owned());
    }
    let name = draft.name_of(id);
    let combatant = combatant_mut(draft, id, "combatant_id")?;
    let (_, state) = parts_mut::<LurAsko>(combatant, "combatant_id")?;
    let count = state.shields.len();
    let points_before = match state.shields.iter_mut().find(|s| s.name == spec.name) {
        Some(existing) if existing.precision != spec.precision || existing.techshield != spec.techshield => {
            return Err(EncounterError::invalid("precision", "the shield was raised with another precision or kind"));
        }
        Some(existing) => {
            let before = existing.points;
            existing.points = existing.points.saturating_add(spec.points).min(MAX_POOL);
            existing.protects = spec.protects.clone();
            before
        }
        None if count >= 20 => return Err(EncounterError::invalid("shield", "at most 20 shields per combatant")),
        None => {
            state.shields.push(spec.clone());
            0
        }
    };
    let points_after = points_before.saturating_add(spec.points).min(MAX_POOL);
    let extinguished = if spec.precision == Precision::High { extinguish(draft, &spec.protects, events)? } else { Vec::new() };
    Ok(ActionReport::ShieldRaised {
        combatant: name,
        shield: spec.name,
        precision: spec.precision,
        points_before,
        points_after,
        protects,
        extinguished,
    })
}

/// High precision shielding given to an ignited character puts the fire out at once.
fn extinguish(draft: &mut Encounter, protected: &[CombatantId], events: &mut Vec<Event>) -> Result<Vec<String>, EncounterError> {
    let fires: Vec<_> = draft
        .effects
        .iter()
        .filter(|e| e.name == "ignited" && e.target.as_ref().is_some_and(|t| protected.contains(t)))
        .map(|e| (e.id.clone(), e.target.clone()))
        .collect();
    let mut names = Vec::new();
    for (id, target) in fires {
        events.extend(remove_effect(draft, &id)?);
        if let Some(target) = target {
            names.push(draft.name_of(&target));
        }
    }
    Ok(names)
}

fn drop_shield(draft: &mut Encounter, id: &CombatantId, shield: &str) -> Result<ActionReport, EncounterError> {
    let name = draft.name_of(id);
    let combatant = combatant_mut(draft, id, "combatant_id")?;
    let (_, state) = parts_mut::<LurAsko>(combatant, "combatant_id")?;
    let index = state.shields.iter().position(|s| s.name == shield).ok_or_else(|| EncounterError::invalid("shield", "no shield of that name"))?;
    let removed = state.shields.remove(index);
    Ok(ActionReport::ShieldDropped { combatant: name, shield: removed.name, points_lost: removed.points })
}

fn charge_aura(draft: &mut Encounter, id: &CombatantId, spec: Aura) -> Result<ActionReport, EncounterError> {
    check_label("aura", &spec.name)?;
    let name = draft.name_of(id);
    let combatant = combatant_mut(draft, id, "combatant_id")?;
    let (_, state) = parts_mut::<LurAsko>(combatant, "combatant_id")?;
    let count = state.auras.len();
    let stored_before = match state.auras.iter_mut().find(|a| a.name == spec.name) {
        Some(existing) if existing.kind != spec.kind => {
            return Err(EncounterError::invalid("kind", "all the damage stored in one aura is of one type"));
        }
        Some(existing) => {
            let before = existing.stored;
            existing.stored = existing.stored.saturating_add(spec.stored).min(MAX_POOL);
            before
        }
        None if count >= 20 => return Err(EncounterError::invalid("aura", "at most 20 auras per combatant")),
        None => {
            state.auras.push(spec.clone());
            0
        }
    };
    let stored_after = stored_before.saturating_add(spec.stored).min(MAX_POOL);
    Ok(ActionReport::AuraCharged { combatant: name, aura: spec.name, stored_before, stored_after })
}

fn drop_aura(draft: &mut Encounter, id: &CombatantId, aura: &str) -> Result<ActionReport, EncounterError> {
    let name = draft.name_of(id);
    let combatant = combatant_mut(draft, id, "combatant_id")?;
    let (_, state) = parts_mut::<LurAsko>(combatant, "combatant_id")?;
    let index = state.auras.iter().position(|a| a.name == aura).ok_or_else(|| EncounterError::invalid("aura", "no aura of that name"))?;
    let removed = state.auras.remove(index);
    Ok(ActionReport::AuraDropped { combatant: name, aura: removed.name, stored_lost: removed.stored })
}

fn aura_strike(
    draft: &mut Encounter,
    owner: &CombatantId,
    provoker: &CombatantId,
    aura_name: &str,
    amount: Option<AuraAmount>,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    if owner == provoker {
        return Err(EncounterError::invalid("provoker_id", "an aura does not strike its owner"));
    }
    let (_, _, owner_state) = stored::lur(draft, owner, "combatant_id")?;
    let index = owner_state
        .auras
        .iter()
        .position(|a| a.name == aura_name)
        .ok_or_else(|| EncounterError::invalid("aura", format!("no aura named '{aura_name}'")))?;
    let amount = aura::discharge_amount(&owner_state.auras[index], amount, "")
        .map_err(|_| EncounterError::invalid("amount", "must be all the stored damage or a multiple of 10 no larger than it"))?;
    let (struck_name, struck_stats, struck_state) = stored::lur(draft, provoker, "provoker_id")?;
    let (struck_name, struck_stats, taken) = (struck_name.to_owned(), struck_stats.clone(), struck_state.damage_taken);
    let injury_factor = struck_stats.injury_factor("provoker_id")?;
    let struck = Target { name: &struck_name, stats: &struck_stats, injury_factor, damage_taken: taken };
    let strike = super::attacks::strike_stored(draft, owner, provoker, index, amount, struck)?;
    let mut conditions = Vec::new();
    let mut ids = EffectIds::new(draft);
    let landing = Landing { target: provoker, attacker: provoker, injury: &strike.hit.injury, effects: &strike.hit.effects };
    let standing = stored::land(draft, landing, &mut ids, &mut conditions, events)?;
    Ok(ActionReport::AuraStruck { strike: Box::new(strike), conditions, standings: vec![standing] })
}
