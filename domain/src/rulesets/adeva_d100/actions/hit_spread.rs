//! How a Burst's or Flurry's hits may be spread over several targets (adeva-d100.txt, "Burst",
//! "Flurry").
//!
//! Decisions:
//! - Spreading hits: the first hit always lands on the declared target; the others may go to
//!   other targets. "Not harder to hit" compares the attack test's total modifier against each
//!   target (the caller sends it): another target's must be at least the declared target's.
//!   Burst: within 10 squares of the declared target. Flurry: within the attacker's reach.

use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// How far from the declared target a Burst's other hits may land (adeva-d100.txt, "Burst").
pub const BURST_SPREAD_SQUARES: u32 = 10;

/// Whether a Burst or a Flurry is being spread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Spread))]
#[serde(rename_all = "snake_case")]
pub enum Spread {
    Burst,
    Flurry,
}

/// Another target that should take some of the hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100OtherTarget))]
#[serde(deny_unknown_fields)]
pub struct OtherTarget {
    pub name: String,
    pub hits: u32,
    /// The attack test's total modifier were this the target.
    pub attack_modifier: i32,
    /// Burst: squares between this target and the declared one.
    #[serde(default)]
    pub squares_from_target: Option<u32>,
    /// Flurry: this target is within the attacker's reach.
    #[serde(default)]
    pub within_reach: Option<bool>,
}

/// How the caller wants to spread the hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100HitSpread))]
#[serde(deny_unknown_fields)]
pub struct HitSpread {
    pub target: String,
    /// The attack test's total modifier against the declared target.
    pub target_attack_modifier: i32,
    #[serde(default)]
    pub others: Vec<OtherTarget>,
}

/// Hits landing on one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TargetHits))]
pub struct TargetHits {
    pub target: String,
    pub hits: u32,
}

/// Spreads a Burst's or Flurry's hits: the declared target keeps the first and whatever is not
/// sent elsewhere; others must be near enough and no harder to hit (adeva-d100.txt, "Burst",
/// "Flurry"; see the decisions).
pub fn spread_hits(
    spread: Spread,
    hits_scored: u32,
    request: &HitSpread,
) -> Result<Vec<TargetHits>, RuleError> {
    let mut sent: u32 = 0;
    let mut others = Vec::new();
    for (index, other) in request.others.iter().enumerate() {
        let field = format!("others[{index}]");
        if other.name.trim().is_empty() {
            return Err(RuleError::invalid(format!("{field}.name"), "each other target needs a name"));
        }
        if other.hits == 0 {
            return Err(RuleError::invalid(
                format!("{field}.hits"),
                "send at least one hit or leave the target out",
            ));
        }
        if other.attack_modifier < request.target_attack_modifier {
            return Err(RuleError::invalid(
                format!("{field}.attack_modifier"),
                format!(
                    "{} is harder to hit ({:+}) than the declared target ({:+})",
                    other.name, other.attack_modifier, request.target_attack_modifier
                ),
            ));
        }
        match spread {
            Spread::Burst => match other.squares_from_target {
                None => {
                    return Err(RuleError::invalid(
                        format!("{field}.squares_from_target"),
                        "a Burst needs the distance",
                    ));
                }
                Some(squares) if squares > BURST_SPREAD_SQUARES => {
                    return Err(RuleError::invalid(
                        format!("{field}.squares_from_target"),
                        format!(
                            "a Burst's hits land within {BURST_SPREAD_SQUARES} squares of the declared target"
                        ),
                    ));
                }
                Some(_) => {}
            },
            Spread::Flurry => {
                if other.within_reach != Some(true) {
                    return Err(RuleError::invalid(
                        format!("{field}.within_reach"),
                        "a Flurry's hits land only within reach",
                    ));
                }
            }
        }
        sent = sent.saturating_add(other.hits);
        others.push(TargetHits { target: other.name.clone(), hits: other.hits });
    }
    if hits_scored == 0 {
        if request.others.is_empty() {
            return Ok(Vec::new());
        }
        return Err(RuleError::invalid("others", "no hits were scored"));
    }
    if sent > hits_scored - 1 {
        return Err(RuleError::invalid(
            "others",
            format!(
                "{sent} hits sent elsewhere, but only {} of {hits_scored} may leave the declared target",
                hits_scored - 1
            ),
        ));
    }
    let mut allocation = vec![TargetHits { target: request.target.clone(), hits: hits_scored - sent }];
    allocation.extend(others);
    Ok(allocation)
}
