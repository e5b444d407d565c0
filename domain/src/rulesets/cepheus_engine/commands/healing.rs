//! Healing (cepheus-engine.txt, "Injury and Recovery", "Natural Healing", "Medical Treatment",
//! "Healing and Mental Characteristics").
//!
//! Decisions:
//! - A free action: it takes days of the table's time, not turns.
//! - heal: the patient must be damaged and not dead. `days` (1–365, default 1) only for the
//!   natural methods and medical care. Mental characteristics are not tracked, so they never heal
//!   here.
//! - Points restored go first where `split` asks (each part at most that characteristic's damage;
//!   spread over all days), then in the default order: Endurance, then the lower current of STR
//!   and DEX (STR on a tie), then the other. Healing never passes a maximum.
//! - Natural healing, day by day: full rest 1D6 + END DM, active 1 + END DM; a seriously wounded
//!   character gets only the END DM either way. A negative day degrades: the points are lost as
//!   damage on the default damage path (`apply.rs`), which can knock out or kill.
//! - First aid and surgery: a Medicine check by the medic, 2D6 + Medicine (−3 unskilled) + EDU DM
//!   (the text names no characteristic) + the medic's own DMs; self-treatment is Difficult (−2),
//!   self-surgery Very Difficult (−4). The medic is `medic_id` (a combatant able to act) or,
//!   without one, the patient; `medic_skill` (−3..=15) stands for a medic outside the encounter
//!   (EDU DM 0) and may not be combined with `medic_id`. First aid restores 2 × Effect,
//!   first_aid_late Effect (never below 0). Surgery needs a seriously wounded patient; success
//!   restores 2 × Effect, failure loses −Effect points on the damage path.
//! - Medical care: refused for the seriously wounded (surgery first); needs `medic_id` or
//!   `medic_skill`. Per day 2 + END DM + Medicine level (−3 unskilled), at least 0, dealt one point
//!   at a time round the damaged characteristics in the default order, so it is even and any
//!   remainder goes to the earlier ones; `split` is refused.
//! - Surgery and medical care each "require a hospital or sickbay": `facility` (`hospital` or
//!   `sickbay`) is required for them, 422 on `facility` without it; where the patient lies is the
//!   campaign's, so the caller says. Other methods accept it and ignore it.
//! - A combatant out of the fight (unconscious or dead by status) that can act after healing loses
//!   the defeated flag; one that cannot act afterwards is marked defeated.

use super::super::Stats;
use super::super::allocation::{AllocationChoice, Split};
use super::super::character::Physical;
use super::super::damage::Status;
use super::super::modifier::{Modifier, ModifierCode, total_dm};
use super::super::opposed::roll_check;
use super::CharacteristicName;
use super::action_report::{ActionReport, CheckReport};
use super::invalid;
use super::apply::apply_hit;
use super::{combatant, combatant_mut, ensure_can_act, own_check_modifiers, parts, parts_mut};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Most days of healing in one request.
pub const MAX_HEALING_DAYS: u32 = 365;

/// Where a patient is treated (cepheus-engine.txt, "Medical Treatment": surgery and medical care
/// require a hospital or sickbay).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineFacility))]
#[serde(rename_all = "snake_case")]
pub enum Facility {
    Hospital,
    Sickbay,
}

/// How a character heals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineHealMethod))]
#[serde(rename_all = "snake_case")]
pub enum HealMethod {
    NaturalRest,
    NaturalActive,
    FirstAid,
    FirstAidLate,
    Surgery,
    MedicalCare,
}

/// What healing did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineHealingReport))]
pub struct HealingReport {
    pub method: HealMethod,
    pub days: u32,
    /// Points restored to each characteristic.
    pub restored: Split,
    /// Points lost (degrading, failed surgery).
    pub lost: i32,
    pub status_before: Status,
    pub status_after: Status,
    pub stats_after: Stats,
}

/// A heal request's fields.
pub struct HealRequest<'a> {
    pub method: HealMethod,
    pub days: Option<u32>,
    pub medic_id: Option<&'a CombatantId>,
    pub medic_skill: Option<i32>,
    pub split: Option<Split>,
    pub facility: Option<Facility>,
}

/// Endurance, then the lower current of STR and DEX (STR on a tie), then the other.
fn heal_order(stats: &Stats) -> [Physical; 3] {
    if stats.current(Physical::Dex) < stats.current(Physical::Str) {
        [Physical::End, Physical::Dex, Physical::Str]
    } else {
        [Physical::End, Physical::Str, Physical::Dex]
    }
}

fn set_damage(stats: &mut Stats, physical: Physical, value: i32) {
    *stats.damage.slot(physical) =
        Score::new(i64::from(value.clamp(0, 30))).unwrap_or_else(|_| unreachable!("clamped"));
}

/// Restores up to `points`: the split's remaining wishes first, then the default order.
fn restore(stats: &mut Stats, points: i32, wishes: &mut Split, restored: &mut Split) {
    let mut left = points;
    for physical in Physical::ALL {
        let take = left.min(wishes.of(physical)).min(stats.damage.of(physical)).max(0);
        set_damage(stats, physical, stats.damage.of(physical) - take);
        wishes.add(physical, -take);
        restored.add(physical, take);
        left -= take;
    }
    for physical in heal_order(stats) {
        let take = left.min(stats.damage.of(physical)).max(0);
        set_damage(stats, physical, stats.damage.of(physical) - take);
        restored.add(physical, take);
        left -= take;
    }
}

/// Restores `points` one at a time round the damaged characteristics (medical care).
fn restore_evenly(stats: &mut Stats, points: i32, restored: &mut Split) {
    let order = heal_order(stats);
    let mut left = points;
    while left > 0 && stats.has_been_damaged() {
        for physical in order {
            if left > 0 && stats.damage.of(physical) > 0 {
                set_damage(stats, physical, stats.damage.of(physical) - 1);
                restored.add(physical, 1);
                left -= 1;
            }
        }
    }
}

fn stats_of<'a>(encounter: &'a Encounter, id: &CombatantId) -> Result<&'a Stats, EncounterError> {
    Ok(parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?.0)
}

/// The medic's Medicine check DMs (see the module decisions).
fn medic_modifiers(
    encounter: &Encounter,
    patient: &CombatantId,
    request: &HealRequest,
) -> Result<Vec<Modifier>, EncounterError> {
    let self_dm = if request.method == HealMethod::Surgery { -4 } else { -2 };
    if let Some(level) = request.medic_skill {
        return Ok(vec![Modifier::new(ModifierCode::Skill, format!("medicine {level}"), level)]);
    }
    let medic = request.medic_id.unwrap_or(patient);
    let field = if request.medic_id.is_some() { "medic_id" } else { "combatant_id" };
    let found = combatant(encounter, medic, field)?;
    ensure_can_act(found, field)?;
    let (stats, state) = parts(found, field)?;
    let mut modifiers = vec![
        match stats.skill_level("medicine") {
            Some(level) => Modifier::new(ModifierCode::Skill, format!("medicine {level}"), level),
            None => Modifier::new(ModifierCode::Skill, "unskilled in medicine", stats.skill_dm("medicine")),
        },
        Modifier::new(ModifierCode::CharacteristicDm, "EDU DM", CharacteristicName::Edu.dm(stats)),
    ];
    modifiers.extend(own_check_modifiers(stats, state, encounter.round));
    if medic == patient {
        let what = if self_dm == -4 { "self-surgery: Very Difficult" } else { "self-treatment: Difficult" };
        modifiers.push(Modifier::new(ModifierCode::SelfTreatment, what, self_dm));
    }
    Ok(modifiers)
}

fn validate_heal(
    encounter: &Encounter,
    id: &CombatantId,
    request: &HealRequest,
) -> Result<u32, EncounterError> {
    let stats = stats_of(encounter, id)?;
    let name = encounter.name_of(id);
    if !stats.has_been_damaged() {
        return Err(invalid("combatant_id", format!("{name} has no damage to heal")));
    }
    use HealMethod::*;
    let per_day = matches!(request.method, NaturalRest | NaturalActive | MedicalCare);
    if request.days.is_some() && !per_day {
        return Err(invalid("days", "days are only for natural healing and medical care"));
    }
    let days = request.days.unwrap_or(1);
    if !(1..=MAX_HEALING_DAYS).contains(&days) {
        return Err(invalid("days", format!("days is 1 to {MAX_HEALING_DAYS}")));
    }
    let natural = matches!(request.method, NaturalRest | NaturalActive);
    if natural && (request.medic_id.is_some() || request.medic_skill.is_some()) {
        let field = if request.medic_id.is_some() { "medic_id" } else { "medic_skill" };
        return Err(invalid(field, "natural healing needs no medic"));
    }
    if request.medic_id.is_some() && request.medic_skill.is_some() {
        return Err(invalid("medic_skill", "give medic_id or medic_skill, not both"));
    }
    if let Some(level) = request.medic_skill
        && !(-3..=15).contains(&level)
    {
        return Err(invalid("medic_skill", "medic_skill is -3 to 15"));
    }
    if let Some(medic) = request.medic_id {
        combatant(encounter, medic, "medic_id")?;
    }
    let seriously = stats.status() == Status::SeriouslyWounded;
    match request.method {
        Surgery if !seriously => {
            return Err(invalid("method", format!("{name} is not seriously wounded: surgery does not help")));
        }
        MedicalCare if seriously => {
            return Err(invalid("method", format!("{name} is seriously wounded and needs surgery first")));
        }
        MedicalCare if request.medic_id.is_none() && request.medic_skill.is_none() => {
            return Err(invalid("medic_id", "medical care needs a doctor: give medic_id or medic_skill"));
        }
        Surgery | MedicalCare if request.facility.is_none() => {
            let message = "surgery and medical care require a hospital or sickbay: send facility (cepheus-engine.txt, \"Medical Treatment\")";
            return Err(invalid("facility", message));
        }
        _ => {}
    }
    if let Some(split) = request.split {
        if request.method == MedicalCare {
            return Err(invalid("split", "medical care is divided evenly; no split"));
        }
        for physical in Physical::ALL {
            let (wanted, taken) = (split.of(physical), stats.damage.of(physical));
            if !(0..=taken).contains(&wanted) {
                return Err(invalid(
                    &format!("split.{}", physical.field()),
                    format!("{} can regain 0 to {taken} points", physical.name()),
                ));
            }
        }
    }
    Ok(days)
}

/// Loses points on the damage path (degrading, failed surgery).
fn lose(
    encounter: &mut Encounter,
    id: &CombatantId,
    points: i32,
    dice: &mut Dice,
) -> Result<i32, EncounterError> {
    let room: i32 = Physical::ALL
        .iter()
        .map(|p| stats_of(encounter, id).map(|s| s.current(*p)))
        .sum::<Result<i32, _>>()?;
    let points = points.min(room);
    if points > 0 {
        apply_hit(encounter, id, points, &AllocationChoice::default(), dice, "combatant_id")?;
    }
    Ok(points)
}

/// What a heal request has done so far: the split's wishes still open, the points restored and
/// lost, and a description of each day or check.
struct Progress {
    wishes: Split,
    restored: Split,
    lost: i32,
    descriptions: Vec<String>,
}

impl Progress {
    /// Restores `points` to the patient: one at a time round the damaged characteristics
    /// (`evenly`, medical care) or the split's wishes first.
    fn restore(
        &mut self,
        encounter: &mut Encounter,
        id: &CombatantId,
        points: i32,
        evenly: bool,
    ) -> Result<(), EncounterError> {
        let (stats, _) = parts_mut(combatant_mut(encounter, id, "combatant_id")?, "combatant_id")?;
        if evenly {
            restore_evenly(stats, points, &mut self.restored)
        } else {
            restore(stats, points, &mut self.wishes, &mut self.restored)
        }
        Ok(())
    }
}

/// Natural healing and medical treatment (cepheus-engine.txt, "Injury and Recovery", "Natural
/// Healing", "Medical Treatment").
pub(super) fn heal(
    encounter: &mut Encounter,
    id: &CombatantId,
    request: &HealRequest,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    let days = validate_heal(encounter, id, request)?;
    let status_before = stats_of(encounter, id)?.status();
    let mut progress = Progress {
        wishes: request.split.unwrap_or_default(),
        restored: Split::default(),
        lost: 0,
        descriptions: Vec::new(),
    };
    match request.method {
        HealMethod::NaturalRest | HealMethod::NaturalActive | HealMethod::MedicalCare => {
            heal_days(encounter, id, request, days, &mut progress, dice)?;
        }
        HealMethod::FirstAid | HealMethod::FirstAidLate | HealMethod::Surgery => {
            report.check = Some(treat(encounter, id, request, &mut progress, dice)?);
        }
    }
    let combatant = combatant_mut(encounter, id, "combatant_id")?;
    let (stats, _) = parts(combatant, "combatant_id")?;
    let (status_after, stats_after) = (stats.status(), stats.clone());
    if !status_after.can_act() {
        combatant.flags.defeated = true;
    } else if !status_before.can_act() {
        combatant.flags.defeated = false;
    }
    let Progress { restored, lost, descriptions, .. } = progress;
    report.description = format!(
        "{} heals ({:?}): {}; restored {} points, lost {lost}",
        report.name,
        request.method,
        descriptions.join(", "),
        restored.str + restored.dex + restored.end
    );
    report.healing = Some(HealingReport {
        method: request.method,
        days,
        restored,
        lost,
        status_before,
        status_after,
        stats_after,
    });
    Ok(report)
}

/// Natural healing and medical care, day by day until the patient is whole or dead
/// (cepheus-engine.txt, "Natural Healing", "Medical Treatment").
fn heal_days(
    encounter: &mut Encounter,
    id: &CombatantId,
    request: &HealRequest,
    days: u32,
    progress: &mut Progress,
    dice: &mut Dice,
) -> Result<(), EncounterError> {
    let medicine = match (request.medic_skill, request.medic_id) {
        (Some(level), _) => level,
        (None, Some(medic)) => stats_of(encounter, medic)?.skill_dm("medicine"),
        (None, None) => 0,
    };
    for day in 1..=days {
        let stats = stats_of(encounter, id)?;
        if stats.status() == Status::Dead || !stats.has_been_damaged() {
            break;
        }
        let end_dm = CharacteristicName::End.dm(stats);
        let seriously = stats.status() == Status::SeriouslyWounded;
        let points = match request.method {
            HealMethod::MedicalCare => (2 + end_dm + medicine).max(0),
            _ if seriously => end_dm,
            HealMethod::NaturalRest => dice.roll(6, "natural healing")? as i32 + end_dm,
            _ => 1 + end_dm,
        };
        if points >= 0 {
            progress.restore(encounter, id, points, request.method == HealMethod::MedicalCare)?;
        } else {
            progress.lost += lose(encounter, id, -points, dice)?;
        }
        progress.descriptions.push(format!("day {day}: {points:+}"));
    }
    Ok(())
}

/// First aid and surgery: the medic's Medicine check (cepheus-engine.txt, "Medical Treatment").
fn treat(
    encounter: &mut Encounter,
    id: &CombatantId,
    request: &HealRequest,
    progress: &mut Progress,
    dice: &mut Dice,
) -> Result<CheckReport, EncounterError> {
    let modifiers = medic_modifiers(encounter, id, request)?;
    let roll = roll_check(total_dm(&modifiers), dice, "Medicine check")?;
    let effect = roll.effect;
    let points = if request.method == HealMethod::FirstAidLate { effect } else { 2 * effect };
    if roll.success {
        progress.restore(encounter, id, points.max(0), false)?;
        progress.descriptions.push(format!("Medicine Effect {effect:+}: {} points", points.max(0)));
    } else if request.method == HealMethod::Surgery {
        progress.lost += lose(encounter, id, -effect, dice)?;
        progress.descriptions.push(format!("surgery fails (Effect {effect:+}): {} points lost", -effect));
    } else {
        progress.descriptions.push(format!("Medicine check fails (Effect {effect:+}): nothing restored"));
    }
    Ok(CheckReport { purpose: "Medicine check".into(), modifiers, roll })
}
