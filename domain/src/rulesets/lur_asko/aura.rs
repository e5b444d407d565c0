//! Damage auras striking back (lur-asko.txt, "Damage Auras").
//!
//! Decisions:
//! - The aura's damage goes through drive and armour like any hit (non-energy auras "specify
//!   drive"; energy drive equals the damage), then high-precision shielding, then resistances.
//! - It never crits and adds no drive bonus; its injuries are always Core Injuries.

use super::injury::{self, Victim};
use super::outcome::{AuraStrike, Element, Hit, Portion, ShieldUse};
use super::pipeline::Target;
use super::portions;
use super::resistance;
use super::shielding::{self, Pool};
use super::state::{Aura, AuraKind, Precision};
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// The injury type every aura inflicts.
pub const CORE_INJURY: &str = "Core";

/// An amount of stored damage to discharge.
pub type AuraAmount = Score<1, 100_000>;

/// What the aura's owner discharges: all the stored damage, or a multiple of 10.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoAuraResponse))]
#[serde(deny_unknown_fields)]
pub struct AuraResponse {
    /// The aura's name (only one aura reacts to one attack).
    pub aura: String,
    /// Absent: all the stored damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<AuraAmount>,
}

/// The amount a discharge spends: all of it, or a multiple of 10 no larger than what is stored.
pub fn discharge_amount(aura: &Aura, amount: Option<AuraAmount>, field: &str) -> Result<u32, RuleError> {
    let Some(amount) = amount else {
        if aura.stored == 0 {
            return Err(RuleError::invalid(format!("{field}.aura"), "the aura stores no damage"));
        }
        return Ok(aura.stored);
    };
    let amount = amount.get() as u32;
    if amount > aura.stored {
        return Err(RuleError::invalid(
            format!("{field}.amount"),
            format!("the aura stores only {}", aura.stored),
        ));
    }
    if amount != aura.stored && !amount.is_multiple_of(10) {
        return Err(RuleError::invalid(
            format!("{field}.amount"),
            "must be all the stored damage or a multiple of 10",
        ));
    }
    Ok(amount)
}

/// The aura's discharge hitting `struck` automatically: undodgeable, opposed only by the struck
/// character's high-precision shields (`pools`), Core Injuries. `amount` comes from
/// [`discharge_amount`]; the aura's store falls by it.
pub fn strike(
    owner: &str,
    aura: &mut Aura,
    amount: u32,
    struck: Target<'_>,
    pools: &mut [Pool],
) -> AuraStrike {
    let stored_before = aura.stored;
    aura.stored = aura.stored.saturating_sub(amount);
    let (element, drive) = match aura.kind {
        AuraKind::Energy { energy } => (Element::of_energy(energy), amount),
        AuraKind::Normal { drive } => (Element::Normal, drive.get() as u32),
    };
    let reason = format!("{owner}'s {} discharges {amount} damage at drive {drive}", aura.name);
    let portion = Portion::new(&aura.name, element, amount, drive, reason);
    let (flat, shielding) = through_defences(portion, struck, pools);
    let injury = injury::injury(struck.damage_taken, &flat, struck.injury_factor, CORE_INJURY.to_owned());
    let blast_hit = flat.iter().any(|p| p.element == Element::Blast && p.damage > 0);
    let victim = Victim {
        organic: struck.stats.organic,
        high_shielding: pools.iter().any(|p| p.precision == Precision::High),
    };
    // "Attacker's next turn" durations anchor on the struck character, who attacked.
    let effects = injury::effects(&injury, blast_hit, victim, struck.name);
    AuraStrike {
        owner: owner.to_owned(),
        aura: aura.name.clone(),
        struck: struck.name.to_owned(),
        amount,
        stored_before,
        stored_after: aura.stored,
        portions: flat,
        shielding,
        hit: Hit { injury, effects },
    }
}

/// Armour, then high-precision shielding, then resistances.
fn through_defences(
    mut portion: Portion,
    struck: Target<'_>,
    pools: &mut [Pool],
) -> (Vec<Portion>, Vec<ShieldUse>) {
    portions::through_armour(&mut portion, struck.stats.armour);
    let mut groups = vec![vec![portion]];
    let mut shielding = Vec::new();
    shielding::shield_level(Precision::High, &mut groups, &[None], pools, &mut shielding);
    let mut flat: Vec<Portion> = groups.into_iter().flatten().collect();
    flat.iter_mut().for_each(|p| resistance::apply(p, &[], &struck.stats.resistances));
    (flat, shielding)
}
