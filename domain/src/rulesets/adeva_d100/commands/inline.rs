//! Stateless twins: stat blocks inline, nothing stored (same rules as the stored commands).

use super::super::Stats;
use super::super::actions::declared::DeclaredAction;
use super::super::damage::DamageDice;
use super::super::test_modifiers::{CallerModifier, caller};
use super::core::{AttackInput, AttackerSide, EvasionChoice, TargetSide, resolve};
use super::attack::{AttackReport, TargetReport, apply_outcome};
use super::damage::{DamageReport, apply};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100InlineAttack))]
#[serde(deny_unknown_fields)]
pub struct InlineAttack {
    pub attacker: Stats,
    pub target: Stats,
    /// Named in the report and its summary ("attacker" when left out).
    #[serde(default)]
    pub attacker_name: Option<String>,
    /// Named in the report and its summary ("target" when left out).
    #[serde(default)]
    pub target_name: Option<String>,
    /// The attack action: one of the eight that make an attack test.
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::actions::attack_action::read")]
    #[cfg_attr(feature = "schema", schema(value_type = crate::rulesets::adeva_d100::actions::attack_action::AttackAction))]
    pub action: DeclaredAction,
    /// Left out for an unarmed attack.
    #[serde(default)]
    pub damage: Option<DamageDice>,
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub penetration: u32,
    #[serde(default)]
    pub evasion: EvasionChoice,
    #[serde(default)]
    pub evasion_modifiers: Vec<CallerModifier>,
    #[serde(default)]
    pub modifiers: Vec<CallerModifier>,
    #[serde(default)]
    pub target_surprised: bool,
    #[serde(default)]
    pub long_range_weapon: bool,
    /// An unarmed attack: 1d5 − 3 + SB, no penetration (adeva-d100.txt, "Unarmed Attacks"); a
    /// weapon named "unarmed" counts too.
    #[serde(default)]
    pub unarmed: bool,
    /// Which landed hit takes the Degrees of Success in place of a damage die, counted in the order
    /// the hits are rolled (the main target's first, then each extra target's), from 1; left out,
    /// the first (adeva-d100.txt, "Attacking", Step Five: the attacker chooses).
    #[serde(default, deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points_opt")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub dos_hit: Option<u32>,
    #[serde(default)]
    pub lethal_damage_table: Option<Vec<String>>,
}

/// The same attack as the stored command, between inline stat blocks; nothing is stored.
pub fn attack_inline(request: InlineAttack, dice: &mut Dice) -> Result<AttackReport, RuleError> {
    let side = TargetSide {
        field: "target".into(),
        stats: &request.target,
        surprised: request.target_surprised,
        evasion: request.evasion,
        evasion_field: "evasion".into(),
        evasion_modifiers: caller(&request.evasion_modifiers),
        own_evasion: None,
        attacks_against: None,
        hits_wanted: None,
        reaction_spent: false,
        feinted: false,
        squares_from_target: None,
        within_reach: None,
        attack_modifier: 0,
    };
    let action = super::core::with_movement(&request.action, &request.attacker)?;
    let modifiers = caller(&request.modifiers);
    let input = AttackInput {
        action: &action,
        damage: request.damage,
        penetration: request.penetration,
        modifiers: &modifiers,
        long_range_weapon: request.long_range_weapon,
        unarmed: request.unarmed || super::core::named_unarmed(&request.action),
        lethal_damage_table: request.lethal_damage_table.as_deref(),
        dos_hit: request.dos_hit,
    };
    let attacker = AttackerSide { stats: &request.attacker, aim: None };
    let mut resolved = resolve(&attacker, std::slice::from_ref(&side), &input, dice)?;
    let mut targets = Vec::new();
    for outcome in std::mem::take(&mut resolved.targets) {
        let mut stats_after = request.target.clone();
        apply_outcome(&mut stats_after, &outcome);
        targets.push(TargetReport {
            target_id: None,
            target_name: name_or(request.target_name.as_deref(), "target"),
            surprised: request.target_surprised,
            outcome,
            stats_after,
        });
    }
    Ok(AttackReport::new(resolved, None, name_or(request.attacker_name.as_deref(), "attacker"), targets))
}

/// The name a request gave, or `default` (blank counts as left out).
fn name_or(name: Option<&str>, default: &str) -> String {
    match name.map(str::trim) {
        Some(name) if !name.is_empty() => name.chars().take(MAX_NAME_CHARS).collect(),
        _ => default.to_string(),
    }
}

/// Longest inline name kept, in characters.
const MAX_NAME_CHARS: usize = 100;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100InlineDamage))]
#[serde(deny_unknown_fields)]
pub struct InlineDamage {
    pub target: Stats,
    /// Named in the report and its summary ("target" when left out).
    #[serde(default, rename = "target_name", alias = "name")]
    pub name: Option<String>,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::amount")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 10000))]
    pub amount: u32,
    /// Soak (TB + AP − penetration) is taken off `amount` first.
    #[serde(default)]
    pub apply_soak: bool,
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub penetration: u32,
}

/// The same damage as the stored command, on an inline stat block; nothing is stored.
pub fn damage_inline(request: InlineDamage, _dice: &mut Dice) -> Result<DamageReport, RuleError> {
    let (soak, wounds, notes) =
        apply(&request.target, request.amount, request.apply_soak, request.penetration, "target")?;
    let mut stats_after = request.target.clone();
    stats_after.set_wounds_left(wounds.after);
    Ok(DamageReport {
        combatant_id: None,
        name: name_or(request.name.as_deref(), "target"),
        amount: request.amount,
        soak,
        wounds,
        notes,
        stats_after,
    })
}
