//! The stateless twins: an attack or damage between stat blocks sent inline; nothing is stored
//! (cepheus-engine.txt, the same sections as `attack_op.rs` and `damage_op.rs`).
//!
//! Decisions:
//! - The attacker's stance and aim, and the target's stance, come in the request (defaults:
//!   standing, no aim). The attacker's fatigue still counts (it is on the stat block); any other
//!   penalty of its own goes in `extra_modifiers`.
//! - A reaction is applied to the roll only; the reacting target's −2 Initiative and −1 DM are the
//!   caller's to track (a note says so). A prone target still cannot dodge.
//! - A coup de grâce needs `target_helpless: true` or a target that is already unconscious.
//! - Suppression, a stray shot and a vehicle's hits are reported in `outcome` and put on nothing.
//!   Blind fire's pick is reported; the damage is put on `target` whatever the pick, so
//!   `target_after` shows what the hit does to this target.

use super::super::Stats;
use super::super::allocation::{Allocation, AllocationChoice, Overflow, Split, allocate_damage, apply};
use super::super::attack::{AttackOutcome, resolve_attack};
use super::super::attack_request::validate_request;
use super::super::range::RangeBand;
use super::super::stance::Stance;
use super::damage_op::{check_numbers, through_armour};
use super::request::{Reaction, Sides, attack_request_struct, client_field};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

attack_request_struct! {
    /// POST /v1/rulesets/cepheus-engine/attacks: an attack between inline stat blocks.
    #[derive(Debug, Clone, PartialEq, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineInlineAttack))]
    #[serde(deny_unknown_fields)]
    pub struct InlineAttack {
        pub attacker: Stats,
        pub target: Stats,
        #[serde(default)]
        pub attacker_stance: Stance,
        #[serde(default)]
        pub target_stance: Stance,
        /// Minor actions the attacker spent aiming at this target (0–6).
        #[serde(default)]
        pub aim: u8,
        /// Minor actions spent aiming for the kill (0–6).
        #[serde(default)]
        pub aim_for_kill: u8,
    }
}

/// The attack and what it did to the target's stat block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineInlineAttackReport))]
pub struct InlineAttackReport {
    pub skill: String,
    pub skill_level: Option<i32>,
    pub range_band: RangeBand,
    pub reaction: Reaction,
    pub outcome: AttackOutcome,
    /// Where the hit's points went (`None` when nothing was put on the target).
    pub allocation: Option<Allocation>,
    pub target_after: Stats,
    pub notes: Vec<String>,
}

/// POST /v1/rulesets/cepheus-engine/damage: damage on an inline stat block.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineInlineDamage))]
#[serde(deny_unknown_fields)]
pub struct InlineDamage {
    pub target: Stats,
    pub damage: i32,
    #[serde(default)]
    pub armour: bool,
    #[serde(default)]
    pub effect: Option<i32>,
    #[serde(default)]
    pub overflow_to: Option<Overflow>,
    #[serde(default)]
    pub allocation: Option<Split>,
}

/// What the damage did to the stat block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineInlineDamageReport))]
pub struct InlineDamageReport {
    pub damage: i32,
    pub armour: u32,
    pub after_armour: i32,
    pub minimum_one_applied: bool,
    pub allocation: Allocation,
    pub target_after: Stats,
}

/// Resolves an attack between inline stat blocks (see the module decisions).
pub fn attack_inline(request: InlineAttack, dice: &mut Dice) -> Result<InlineAttackReport, RuleError> {
    let fields = request.attack_fields();
    let helpless = request.target_helpless || !request.target.status().can_act();
    if matches!(request.reaction, Reaction::Dodge | Reaction::DodgeBehindObstruction)
        && request.target_stance == Stance::Prone
    {
        return Err(RuleError::invalid("reaction", "a prone target cannot dodge"));
    }
    if request.reaction != Reaction::None && (request.coup_de_grace || helpless) {
        return Err(RuleError::invalid("reaction", "a helpless target cannot react"));
    }
    let sides = Sides {
        attacker: &request.attacker,
        target: &request.target,
        attacker_stance: request.attacker_stance,
        target_stance: request.target_stance,
        aim: request.aim,
        aim_for_kill: request.aim_for_kill,
        own_modifiers: request.attacker.check_dm_penalties(),
        target_helpless: helpless,
        stored: false,
    };
    let built = fields.build(&sides)?;
    let to_client = |error: RuleError| client_field(error, built.range_field, false);
    validate_request(&built.request).map_err(to_client)?;
    let outcome = resolve_attack(&built.request, dice).map_err(to_client)?;
    let mut target = request.target.clone();
    let mut notes = Vec::new();
    if request.reaction != Reaction::None {
        notes.push("the target reacted: its −2 Initiative and −1 DM this round are yours to track".into());
    }
    let mut allocation = None;
    if outcome.coup_de_grace {
        allocation = Some(super::super::allocation::kill(&mut target)?);
    } else if let Some(damage) = outcome.damage.as_ref().filter(|_| outcome.hit) {
        if request.target_is_vehicle || request.hit_location_table.is_some() {
            notes.push("vehicle damage is reported (hits and locations), not put on characteristics".into());
        } else {
            let placed = allocate_damage(&target, damage.after_armour, &fields.choice())?;
            apply(&mut target, &placed)?;
            allocation = Some(placed);
        }
    }
    if outcome.suppression.is_some() {
        notes.push(
            "suppression: the target's Initiative penalty and −1 DM (this round and next) are yours to track"
                .into(),
        );
    }
    Ok(InlineAttackReport {
        skill: built.skill,
        skill_level: built.skill_level,
        range_band: built.range_band,
        reaction: request.reaction,
        outcome,
        allocation,
        target_after: target,
        notes,
    })
}

/// Applies damage to an inline stat block (cepheus-engine.txt, "Damage", "Armor").
pub fn damage_inline(request: InlineDamage, _dice: &mut Dice) -> Result<InlineDamageReport, RuleError> {
    check_numbers(request.damage, request.armour, request.effect).map_err(|error| match error {
        crate::encounter::EncounterError::Invalid { field, message } => RuleError::invalid(field, message),
        other => RuleError::invalid("damage", other.to_string()),
    })?;
    let armour = if request.armour { u32::try_from(request.target.armour.get()).unwrap_or(0) } else { 0 };
    let (after_armour, minimum_one_applied) =
        through_armour(request.damage, armour, request.effect.unwrap_or(0));
    let choice = AllocationChoice { overflow_to: request.overflow_to, allocation: request.allocation };
    let mut target = request.target;
    let allocation = allocate_damage(&target, after_armour, &choice)?;
    apply(&mut target, &allocation)?;
    Ok(InlineDamageReport {
        damage: request.damage,
        armour,
        after_armour,
        minimum_one_applied,
        allocation,
        target_after: target,
    })
}
