//! Damage applied to a stored combatant outside an attack (adeva-d100.txt, "Attacking", Steps Six
//! and Seven).
//!
//! Decisions: `apply_soak: true` subtracts TB + AP − `penetration` (AP not below 0) from `amount`
//! first; otherwise `amount` is lost as wounds directly. Dead and Lethal Damage as in `mod.rs`.

use super::super::Stats;
use crate::rulesets::adeva_d100::bounds::Unsigned;
use super::super::decay::CharacteristicName;
use super::super::wounds::{Soak, WoundsLoss, lose_wounds, past_soak, soak};
use super::core::effective;
use super::super::AdevaD100;
use super::refreshed_mut;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, EncounterStatus, Event};
use crate::rulesets::{RuleError, RulesetReport, plugin};
use serde::{Deserialize, Serialize};

/// `POST /v1/encounters/{id}/adeva-d100/damage`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100EncounterDamage))]
#[serde(deny_unknown_fields)]
pub struct EncounterDamage {
    pub combatant_id: CombatantId,
    /// The damage, before soak.
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::amount")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 10000))]
    pub amount: u32,
    /// Soak (TB + AP − penetration) is taken off `amount` first.
    #[serde(default)]
    pub apply_soak: bool,
    /// Penetration taken off the Armour Points in soak (default 0).
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub penetration: u32,
    /// Where the damage came from (a fall, fire, a referee's ruling), kept in the event log.
    #[serde(default)]
    pub reason: Option<String>,
}

/// What the damage did, stored or stateless (`wounds.dead`: dead, and stored as defeated).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DamageReport))]
pub struct DamageReport {
    /// The stored combatant (absent in the stateless form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combatant_id: Option<CombatantId>,
    pub name: String,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::amount")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 10000))]
    pub amount: u32,
    pub soak: Option<Soak>,
    pub wounds: WoundsLoss,
    pub notes: Vec<String>,
    /// The stat block after the damage, as stored.
    pub stats_after: Stats,
}

/// Works out wounds lost by a stat block; `field` prefixes refusals.
pub(crate) fn apply(
    stats: &Stats,
    amount: u32,
    with_soak: bool,
    penetration: u32,
    field: &str,
) -> Result<(Option<Soak>, WoundsLoss, Vec<String>), RuleError> {
    if stats.wounds.is_none() {
        return Err(RuleError::invalid(field, "the stat block has no wounds"));
    }
    if amount > 10_000 || penetration > 100 {
        return Err(RuleError::invalid("amount", "amount must be at most 10000 and penetration at most 100"));
    }
    let soaked = if with_soak {
        let tb = super::super::bonus(effective(stats, CharacteristicName::T)?) as u32;
        Some(soak(tb, stats.armour.n(), penetration))
    } else {
        None
    };
    let lost = soaked.as_ref().map_or(amount, |s| past_soak(amount, s));
    let wounds = lose_wounds(stats.current_wounds(), stats.fate_points.n(), lost);
    let mut notes = Vec::new();
    if wounds.lethal_damage {
        notes.push(format!("{} damage past 0 wounds: resolve it as Lethal Damage", wounds.past_zero));
    }
    Ok((soaked, wounds, notes))
}

pub fn damage(
    encounter: &mut Encounter,
    request: EncounterDamage,
    _dice: &mut Dice,
) -> Result<(Vec<Event>, DamageReport), EncounterError> {
    plugin::ensure_ruleset::<AdevaD100>(encounter)?;
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    // Worked out on a copy of the combatant first, so a refusal stores nothing.
    let mut probe = plugin::combatant(encounter, &request.combatant_id, "combatant_id")?.clone();
    let (stats, _, _) = plugin::parts_and_flags_mut::<AdevaD100>(&mut probe, "combatant_id")?;
    let (soak, wounds, mut notes) =
        apply(stats, request.amount, request.apply_soak, request.penetration, "combatant_id")?;
    let (stats, _, flags) = refreshed_mut(encounter, &request.combatant_id, "combatant_id")?;
    stats.set_wounds_left(wounds.after);
    if wounds.dead {
        flags.defeated = true;
    }
    let stats_after = stats.clone();
    if let Some(reason) = request.reason {
        notes.insert(0, reason);
    }
    let report = DamageReport {
        name: encounter.name_of(&request.combatant_id),
        combatant_id: Some(request.combatant_id.clone()),
        amount: request.amount,
        soak,
        wounds,
        notes,
        stats_after,
    };
    let events = vec![Event::DamageApplied {
        combatant_id: request.combatant_id,
        report: RulesetReport::AdevaD100(crate::rulesets::adeva_d100::Report::Damage(Box::new(report.clone()))),
        dice: Vec::new(),
    }];
    Ok((events, report))
}
