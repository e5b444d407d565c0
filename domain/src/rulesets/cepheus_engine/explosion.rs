//! Reacting to a blast (cepheus-engine.txt, "Explosions"; "Stance" and "Reactions" for who may
//! react).
//!
//! Decisions:
//! - The damage given is the blast's damage to this character before armour; the response
//!   changes it and armour is subtracted afterwards (by the caller, or by `resolve_attack` for the
//!   target a thrown explosive hits).
//! - Dodging subtracts 1D6 and never takes the damage below 0.
//! - Diving for cover halves the damage, rounding up, the same way the text rounds the other
//!   halving of damage ("Extreme Range Firing"): 7 → 4.
//! - Both are reactions (`reaction_taken: true`), so the usual −2 Initiative and −1 DM to checks
//!   until the next round fall on the character; the encounter layer applies them. A dive also
//!   leaves the character prone and costs their next significant action; both are reported.
//! - A prone character cannot dodge ("Stance"), and diving is a way of dodging, so a prone
//!   character may do neither. Occupants of a closed vehicle cannot react to their vehicle
//!   exploding ("Structure" in "Vehicle Damage"); the caller sends `none` for them.
//! - Damage above 10,000 is refused (field `damage_before`), as is negative damage.

use super::stance::Stance;
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Largest blast damage accepted.
pub const MAX_BLAST_DAMAGE: i32 = 10_000;

/// What a character caught in a blast does about it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineExplosionResponse))]
#[serde(rename_all = "snake_case")]
pub enum ExplosionResponse {
    #[default]
    None,
    /// −1D6 damage.
    Dodge,
    /// Half damage; ends prone and loses the next significant action.
    Dive,
}

/// One character caught in a blast, as a client describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineExplosionRequest))]
#[serde(deny_unknown_fields)]
pub struct ExplosionRequest {
    /// The blast's damage to this character, before armour.
    pub damage_before: i32,
    #[serde(default)]
    pub response: ExplosionResponse,
    #[serde(default)]
    pub stance: Stance,
}

/// What the response did to the damage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineExplosionOutcome))]
pub struct ExplosionOutcome {
    pub damage_before: i32,
    pub response: ExplosionResponse,
    /// The 1D6 of a dodge.
    pub reduction_roll: Option<u32>,
    /// Points taken off by the response.
    pub reduction: i32,
    /// Damage still to be reduced by armour.
    pub damage_after: i32,
    pub reaction_taken: bool,
    pub ends_prone: bool,
    pub loses_next_significant_action: bool,
    pub explanation: String,
}

/// Checks the character may react, then applies [`resolve_explosion_exposure`]
/// (cepheus-engine.txt, "Explosions" and "Stance").
pub fn resolve_explosion(request: &ExplosionRequest, dice: &mut Dice) -> Result<ExplosionOutcome, RuleError> {
    check_can_react("response", request.response, request.stance)?;
    resolve_explosion_exposure(request.damage_before, request.response, dice)
}

/// Refuses a dodge or dive from a prone character (cepheus-engine.txt, "Stance").
pub fn check_can_react(field: &str, response: ExplosionResponse, stance: Stance) -> Result<(), RuleError> {
    if response != ExplosionResponse::None && stance == Stance::Prone {
        return Err(RuleError::invalid(field, "a prone character cannot dodge or dive away from a blast"));
    }
    Ok(())
}

/// A blast's damage after the character's response: unchanged, −1D6 for a dodge (not below 0),
/// or halved rounding up for a dive, which also leaves them prone and costs their next
/// significant action (cepheus-engine.txt, "Explosions").
pub fn resolve_explosion_exposure(
    damage_before: i32,
    response: ExplosionResponse,
    dice: &mut Dice,
) -> Result<ExplosionOutcome, RuleError> {
    if !(0..=MAX_BLAST_DAMAGE).contains(&damage_before) {
        return Err(RuleError::invalid("damage_before", "blast damage must be between 0 and 10000"));
    }
    let mut outcome = ExplosionOutcome {
        damage_before,
        response,
        reduction_roll: None,
        reduction: 0,
        damage_after: damage_before,
        reaction_taken: response != ExplosionResponse::None,
        ends_prone: response == ExplosionResponse::Dive,
        loses_next_significant_action: response == ExplosionResponse::Dive,
        explanation: format!("no reaction: {damage_before} damage"),
    };
    match response {
        ExplosionResponse::None => {}
        ExplosionResponse::Dodge => {
            let roll = dice.roll(6, "explosion: dodge (−1D6 damage)")?;
            outcome.reduction_roll = Some(roll);
            outcome.damage_after = (damage_before - roll as i32).max(0);
            outcome.explanation =
                format!("dodged: {damage_before} − 1D6 ({roll}) = {}, not below 0", outcome.damage_after);
        }
        ExplosionResponse::Dive => {
            outcome.damage_after = damage_before - damage_before / 2;
            outcome.explanation = format!(
                "dived for cover: half of {damage_before}, rounded up = {}; now prone, next significant action lost",
                outcome.damage_after
            );
        }
    }
    outcome.reduction = damage_before - outcome.damage_after;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_response_leaves_the_damage() {
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let outcome = resolve_explosion_exposure(9, ExplosionResponse::None, &mut dice).unwrap();
        assert_eq!((outcome.damage_after, outcome.reduction, outcome.reaction_taken), (9, 0, false));
        assert!(dice.rolls().is_empty());
    }

    #[test]
    fn a_dodge_takes_off_one_die() {
        // 11 − 4 = 7.
        let mut dice = Dice::scripted(vec![4], 0).unwrap();
        let outcome = resolve_explosion_exposure(11, ExplosionResponse::Dodge, &mut dice).unwrap();
        assert_eq!(outcome.reduction_roll, Some(4));
        assert_eq!((outcome.damage_after, outcome.reduction), (7, 4));
        assert!(outcome.reaction_taken && !outcome.ends_prone && !outcome.loses_next_significant_action);
    }

    #[test]
    fn a_dodge_never_goes_below_zero() {
        // 3 − 6 = −3 → 0; the reduction is the 3 points actually removed.
        let mut dice = Dice::scripted(vec![6], 0).unwrap();
        let outcome = resolve_explosion_exposure(3, ExplosionResponse::Dodge, &mut dice).unwrap();
        assert_eq!((outcome.damage_after, outcome.reduction), (0, 3));
    }

    #[test]
    fn a_dive_halves_rounding_up_and_costs_the_next_action() {
        // 7 → 7 − 3 = 4 (3.5 rounded up); 10 → 5.
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let outcome = resolve_explosion_exposure(7, ExplosionResponse::Dive, &mut dice).unwrap();
        assert_eq!((outcome.damage_after, outcome.reduction), (4, 3));
        assert!(outcome.reaction_taken && outcome.ends_prone && outcome.loses_next_significant_action);
        assert_eq!(
            resolve_explosion_exposure(10, ExplosionResponse::Dive, &mut dice).unwrap().damage_after,
            5
        );
        assert!(dice.rolls().is_empty());
    }

    #[test]
    fn prone_characters_cannot_react_and_bad_damage_is_refused() {
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let request =
            ExplosionRequest { damage_before: 8, response: ExplosionResponse::Dive, stance: Stance::Prone };
        let err = resolve_explosion(&request, &mut dice).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "response"));
        let err = resolve_explosion_exposure(-1, ExplosionResponse::None, &mut dice).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "damage_before"));
    }
}
