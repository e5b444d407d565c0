use super::*;
use crate::rulesets::adeva_d100::evasion::EvasionKind;

fn c(value: i64) -> Characteristic {
    Characteristic::new(value).unwrap()
}

fn weapon(count: u32, sides: u32, bonus: i32, penetration: u32) -> Option<WeaponSpec> {
    Some(WeaponSpec { damage: DamageDice { count, sides, bonus }, penetration })
}

fn target(toughness_bonus: u32, armour: u32, wounds: u32) -> TargetSpec {
    TargetSpec {
        toughness_bonus,
        armour,
        wounds,
        fate_points: 0,
        surprised: false,
        altitude: AltitudeBand::Ground,
        evasion: None,
    }
}

fn spec(kind: AttackKind, characteristic: i64, target: TargetSpec) -> AttackSpec {
    AttackSpec {
        kind,
        characteristic: c(characteristic),
        modifiers: Vec::new(),
        max_hits: None,
        weapon: weapon(1, 10, 0, 0),
        strength_bonus: None,
        critical_confirm_modifiers: Vec::new(),
        lethal_damage_table: None,
        altitude: AltitudeBand::Ground,
        long_range_weapon: false,
        target,
    }
}

fn dodge(agility: i64) -> EvasionSpec {
    EvasionSpec {
        kind: EvasionKind::Dodge,
        characteristic: Some(c(agility)),
        modifiers: Vec::new(),
        deflector_strengths: Vec::new(),
        deflector_weakening: 0,
    }
}

fn resolve(spec: &AttackSpec, rolls: Vec<u32>) -> AttackResult {
    let mut dice = Dice::scripted(rolls, 0).unwrap();
    let result = resolve_attack(spec, &mut dice).unwrap();
    assert_eq!(result.dice.len(), dice.rolls().len(), "the result lists every die rolled");
    result
}

fn purposes(result: &AttackResult) -> Vec<&str> {
    result.dice.iter().map(|die| &*die.purpose).collect()
}

fn refused_field(spec: &AttackSpec) -> String {
    let mut dice = Dice::scripted(vec![], 0).unwrap();
    let result = resolve_attack(spec, &mut dice);
    assert!(dice.rolls().is_empty(), "a refused attack rolls nothing");
    match result {
        Err(RuleError::Invalid { field, .. }) => field,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_standard_melee_attack_runs_from_test_to_wounds() {
    // WS 45 + 10 (standard attack) = 55; d100 22 → 55 − 22 = 33 → 4 DoS, one hit.
    // Sword 1d10+2 Pen 1, SB 4: die 3; DoS 4 > 3 replaces it → 4; + 2 = 6; + 4 = 10.
    // Soak: TB 3 + (AP 4 − Pen 1 = 3) = 6 → 4 past soak; wounds 12 → 8.
    let mut attack = spec(AttackKind::Melee, 45, target(3, 4, 12));
    attack.modifiers.push(Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::AttackAction, "standard attack", 10));
    attack.weapon = weapon(1, 10, 2, 1);
    attack.strength_bonus = Some(4);
    let result = resolve(&attack, vec![22, 3]);
    assert_eq!((result.attack_test.test.target, result.attack_test.test.degrees), (55, 4));
    assert_eq!((result.hits_scored, result.hits_evaded, result.hits_landed), (1, 0, 1));
    let hit = &result.hits[0];
    let totals: Vec<_> = hit.damage.steps.iter().map(|step| step.total).collect();
    assert_eq!(totals, vec![3, 4, 6, 10]);
    assert_eq!((hit.damage.damage, hit.past_soak, hit.negated, hit.critical.is_none()), (10, 4, false, true));
    assert_eq!(result.soak.value, 6);
    assert_eq!(
        (result.wounds_before, result.wounds_lost, result.wounds_after, result.dead),
        (12, 4, 8, false)
    );
    assert_eq!(purposes(&result), ["attack test (WS)", "damage: hit 1"]);
}

#[test]
fn a_missed_attack_rolls_no_evasion_and_no_damage() {
    // 55 vs 80 → fails by 25 → 3 DoF; the dodge is not rolled.
    let mut attack = spec(AttackKind::Melee, 45, target(3, 0, 12));
    attack.modifiers.push(Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::AttackAction, "standard attack", 10));
    attack.target.evasion = Some(dodge(40));
    let result = resolve(&attack, vec![80]);
    assert_eq!((result.attack_test.test.passed, result.attack_test.test.degrees), (false, 3));
    assert_eq!((result.hits_scored, result.hits_landed, result.evasion.is_none()), (0, 0, true));
    assert_eq!(result.wounds_after, 12);
    assert_eq!(result.notes, ["no hits scored, so no evasion test was rolled"]);
    assert_eq!(purposes(&result), ["attack test (WS)"]);
}

#[test]
fn a_burst_scores_hits_by_degrees_and_a_dodge_cancels_some() {
    // BS 50 + 10 (burst) − 20 (4 hits declared) = 40; d100 8 → 32 → 4 DoS → 4 hits (of 4).
    // Dodge Ag 35: d100 24 → 11 → 2 DoS → 2 evaded, 2 land.
    // Soak TB 3 + AP 2 = 5. Hit 1: die 2, DoS 4 replaces → 4 < 5: negated, 0 wounds.
    // Hit 2: die 9 → 4 past soak; wounds 10 → 6.
    let mut attack = spec(AttackKind::Ranged, 50, target(3, 2, 10));
    attack.modifiers = vec![Modifier::new("burst", 10), Modifier::new("4 hits declared", -20)];
    attack.max_hits = Some(4);
    attack.target.evasion = Some(dodge(35));
    let result = resolve(&attack, vec![8, 24, 2, 9]);
    assert_eq!((result.hits_scored, result.hits_evaded, result.hits_landed), (4, 2, 2));
    let evasion = result.evasion.as_ref().unwrap();
    assert_eq!((evasion.kind, evasion.test.test.degrees), (EvasionKind::Dodge, 2));
    let first = &result.hits[0];
    assert_eq!((first.damage.damage, first.negated, first.wounds.lost), (4, true, 0));
    assert!(first.damage.dos_replacement.is_some());
    let second = &result.hits[1];
    assert_eq!((second.damage.damage, second.damage.dos_replacement, second.wounds.lost), (9, None, 4));
    assert_eq!((result.wounds_lost, result.wounds_after), (4, 6));
    assert_eq!(
        purposes(&result),
        ["attack test (BS)", "evasion: dodge test", "damage: hit 1", "damage: hit 2"]
    );
}

#[test]
fn a_critical_is_confirmed_on_the_unmodified_characteristic() {
    // BS 40 + 10 (aim) = 50; d100 35 → 15 → 2 DoS. 1d10 Pen 2 rolls 10: natural maximum; DoS 2
    // does not beat it. Soak TB 2 + (3 − 2) = 3 → 7 past soak.
    // Confirmation on 40 (the +10 aim left out): d100 45 fails. Wounds 10 → 3.
    let mut attack = spec(AttackKind::Ranged, 40, target(2, 3, 10));
    attack.modifiers.push(Modifier::new("aim", 10));
    attack.weapon = weapon(1, 10, 0, 2);
    let result = resolve(&attack, vec![35, 10, 45]);
    let critical = result.hits[0].critical.as_ref().unwrap();
    assert_eq!((critical.confirm.test.target, critical.confirmed), (40, false));
    assert_eq!((result.hits[0].wounds.lost, result.wounds_after), (7, 3));
    assert_eq!(purposes(&result), ["attack test (BS)", "damage: hit 1", "critical confirmation: hit 1"]);
}

#[test]
fn a_confirmed_critical_past_soak_rolls_the_lethal_damage_chart() {
    // As above, but the target is in Guard Mode: confirmation 40 − 20 = 20; d100 12 passes.
    // 7 past soak → chart 1d5 = 2 → "Bleeding". Wounds 10 − 7 = 3.
    let mut attack = spec(AttackKind::Ranged, 40, target(2, 3, 10));
    attack.modifiers.push(Modifier::new("aim", 10));
    attack.weapon = weapon(1, 10, 0, 2);
    attack.critical_confirm_modifiers.push(Modifier::new("target in Guard Mode", -20));
    let chart = ["Stunned", "Bleeding", "Knocked Down", "Maimed", "Crippled"];
    attack.lethal_damage_table = Some(chart.iter().map(|name| name.to_string()).collect());
    let result = resolve(&attack, vec![35, 10, 12, 2]);
    let critical = result.hits[0].critical.as_ref().unwrap();
    assert_eq!((critical.confirm.test.target, critical.confirmed), (20, true));
    let lethal = critical.lethal_damage_roll.as_ref().unwrap();
    assert_eq!((lethal.roll, lethal.effect.as_deref()), (2, Some("Bleeding")));
    assert_eq!((result.wounds_lost, result.wounds_after, result.lethal_damage), (7, 3, false));
    assert_eq!(purposes(&result)[3], "lethal damage chart: hit 1");
    assert!(result.notes.iter().any(|note| note.contains("does not count as taking Lethal Damage")));
}

#[test]
fn a_confirmed_critical_stopped_by_soak_still_deals_one_wound() {
    // WS 40; d100 38 → 1 DoS. 1d5 rolls 5 (natural maximum) = 5; soak TB 4 + AP 4 = 8: negated.
    // Confirmation d100 10 ≤ 40 → 1 wound; 10 → 9.
    let mut attack = spec(AttackKind::Melee, 40, target(4, 4, 10));
    attack.weapon = weapon(1, 5, 0, 0);
    let result = resolve(&attack, vec![38, 5, 10]);
    let hit = &result.hits[0];
    assert_eq!((hit.negated, hit.past_soak, hit.wounds.lost), (true, 0, 1));
    assert!(hit.critical.as_ref().unwrap().one_point_of_damage);
    assert_eq!(result.wounds_after, 9);
}

#[test]
fn surprise_and_altitude_join_the_attack_modifiers() {
    // Ground → Low, ranged, target surprised: BS 30 + 10 (standard) + 30 (surprised) − 20
    // (altitude) = 50; d100 50 → 1 DoS. 1d10 rolls 7; soak TB 2 → 5 past; 10 → 5.
    let mut attack = spec(AttackKind::Ranged, 30, target(2, 0, 10));
    attack.modifiers.push(Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::AttackAction, "standard attack", 10));
    attack.target.surprised = true;
    attack.target.altitude = AltitudeBand::Low;
    let result = resolve(&attack, vec![50, 7]);
    let reasons: Vec<_> = result.attack_test.modifiers.iter().map(|m| m.reason.as_str()).collect();
    assert_eq!(reasons, ["standard attack", "target is surprised", "attacking a flier from the Ground"]);
    assert_eq!((result.attack_test.test.target, result.attack_test.test.passed), (50, true));
    assert_eq!(result.wounds_after, 5);
}

#[test]
fn a_surprised_target_may_deflect_with_its_strongest_deflector() {
    // BS 40 + 30 (surprised) = 70; d100 20 → 6 DoS, one hit. Deflectors 40 and 60 → 60;
    // d100 45 → 15 → 2 DoS: the hit is deflected. No damage dice.
    let mut attack = spec(AttackKind::Ranged, 40, target(3, 0, 10));
    attack.target.surprised = true;
    attack.target.evasion = Some(EvasionSpec {
        kind: EvasionKind::Deflect,
        characteristic: None,
        modifiers: Vec::new(),
        deflector_strengths: vec![40, 60],
        deflector_weakening: 0,
    });
    let result = resolve(&attack, vec![20, 45]);
    assert_eq!((result.hits_scored, result.hits_evaded, result.hits_landed), (1, 1, 0));
    assert_eq!(result.evasion.as_ref().and_then(|e| e.deflector.as_ref()).map(|d| d.threshold), Some(60));
    assert_eq!(purposes(&result), ["attack test (BS)", "evasion: deflector test (strength 60)"]);
    assert_eq!(result.wounds_after, 10);
}

#[test]
fn every_landed_hit_is_resolved_even_after_death() {
    // Flurry: WS 50 + 10 − 15 = 45; d100 5 → 40 → 5 DoS → 3 hits (of 3). 1d10, SB 3; soak TB 3.
    // Hit 1: die 6 (DoS 5 does not beat it) + 3 = 9 → 6 past; wounds 6 → 0: dead.
    // Hit 2: 4 + 3 = 7 → 4 past (4 past zero). Hit 3: 1 + 3 = 4 → 1 past (1 past zero).
    let mut attack = spec(AttackKind::Melee, 50, target(3, 0, 6));
    attack.modifiers = vec![Modifier::new("flurry", 10), Modifier::new("3 hits declared", -15)];
    attack.max_hits = Some(3);
    attack.strength_bonus = Some(3);
    let result = resolve(&attack, vec![5, 6, 4, 1]);
    let lost: Vec<_> = result.hits.iter().map(|hit| hit.wounds.lost).collect();
    assert_eq!(lost, vec![6, 4, 1]);
    assert_eq!((result.wounds_lost, result.wounds_after, result.dead), (11, 0, true));
    assert_eq!((result.lethal_damage, result.damage_past_zero), (false, 5));
}

#[test]
fn a_character_with_fate_points_takes_lethal_damage_instead_of_dying() {
    // The same three hits against a target with 1 Fate Point: 0 wounds after hit 1 is not death;
    // hits 2 and 3 go 5 past zero → Lethal Damage.
    let mut attack = spec(AttackKind::Melee, 50, target(3, 0, 6));
    attack.modifiers = vec![Modifier::new("flurry", 10), Modifier::new("3 hits declared", -15)];
    attack.max_hits = Some(3);
    attack.strength_bonus = Some(3);
    attack.target.fate_points = 1;
    let result = resolve(&attack, vec![5, 6, 4, 1]);
    assert!(!result.hits[0].wounds.lethal_damage && result.hits[1].wounds.lethal_damage);
    assert_eq!((result.dead, result.lethal_damage, result.damage_past_zero), (false, true, 5));
    assert!(result.notes.iter().any(|note| note.contains("5 damage past 0 wounds")));
}

#[test]
fn an_unarmed_blow_is_1d5_minus_3_plus_sb_and_can_fatigue() {
    // WS 40; d100 30 → 2 DoS. 1d5 rolls 4 (DoS 2 does not beat it): 4 − 3 + SB 3 = 4 ≥ TB 3 →
    // fatigue. Soak TB 3 → 1 past; wounds 10 → 9.
    let mut attack = spec(AttackKind::Unarmed, 40, target(3, 0, 10));
    attack.weapon = None;
    attack.strength_bonus = Some(3);
    let result = resolve(&attack, vec![30, 4]);
    let hit = &result.hits[0];
    assert_eq!((hit.damage.damage, hit.fatigue, hit.wounds.lost), (4, true, 1));
    assert_eq!((result.fatigue_levels, result.wounds_after, result.soak.penetration), (1, 9, 0));
    assert_eq!(result.qualities, ["Unarmed", "Primitive"]);
}

#[test]
fn attacks_the_rules_forbid_are_refused_before_any_die() {
    let base = spec(AttackKind::Melee, 40, target(3, 0, 10));

    let mut low_flier = base.clone();
    low_flier.target.altitude = AltitudeBand::Low;
    assert_eq!(refused_field(&low_flier), "target.altitude");

    let mut dodging_surprised = base.clone();
    dodging_surprised.target.surprised = true;
    dodging_surprised.target.evasion = Some(dodge(40));
    assert_eq!(refused_field(&dodging_surprised), "target.evasion.kind");

    let mut unarmed_without_sb = base.clone();
    unarmed_without_sb.kind = AttackKind::Unarmed;
    unarmed_without_sb.weapon = None;
    assert_eq!(refused_field(&unarmed_without_sb), "strength_bonus");

    let mut no_weapon = base.clone();
    no_weapon.weapon = None;
    assert_eq!(refused_field(&no_weapon), "weapon");
}

type Change = Box<dyn Fn(&mut AttackSpec)>;

#[test]
fn out_of_bounds_inputs_are_refused_by_path() {
    let base = spec(AttackKind::Ranged, 40, target(3, 0, 10));
    let cases: Vec<(&str, Change)> = vec![
        ("weapon.damage.sides", Box::new(|s| s.weapon = weapon(1, 1, 0, 0))),
        ("weapon.penetration", Box::new(|s| s.weapon = weapon(1, 10, 0, 101))),
        ("max_hits", Box::new(|s| s.max_hits = Some(0))),
        ("modifiers", Box::new(|s| s.modifiers = vec![Modifier::new("m", 1); MAX_ATTACK_MODIFIERS + 1])),
        ("modifiers[0].value", Box::new(|s| s.modifiers = vec![Modifier::new("m", 101)])),
        (
            "critical_confirm_modifiers[0].reason",
            Box::new(|s| s.critical_confirm_modifiers = vec![Modifier::new("", 1)]),
        ),
        ("lethal_damage_table", Box::new(|s| s.lethal_damage_table = Some(vec!["a".into(); 4]))),
        ("strength_bonus", Box::new(|s| s.strength_bonus = Some(31))),
        ("target.toughness_bonus", Box::new(|s| s.target.toughness_bonus = 31)),
        ("target.armour", Box::new(|s| s.target.armour = 101)),
        ("target.wounds", Box::new(|s| s.target.wounds = 0)),
        ("target.fate_points", Box::new(|s| s.target.fate_points = 101)),
    ];
    for (field, change) in cases {
        let mut attack = base.clone();
        change(&mut attack);
        assert_eq!(refused_field(&attack), field, "{field}");
    }
}

#[test]
fn a_spec_reads_from_json_with_defaults_and_refuses_unknown_fields() {
    let json = r#"{
        "kind": "melee",
        "characteristic": 45,
        "modifiers": [{"code": "attack_action", "reason": "standard attack", "value": 10}],
        "weapon": {"damage": {"count": 1, "sides": 10, "bonus": 2}, "penetration": 1},
        "strength_bonus": 4,
        "target": {"toughness_bonus": 3, "armour": 4, "wounds": 12,
                   "evasion": {"kind": "parry", "characteristic": 38}}
    }"#;
    let parsed: AttackSpec = serde_json::from_str(json).unwrap();
    assert_eq!(
        (parsed.kind, parsed.altitude, parsed.target.fate_points),
        (AttackKind::Melee, AltitudeBand::Ground, 0)
    );
    assert_eq!(parsed.target.evasion.as_ref().map(|e| e.kind), Some(EvasionKind::Parry));
    let unknown = json.replacen("\"kind\": \"melee\",", "\"kind\": \"melee\", \"surprise\": true,", 1);
    assert!(serde_json::from_str::<AttackSpec>(&unknown).is_err());

    // Attack 55 vs d100 22 → 4 DoS; parry (WS 38) d100 50 fails; die 3 → DoS 4, + 2 + SB 4 = 10;
    // soak 3 + (4 − 1) = 6 → 4 past; wounds 12 → 8.
    let result = resolve(&parsed, vec![22, 50, 3]);
    let written = serde_json::to_value(&result).unwrap();
    assert_eq!(written["hits_landed"], 1);
    assert_eq!(written["evasion"]["kind"], "parry");
    assert_eq!(written["wounds_after"], 8);
}
