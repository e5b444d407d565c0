//! The stateless twin of an attack: stat blocks sent inline, nothing stored (cepheus-engine.txt,
//! the same sections as `attack.rs`). It answers with the same [`AttackReport`] as the stored
//! attack; the damage twin lives beside the stored damage in `damage.rs`.
//!
//! Decisions:
//! - The attacker's stance and aim, and the target's stance, come in the request (defaults:
//!   standing, no aim). The attacker's fatigue still counts (it is on the stat block); any other
//!   penalty of its own goes in `extra_modifiers`.
//! - Names come from `attacker_name` / `target_name` (1 to 100 characters), default "attacker"
//!   and "target". The report has no ids, no action economy and no suppression put on anyone.
//! - A reaction is applied to the roll only; the reacting target's −2 Initiative and −1 DM are the
//!   caller's to track (a note says so). A prone target still cannot dodge.
//! - A coup de grâce needs `target_helpless: true` or a target that is already unconscious.
//! - Suppression, a stray shot and a vehicle's hits are reported in `outcome` and put on nothing.
//!   Blind fire's pick is reported; the damage is put on `target` whatever the pick, so
//!   `target_hit.stats_after` shows what the hit does to this target.

use super::super::Stats;
use super::super::allocation::{allocate_damage, apply};
use super::super::attack::resolve_attack;
use super::super::stance::Stance;
use super::apply::inline_hit;
use super::super::vehicle_location::LocationRoll;
use super::super::vehicle_track::track_with_locations;
use super::vehicle_occupants::NamedOccupants;
use super::super::modifier::Reason;
use super::attack::AttackReport;
use super::attack_build::{Sides, client_field};
use super::request::{Reaction, attack_request_struct};
use crate::dice::Dice;
use crate::encounter::MAX_NAME_LEN;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::Deserialize;

/// Minor actions spent aiming (or aiming for the kill): 0 to 6.
pub type AimActions = Score<0, 6>;

attack_request_struct! {
    /// POST /v1/rulesets/cepheus-engine/attacks: an attack between inline stat blocks.
    #[derive(Debug, Clone, PartialEq, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineInlineAttack))]
    #[serde(deny_unknown_fields)]
    pub struct InlineAttack {
        pub attacker: Stats,
        pub target: Stats,
        /// The attacker's name in the report (default "attacker").
        #[serde(default)]
        pub attacker_name: Option<String>,
        /// The target's name in the report (default "target").
        #[serde(default)]
        pub target_name: Option<String>,
        #[serde(default)]
        pub attacker_stance: Stance,
        #[serde(default)]
        pub target_stance: Stance,
        /// Minor actions the attacker spent aiming at this target (0–6).
        #[serde(default)]
        pub aim: AimActions,
        /// Minor actions spent aiming for the kill (0–6).
        #[serde(default)]
        pub aim_for_kill: AimActions,
    }
}

/// A name sent by the client (moved, not copied), or the default (no allocation).
fn owned_name_or(name: Option<String>, default: &'static str, field: &str) -> Result<Reason, RuleError> {
    match name {
        None => Ok(Reason::Borrowed(default)),
        Some(name) => {
            check_name(&name, field)?;
            Ok(Reason::Owned(name))
        }
    }
}

/// A name sent by the client, or the default.
pub(crate) fn name_or(name: Option<&str>, default: &str, field: &str) -> Result<String, RuleError> {
    let Some(name) = name else { return Ok(default.to_string()) };
    check_name(name, field)?;
    Ok(name.to_string())
}

/// A name has 1 to `MAX_NAME_LEN` characters, not all blank.
fn check_name(name: &str, field: &str) -> Result<(), RuleError> {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME_LEN {
        return Err(RuleError::invalid(field, format!("a name has 1 to {MAX_NAME_LEN} characters")));
    }
    Ok(())
}

fn check_reaction(request: &InlineAttack, helpless: bool) -> Result<(), RuleError> {
    if matches!(request.reaction, Reaction::Dodge | Reaction::DodgeBehindObstruction)
        && request.target_stance == Stance::Prone
    {
        return Err(RuleError::invalid("reaction", "a prone target cannot dodge"));
    }
    if request.reaction != Reaction::None && (request.coup_de_grace || helpless) {
        return Err(RuleError::invalid("reaction", "a helpless target cannot react"));
    }
    Ok(())
}

/// Resolves an attack between inline stat blocks (see the module decisions).
pub fn attack_inline(mut request: InlineAttack, dice: &mut Dice) -> Result<AttackReport, RuleError> {
    let attacker_name = owned_name_or(request.attacker_name.take(), "attacker", "attacker_name")?;
    let target_name = owned_name_or(request.target_name.take(), "target", "target_name")?;
    let fields = request.attack_fields();
    let helpless = request.target_helpless || !request.target.status().can_act();
    check_reaction(&request, helpless)?;
    let (aim, aim_for_kill) = (request.aim.get().unsigned_abs() as u8, request.aim_for_kill.get().unsigned_abs() as u8);
    let sides = Sides {
        attacker: &request.attacker,
        target: &request.target,
        attacker_stance: request.attacker_stance,
        target_stance: request.target_stance,
        aim,
        aim_for_kill,
        own_modifiers: request.attacker.check_dm_penalties(),
        target_helpless: helpless,
        stored: false,
    };
    let built = fields.build(&sides)?;
    let to_client = |error: RuleError| client_field(error, built.range_field, false);
    // `resolve_attack` validates the request before it rolls anything.
    let outcome = resolve_attack(&built.request, dice).map_err(to_client)?;
    let mut target = request.target;
    let mut notes = Vec::new();
    if request.reaction != Reaction::None {
        notes.push("the target reacted: its −2 Initiative and −1 DM this round are yours to track".into());
    }
    let mut target_hit = None;
    let mut tracked_vehicle = None;
    if outcome.coup_de_grace {
        let allocation = super::super::allocation::kill(&mut target)?;
        target_hit = Some(inline_hit(&target_name, allocation, target));
    } else if let Some(damage) = outcome.damage.as_ref().filter(|_| outcome.hit) {
        if let Some(mut vehicle) = target.vehicle.clone() {
            let rolled: Vec<LocationRoll> = outcome.vehicle.as_ref().map_or_else(Vec::new, |hits| {
                hits.hits.iter().map(|hit| LocationRoll { roll: hit.roll, location: hit.location }).collect()
            });
            let mut armour = target.armour.get();
            tracked_vehicle = Some(track_with_locations(
                &mut vehicle,
                &mut armour,
                damage.after_armour,
                Some(&rolled),
                &mut NamedOccupants,
                dice,
            )?);
        } else if request.target_is_vehicle || request.hit_location_table.is_some() {
            notes.push("vehicle damage is reported (hits and locations), not put on characteristics".into());
        } else {
            let placed = allocate_damage(&target, damage.after_armour, &fields.choice())?;
            apply(&mut target, &placed)?;
            target_hit = Some(inline_hit(&target_name, placed, target));
        }
    }
    if outcome.suppression.is_some() {
        notes.push(
            "suppression: the target's Initiative penalty and −1 DM (this round and next) are yours to track"
                .into(),
        );
    }
    Ok(AttackReport {
        attacker_id: None,
        attacker_name,
        target_id: None,
        target_name,
        skill: built.skill,
        skill_level: built.skill_level,
        range_band: built.range_band,
        reaction: request.reaction,
        blast_response: request.blast_response,
        aim_used: aim,
        aim_for_kill_used: aim_for_kill,
        damage: outcome.damage.clone(),
        outcome,
        target_hit,
        tracked_vehicle,
        suppression: None,
        stray_shot: None,
        economy: None,
        notes,
    })
}
