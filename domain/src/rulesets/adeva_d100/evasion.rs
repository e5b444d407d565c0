//! The target's one evasion against an attack: dodge, parry, point defence or a Deflector
//! (adeva-d100.txt, "Attacking", Step Four; "Deflectors"; "Combat Structure", Step Two).
//!
//! Decisions:
//! - A passed evasion test cancels one hit per Degree of Success; a single-hit attack is evaded by
//!   any pass. A failed test cancels nothing.
//! - One evasion per attack: the input holds exactly one choice (or none).
//! - Dodge, parry and point defence are Reactions: the tested characteristic (Agility, Weapon
//!   Skill, …) and its modifiers come from the caller, who also tracks whether a Reaction is left.
//!   A surprised target takes no Reactions, so those three are refused against it.
//! - Deflecting is a free action with no limit, so it needs no Reaction and a surprised target may
//!   still deflect: the shields repel attacks automatically.
//! - Several Deflectors: only the strongest counts. A weakening effect lowers every source by the
//!   same amount, so it is taken off the strongest (never below 0). Strengths run 0..=200 and at
//!   most 20 sources are accepted. Modifiers (e.g. a Heavy Attack's −30 to evasion) apply to a
//!   Deflector test as to any other evasion.
//! - Which evasions suit which attacks (no parrying a Grapple or a Ram) is for the Action List.

use super::Characteristic;
use super::test_modifiers::{Modifier, check_modifiers};
use super::test_roll::{MAX_THRESHOLD, ModifiedTest, TestResult, modified_test, threshold_test};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Most Deflector sources one character may list.
pub const MAX_DEFLECTORS: usize = 20;

/// The four ways to evade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100EvasionKind))]
#[serde(rename_all = "snake_case")]
pub enum EvasionKind {
    Dodge,
    Parry,
    PointDefence,
    Deflect,
}

impl EvasionKind {
    /// Dodge, parry and point defence use a Reaction; deflecting is a free action.
    pub fn is_reaction(self) -> bool {
        self != EvasionKind::Deflect
    }

    fn label(self) -> &'static str {
        match self {
            EvasionKind::Dodge => "dodge",
            EvasionKind::Parry => "parry",
            EvasionKind::PointDefence => "point defence",
            EvasionKind::Deflect => "deflector",
        }
    }
}

/// The target's evasion choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100EvasionSpec))]
#[serde(deny_unknown_fields)]
pub struct EvasionSpec {
    pub kind: EvasionKind,
    /// Dodge, parry, point defence: the characteristic tested. Refused for a Deflect.
    #[serde(default)]
    pub characteristic: Option<Characteristic>,
    #[serde(default)]
    pub modifiers: Vec<Modifier>,
    /// Deflect: every source's strength; only the strongest is used.
    #[serde(default)]
    pub deflector_strengths: Vec<u32>,
    /// Deflect: how much an effect weakens every Deflector.
    #[serde(default)]
    pub deflector_weakening: u32,
}

/// The Deflector tested against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DeflectorChoice))]
pub struct DeflectorChoice {
    pub strengths: Vec<u32>,
    pub strongest: u32,
    pub weakening: u32,
    /// Strongest minus weakening, not below 0: the test's threshold before modifiers.
    pub threshold: u32,
}

/// The strongest Deflector, weakened (adeva-d100.txt, "Deflectors": the rest are ignored, and a
/// weakening hits every source alike).
pub fn strongest_deflector(strengths: &[u32], weakening: u32) -> Result<DeflectorChoice, RuleError> {
    let limit = MAX_THRESHOLD as u32;
    if strengths.len() > MAX_DEFLECTORS {
        return Err(RuleError::invalid("deflector_strengths", "at most 20 Deflectors may be listed"));
    }
    if let Some(index) = strengths.iter().position(|strength| *strength > limit) {
        return Err(RuleError::invalid(
            format!("deflector_strengths[{index}]"),
            "a Deflector's strength must lie between 0 and 200",
        ));
    }
    let Some(strongest) = strengths.iter().copied().max() else {
        return Err(RuleError::invalid(
            "deflector_strengths",
            "a Deflect needs at least one Deflector's strength",
        ));
    };
    if weakening > limit {
        return Err(RuleError::invalid("deflector_weakening", "a weakening must lie between 0 and 200"));
    }
    let threshold = strongest.saturating_sub(weakening);
    Ok(DeflectorChoice { strengths: strengths.to_vec(), strongest, weakening, threshold })
}

/// Refuses an evasion the rules do not allow: a Reaction by a surprised target, a Deflect without
/// Deflectors, a dodge without a characteristic (adeva-d100.txt, "Combat Structure", Step Two;
/// "Deflectors"). Fields are relative to the evasion object.
pub fn check_evasion(spec: &EvasionSpec, target_surprised: bool) -> Result<(), RuleError> {
    check_modifiers("modifiers", &spec.modifiers)?;
    if spec.kind == EvasionKind::Deflect {
        if spec.characteristic.is_some() {
            return Err(RuleError::invalid(
                "characteristic",
                "a Deflect tests the Deflector's strength, not a characteristic",
            ));
        }
        return strongest_deflector(&spec.deflector_strengths, spec.deflector_weakening).map(|_| ());
    }
    if target_surprised {
        return Err(RuleError::invalid(
            "kind",
            "a surprised character may take no Reactions: only a Deflector (a free action) can evade",
        ));
    }
    if spec.characteristic.is_none() {
        return Err(RuleError::invalid(
            "characteristic",
            "a dodge, parry or point defence tests a characteristic",
        ));
    }
    if !spec.deflector_strengths.is_empty() || spec.deflector_weakening != 0 {
        return Err(RuleError::invalid(
            "deflector_strengths",
            "only a Deflect uses Deflectors; one evasion per attack",
        ));
    }
    Ok(())
}

/// Hits before and after the evasion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100EvasionOutcome))]
pub struct EvasionOutcome {
    pub hits_before: u32,
    pub evaded: u32,
    pub hits_left: u32,
}

/// Each Degree of Success of a passed evasion cancels one hit (adeva-d100.txt, "Attacking", Step
/// Four; "Deflectors").
pub fn evade(hits: u32, evasion: Option<&TestResult>) -> EvasionOutcome {
    let evaded = evasion.map_or(0, |test| test.degrees_of_success().min(hits));
    EvasionOutcome { hits_before: hits, evaded, hits_left: hits - evaded }
}

/// The evasion test rolled and its effect on the hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100EvasionResult))]
pub struct EvasionResult {
    pub kind: EvasionKind,
    pub deflector: Option<DeflectorChoice>,
    pub test: ModifiedTest,
    pub outcome: EvasionOutcome,
}

/// Checks and rolls the target's evasion against `hits` hits (adeva-d100.txt, "Attacking", Step
/// Four; "Deflectors").
pub fn roll_evasion(
    spec: &EvasionSpec,
    target_surprised: bool,
    hits: u32,
    dice: &mut Dice,
) -> Result<EvasionResult, RuleError> {
    check_evasion(spec, target_surprised)?;
    let (deflector, test) = match spec.characteristic {
        Some(characteristic) => {
            let purpose = format!("evasion: {} test", spec.kind.label());
            (None, modified_test(characteristic, &spec.modifiers, dice, &purpose)?)
        }
        None => {
            let choice = strongest_deflector(&spec.deflector_strengths, spec.deflector_weakening)?;
            let purpose = format!("evasion: deflector test (strength {})", choice.threshold);
            let test = threshold_test(choice.threshold as i32, &spec.modifiers, dice, &purpose)?;
            (Some(choice), test)
        }
    };
    let outcome = evade(hits, Some(&test.test));
    Ok(EvasionResult { kind: spec.kind, deflector, test, outcome })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::adeva_d100::test_roll::judge;

    fn dodge(agility: i64) -> EvasionSpec {
        EvasionSpec {
            kind: EvasionKind::Dodge,
            characteristic: Some(Characteristic::new(agility).unwrap()),
            modifiers: Vec::new(),
            deflector_strengths: Vec::new(),
            deflector_weakening: 0,
        }
    }

    fn deflect(strengths: Vec<u32>, weakening: u32) -> EvasionSpec {
        EvasionSpec {
            kind: EvasionKind::Deflect,
            characteristic: None,
            modifiers: Vec::new(),
            deflector_strengths: strengths,
            deflector_weakening: weakening,
        }
    }

    fn field_of(result: Result<(), RuleError>) -> String {
        match result {
            Err(RuleError::Invalid { field, .. }) => field,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn each_degree_of_success_cancels_one_hit() {
        // 40 − 18 = 22 → 3 DoS against 4 hits: 3 evaded, 1 left.
        assert_eq!(
            evade(4, Some(&judge(40, 18))),
            EvasionOutcome { hits_before: 4, evaded: 3, hits_left: 1 }
        );
        // 3 DoS against 1 hit: that hit is evaded, no more.
        assert_eq!(evade(1, Some(&judge(40, 18))).evaded, 1);
        // A failure (55 > 40) or no evasion cancels nothing.
        assert_eq!(evade(2, Some(&judge(40, 55))).hits_left, 2);
        assert_eq!(evade(2, None).hits_left, 2);
    }

    #[test]
    fn only_the_strongest_deflector_counts_and_weakening_comes_off_it() {
        // max(30, 50, 40) = 50; weakened by 15 → 35.
        let choice = strongest_deflector(&[30, 50, 40], 15).unwrap();
        assert_eq!((choice.strongest, choice.threshold), (50, 35));
        // Weakened past zero → 0.
        assert_eq!(strongest_deflector(&[20], 30).unwrap().threshold, 0);
    }

    #[test]
    fn a_deflector_test_uses_the_strength_as_its_threshold() {
        // Strongest 50 − 10 weakening = 40; roll 12 → 40 − 12 = 28 → 3 DoS; 2 hits both deflected.
        let mut dice = Dice::scripted(vec![12], 0).unwrap();
        let result = roll_evasion(&deflect(vec![50, 30], 10), false, 2, &mut dice).unwrap();
        assert_eq!((result.test.test.target, result.test.test.degrees), (40, 3));
        assert_eq!(result.outcome, EvasionOutcome { hits_before: 2, evaded: 2, hits_left: 0 });
        assert_eq!(dice.rolls()[0].purpose, "evasion: deflector test (strength 40)");
    }

    #[test]
    fn a_dodge_tests_the_characteristic_with_its_modifiers() {
        // Ag 42 − 30 (after a Heavy Attack) = 12; roll 9 → 1 DoS; 3 hits → 1 evaded.
        let mut spec = dodge(42);
        spec.modifiers.push(Modifier::new("made a Heavy Attack", -30));
        let mut dice = Dice::scripted(vec![9], 0).unwrap();
        let result = roll_evasion(&spec, false, 3, &mut dice).unwrap();
        assert_eq!(result.test.test.target, 12);
        assert_eq!((result.outcome.evaded, result.outcome.hits_left), (1, 2));
        assert_eq!(dice.rolls()[0].purpose, "evasion: dodge test");
    }

    #[test]
    fn a_surprised_target_may_deflect_but_not_dodge() {
        assert_eq!(field_of(check_evasion(&dodge(40), true)), "kind");
        assert!(check_evasion(&deflect(vec![50], 0), true).is_ok());
    }

    #[test]
    fn mixed_or_missing_evasion_inputs_are_refused() {
        let mut no_characteristic = dodge(40);
        no_characteristic.characteristic = None;
        assert_eq!(field_of(check_evasion(&no_characteristic, false)), "characteristic");
        let mut both = dodge(40);
        both.deflector_strengths.push(50);
        assert_eq!(field_of(check_evasion(&both, false)), "deflector_strengths");
        let mut deflect_with_characteristic = deflect(vec![50], 0);
        deflect_with_characteristic.characteristic = Characteristic::new(40).ok();
        assert_eq!(field_of(check_evasion(&deflect_with_characteristic, false)), "characteristic");
        assert_eq!(field_of(check_evasion(&deflect(vec![], 0), false)), "deflector_strengths");
        assert_eq!(field_of(check_evasion(&deflect(vec![50, 201], 0), false)), "deflector_strengths[1]");
        assert_eq!(field_of(check_evasion(&deflect(vec![50], 201), false)), "deflector_weakening");
    }
}
