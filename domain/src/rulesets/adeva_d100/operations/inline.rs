//! Stateless twins: stat blocks inline, nothing stored (same rules as the stored commands).

use super::super::Stats;
use super::super::actions::declared::DeclaredAction;
use super::super::altitude::AltitudeAccess;
use super::super::damage::DamageDice;
use super::super::test_modifiers::Modifier;
use super::super::test_roll::ModifiedTest;
use super::super::wounds::{Soak, WoundsLoss};
use super::core::{AttackInput, AttackerSide, EvasionChoice, TargetOutcome, TargetSide, resolve};
use super::damage_op::apply;
use crate::dice::{Dice, DieRoll};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100InlineAttack))]
#[serde(deny_unknown_fields)]
pub struct InlineAttack {
    pub attacker: Stats,
    pub target: Stats,
    pub action: DeclaredAction,
    /// Left out for an unarmed attack.
    #[serde(default)]
    pub damage: Option<DamageDice>,
    #[serde(default)]
    pub penetration: u32,
    #[serde(default)]
    pub evasion: EvasionChoice,
    #[serde(default)]
    pub evasion_modifiers: Vec<Modifier>,
    #[serde(default)]
    pub modifiers: Vec<Modifier>,
    #[serde(default)]
    pub target_surprised: bool,
    #[serde(default)]
    pub long_range_weapon: bool,
    /// An unarmed attack: 1d5 − 3 + SB, no penetration (adeva-d100.txt, "Unarmed Attacks"); a
    /// weapon named "unarmed" counts too.
    #[serde(default)]
    pub unarmed: bool,
    #[serde(default)]
    pub lethal_damage_table: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100InlineAttackReport))]
pub struct InlineAttackReport {
    pub action: String,
    pub altitude: AltitudeAccess,
    pub attack_test: ModifiedTest,
    pub hits_scored: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub jammed: bool,
    pub target: TargetOutcome,
    pub notes: Vec<String>,
    pub dice: Vec<DieRoll>,
}

pub fn attack_inline(request: InlineAttack, dice: &mut Dice) -> Result<InlineAttackReport, RuleError> {
    let side = TargetSide {
        field: "target".into(),
        stats: &request.target,
        surprised: request.target_surprised,
        evasion: request.evasion,
        evasion_field: "evasion".into(),
        evasion_modifiers: request.evasion_modifiers.clone(),
        own_evasion: None,
        attacks_against: None,
        hits_wanted: None,
        reaction_spent: false,
        feinted: false,
        squares_from_target: None,
        within_reach: None,
        attack_modifier: 0,
    };
    let input = AttackInput {
        action: &request.action,
        damage: request.damage,
        penetration: request.penetration,
        modifiers: &request.modifiers,
        long_range_weapon: request.long_range_weapon,
        unarmed: request.unarmed || super::core::named_unarmed(&request.action),
        lethal_damage_table: request.lethal_damage_table.as_deref(),
    };
    let attacker = AttackerSide { stats: &request.attacker, aim: None };
    let mut resolved = resolve(&attacker, std::slice::from_ref(&side), &input, dice)?;
    Ok(InlineAttackReport {
        action: resolved.spec.name(),
        altitude: resolved.altitude,
        attack_test: resolved.attack_test,
        hits_scored: resolved.hits_scored,
        jammed: resolved.jammed,
        target: resolved.targets.remove(0),
        notes: resolved.notes,
        dice: resolved.dice,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100InlineDamage))]
#[serde(deny_unknown_fields)]
pub struct InlineDamage {
    pub target: Stats,
    pub amount: u32,
    #[serde(default)]
    pub soak: bool,
    #[serde(default)]
    pub penetration: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100InlineDamageReport))]
pub struct InlineDamageReport {
    pub soak: Option<Soak>,
    pub wounds: WoundsLoss,
    pub dead: bool,
    pub notes: Vec<String>,
}

pub fn damage_inline(request: InlineDamage, _dice: &mut Dice) -> Result<InlineDamageReport, RuleError> {
    let (soak, wounds, notes) =
        apply(&request.target, request.amount, request.soak, request.penetration, "target")?;
    Ok(InlineDamageReport { dead: wounds.dead, soak, wounds, notes })
}
