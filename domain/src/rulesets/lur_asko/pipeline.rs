//! One attack from the weapons' numbers to the degrees of injury, in the chapter's order:
//! voluntary reductions, low then medium shielding, the defense roll, the critical hit, drive
//! (combined damage), armour, high shielding, resistances, injury and energy effects
//! (lur-asko.txt, every section up to "Shielding AoEs & ZAoEs").
//!
//! Decisions:
//! - The defense roll is a dice expression from the encounter options (default `1d100`); a roll
//!   of at most the TN defends; a roll above it hits, and failing by 20 or more is a critical hit
//!   (Critical Hits: TN 14 → a critical on 34 or more).
//! - No defense at all is a critical hit ("a lack of defense entirely"), unless the caller says a
//!   critical is out of reach (ranged weapons beyond Marksmanship's limits).
//! - A critical hit's choice defaults to +drive: it needs no injury name.
//! - Hindrance from a voluntary reduction is always reported; it changes the defense TN only when
//!   the encounter option gives a TN step per Hindrance (the offense roll is outside this text).

use super::injury::{self, Victim};
use super::outcome::{
    CriticalEffect, Defense, DriveBonusReport, Element, Hit, Modifier, ModifierCode, Outcome, Portion,
    ShieldResult, ShieldUse,
};
use super::portions;
use super::resistance;
use super::shielding::{self, Pool, Situation};
use super::state::Precision;
use super::stats::Stats;
use super::weapon::{Delivery, Reduction, Weapon};
use crate::dice::{Dice, DiceExpr};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// The critical-hit effect the attacker takes if the hit is critical.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoCriticalChoice))]
#[serde(tag = "choice", rename_all = "snake_case", deny_unknown_fields)]
pub enum CriticalChoice {
    /// +10 drive to every weapon, +20 to a Precise melee weapon.
    #[default]
    Drive,
    /// Name the injury type instead of rolling it.
    InjuryType { injury_type: String },
}

impl crate::bare_or_tagged::BareOrTagged for CriticalChoice {
    const TAG: &'static str = "choice";
    const BARE: &'static [&'static str] = &["drive"];
}

/// The attacker's side of one attack.
#[derive(Debug, Clone, Copy)]
pub struct Attack<'a> {
    pub attacker: &'a str,
    pub weapons: &'a [Weapon],
    pub reduction: Reduction,
    pub strength_withheld: bool,
    pub situation: Situation,
    /// The type rolled on the injury table.
    pub injury_type: &'a str,
    pub critical_choice: &'a CriticalChoice,
}

/// The character being hit.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub name: &'a str,
    pub stats: &'a Stats,
    pub injury_factor: u32,
    pub damage_taken: u32,
}

/// How the defense is settled.
#[derive(Debug, Clone, Copy)]
pub enum DefenseInput<'a> {
    Roll { tn: i32, dice: &'a DiceExpr, tn_per_hindrance: i32, critical_possible: bool },
    Undefended { critical_possible: bool },
    Called { critical: bool },
}

/// An attack's full working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub hindrance: u32,
    pub portions: Vec<Portion>,
    pub shielding: Vec<ShieldUse>,
    pub defense: Defense,
    pub outcome: Outcome,
}

/// Resolves one attack. `pools` are the shields protecting the target, in the order they are
/// used; their points are spent in place.
pub fn resolve(
    attack: Attack<'_>,
    target: Target<'_>,
    defense: DefenseInput<'_>,
    pools: &mut [Pool],
    dice: &mut Dice,
) -> Result<Resolution, RuleError> {
    let hindrance = attack.reduction.hindrance();
    let mut portions: Vec<Vec<Portion>> = attack
        .weapons
        .iter()
        .map(|weapon| portions::start(weapon, attack.reduction, attack.strength_withheld))
        .collect();
    let mut shielding = Vec::new();
    let situation = attack.situation;
    let low: Vec<_> = attack.weapons.iter().map(|w| shielding::low_refusal(w, situation)).collect();
    shielding::shield_level(Precision::Low, &mut portions, &low, pools, &mut shielding);
    let medium: Vec<_> = attack.weapons.iter().map(|w| shielding::medium_refusal(w, situation)).collect();
    shielding::shield_level(Precision::Medium, &mut portions, &medium, pools, &mut shielding);
    let shielded = shielding.iter().any(|u| matches!(u.result, ShieldResult::Applied { .. }));
    if shielded && portions.iter().flatten().all(|p| p.damage == 0) {
        let defense =
            Defense::NotRolled { reason: "shielding negated all the damage before the defense roll".into() };
        return Ok(finish(hindrance, portions, shielding, defense, Outcome::StoppedByShielding));
    }
    let blast_hit = portions.iter().flatten().any(|p| p.element == Element::Blast && p.damage > 0);
    let defense = roll_defense(defense, hindrance, target.name, dice)?;
    let critical = match &defense {
        Defense::Rolled { defended: true, .. } => {
            return Ok(finish(hindrance, portions, shielding, defense, Outcome::Defended));
        }
        Defense::Rolled { critical, .. }
        | Defense::Undefended { critical }
        | Defense::CalledHit { critical } => *critical,
        Defense::NotRolled { .. } => false,
    };
    let critical = critical.then(|| critical_effect(attack));
    let injury_type = match &critical {
        Some(CriticalEffect::InjuryType { injury_type }) => injury_type.clone(),
        _ => attack.injury_type.to_owned(),
    };
    for (weapon, portions) in attack.weapons.iter().zip(portions.iter_mut()) {
        portions::settle_drives(portions, weapon, critical_bonus(critical.as_ref(), weapon));
        portions.iter_mut().for_each(|p| portions::through_armour(p, target.stats.armour));
    }
    let high = vec![None; attack.weapons.len()];
    shielding::shield_level(Precision::High, &mut portions, &high, pools, &mut shielding);
    for (weapon, portions) in attack.weapons.iter().zip(portions.iter_mut()) {
        portions.iter_mut().for_each(|p| resistance::apply(p, &weapon.tags, &target.stats.resistances));
    }
    let flat: Vec<Portion> = portions.into_iter().flatten().collect();
    let injury =
        injury::injury(target.damage_taken, &flat, target.injury_factor, injury_type);
    let victim = Victim {
        organic: target.stats.organic,
        high_shielding: pools.iter().any(|p| p.precision == Precision::High),
    };
    let effects = injury::effects(&injury, blast_hit, victim, attack.attacker);
    let outcome = Outcome::Hit { critical, hit: Hit { injury, effects } };
    Ok(Resolution { hindrance, portions: flat, shielding, defense, outcome })
}

fn finish(
    hindrance: u32,
    portions: Vec<Vec<Portion>>,
    shielding: Vec<ShieldUse>,
    defense: Defense,
    outcome: Outcome,
) -> Resolution {
    Resolution { hindrance, portions: portions.into_iter().flatten().collect(), shielding, defense, outcome }
}

/// The defense roll (Critical Hits): at most the TN defends; failing by 20 or more is critical.
fn roll_defense(
    input: DefenseInput<'_>,
    hindrance: u32,
    target: &str,
    dice: &mut Dice,
) -> Result<Defense, RuleError> {
    match input {
        DefenseInput::Undefended { critical_possible } => {
            Ok(Defense::Undefended { critical: critical_possible })
        }
        DefenseInput::Called { critical } => Ok(Defense::CalledHit { critical }),
        DefenseInput::Roll { tn, dice: expr, tn_per_hindrance, critical_possible } => {
            let outcome = expr
                .roll(dice, &format!("defense: {target}"))
                .map_err(|error| match error {
                    // The dice sent in `rolls` ran out or did not fit: the fault is in `rolls`.
                    crate::dice::DiceExprError::Dice(dice) => RuleError::Dice(dice),
                    other => RuleError::invalid("options.defense_dice", other.to_string()),
                })?;
            let mut modifiers = Vec::new();
            let change = i32::try_from(hindrance).unwrap_or(i32::MAX).saturating_mul(tn_per_hindrance);
            if change != 0 {
                let reason = format!(
                    "{hindrance} Hindrance from voluntarily reducing damage, {tn_per_hindrance:+} TN each"
                );
                modifiers.push(Modifier {
                    code: ModifierCode::VoluntaryReductionHindrance,
                    value: change,
                    reason,
                });
            }
            let effective = tn.saturating_add(change);
            let failed_by = outcome.total - i64::from(effective);
            let defended = failed_by <= 0;
            Ok(Defense::Rolled {
                dice: expr.as_str().to_owned(),
                rendered: outcome.rendered,
                roll: outcome.total,
                base_tn: tn,
                modifiers,
                tn: effective,
                failed_by,
                defended,
                critical: !defended && failed_by >= 20 && critical_possible,
                critical_possible,
            })
        }
    }
}

/// The attacker's chosen critical effect (Critical Hits).
fn critical_effect(attack: Attack<'_>) -> CriticalEffect {
    match attack.critical_choice {
        CriticalChoice::Drive => CriticalEffect::Drive {
            bonuses: attack
                .weapons
                .iter()
                .map(|weapon| DriveBonusReport { weapon: weapon.name.clone(), bonus: precise_bonus(weapon) })
                .collect(),
        },
        CriticalChoice::InjuryType { injury_type } => {
            CriticalEffect::InjuryType { injury_type: injury_type.clone() }
        }
    }
}

/// +20 for a Precise melee weapon, +10 for any other.
fn precise_bonus(weapon: &Weapon) -> u32 {
    if weapon.precise && weapon.delivery == Delivery::Melee { 20 } else { 10 }
}

fn critical_bonus(critical: Option<&CriticalEffect>, weapon: &Weapon) -> u32 {
    match critical {
        Some(CriticalEffect::Drive { .. }) => precise_bonus(weapon),
        _ => 0,
    }
}
