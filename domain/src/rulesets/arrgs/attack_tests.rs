use super::*;
use crate::rulesets::arrgs::modifier::ModifierCode;

fn line(base: Option<i32>, bonus: i32, dc: i32) -> AttackLine {
    AttackLine {
        kind: CheckKind::Melee,
        modifiers: vec![Modifier::new(ModifierCode::Skill, bonus, "skill")],
        magnitude: None,
        base,
        dc,
        critical_from: 20,
        spell_difficulty: None,
        chain: base.is_some(),
    }
}

fn roll(line: &AttackLine, values: Vec<u32>) -> AttackRoll {
    roll_attack(line, &mut Dice::scripted(values, 0).unwrap(), "attack").unwrap()
}

#[test]
fn success_value_is_base_damage_plus_the_margin() {
    // "Attacks": base 6, d20 12 + 5 = 17 against DC 14 → 6 + 3 = 9.
    let result = roll(&line(Some(6), 5, 14), vec![12]);
    assert_eq!((result.success_value, result.failure), (Some(9), None));
    // Under the DC by 2 with base 8: 8 − 2 = 6, still a success (decision: the Success Value decides).
    let under = roll(&line(Some(8), 5, 14), vec![7]);
    assert_eq!((under.success_value, under.succeeded()), (Some(6), true));
}

#[test]
fn a_success_value_of_zero_or_less_fails() {
    // base 3, d20 4 + 5 = 9 vs 14 → 3 − 5 = −2: failed.
    let result = roll(&line(Some(3), 5, 14), vec![4]);
    assert_eq!(result.failure, Some(Failure::SuccessValue { success_value: -2 }));
    // base 3, d20 6 + 5 = 11 vs 14 → 0: failed too.
    assert!(!roll(&line(Some(3), 5, 14), vec![6]).succeeded());
}

#[test]
fn criticals_roll_again_against_the_same_dc_and_add_the_success_value() {
    // "Criticals", Critical Range 19–20: 19 + 5 = 24 vs 14 → 6 + 10 = 16; 20 + 5 = 25 → +17;
    // 7 + 5 = 12 → 6 − 2 = 4 → +4; 7 is outside the range: total 37, a critical hit.
    let mut crit = line(Some(6), 5, 14);
    crit.critical_from = 19;
    let result = roll(&crit, vec![19, 20, 7]);
    let values: Vec<_> = result.checks.iter().map(|c| c.success_value).collect();
    assert_eq!(values, [Some(16), Some(17), Some(4)]);
    assert_eq!((result.success_value, result.critical_hit), (Some(37), true));
}

#[test]
fn a_critical_re_roll_below_zero_adds_nothing() {
    // 20 vs DC 20 with base 2 → 2; re-roll 1 → 2 + (1 − 20) = −17: added as 0. Total 2.
    let result = roll(&line(Some(2), 0, 20), vec![20, 1]);
    assert_eq!((result.success_value, result.checks.len(), result.critical_hit), (Some(2), 2, true));
}

#[test]
fn a_natural_one_always_fails() {
    // "Attack Manoeuvre": against no defence (DC 0) only a natural 1 fails, and a natural 1 is
    // "always a fail": d20 1 + 20 = 21 against DC 14 with base 6 would be 13, yet it fails.
    let willing = line(Some(0), 0, 0);
    assert_eq!(roll(&willing, vec![1]).failure, Some(Failure::NaturalOne));
    assert_eq!(roll(&willing, vec![2]).success_value, Some(2));
    let strong = line(Some(6), 20, 14);
    assert_eq!(roll(&strong, vec![1]).failure, Some(Failure::NaturalOne));
    assert_eq!(roll(&strong, vec![2]).success_value, Some(14));
    // Pass/fail (Trip): 1 + 20 = 21 ≥ 15 still fails.
    assert_eq!(roll(&line(None, 20, 15), vec![1]).failure, Some(Failure::NaturalOne));
}

#[test]
fn a_critical_re_roll_of_a_natural_one_adds_nothing() {
    // "Criticals": 20 + 20 = 40 vs 14, base 6 → 32; the re-roll 1 + 20 = 21 would add 13, but a
    // natural 1 is always a fail: total 32.
    let result = roll(&line(Some(6), 20, 14), vec![20, 1]);
    assert_eq!((result.success_value, result.checks.len()), (Some(32), 2));
}

#[test]
fn a_spell_under_its_base_difficulty_fails() {
    // 10 + spell level 3 = 13: d20 8 + 4 = 12 fails even against a willing target.
    let mut spell = line(Some(5), 4, 0);
    spell.kind = CheckKind::Spell;
    spell.spell_difficulty = Some(13);
    assert_eq!(roll(&spell, vec![8]).failure, Some(Failure::SpellDifficulty { difficulty: 13 }));
    assert!(roll(&spell, vec![9]).succeeded());
}

#[test]
fn pass_fail_attacks_need_the_dc_and_make_no_chain() {
    let trip = line(None, 3, 15);
    assert_eq!(roll(&trip, vec![11]).failure, Some(Failure::BelowDc));
    let hit = roll(&trip, vec![20]);
    assert!(hit.succeeded());
    assert_eq!(hit.checks.len(), 1);
}

#[test]
fn range_costs_two_per_increment_beyond_the_first() {
    // "Range Increment": increment 3 at 10 squares → −6; 1–3 none; 4–6 −2.
    assert_eq!((range_penalty(10, 3), range_penalty(3, 3), range_penalty(4, 3), range_penalty(0, 3)), (-6, 0, -2, 0));
}
