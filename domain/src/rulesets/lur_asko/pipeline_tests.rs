//! The damage pipeline against hand-worked cases from lur-asko.txt.

use super::outcome::{
    CriticalEffect, Defense, Element, EnergyEffect, Outcome, Portion, ShieldResult, StepCode,
};
use super::pipeline::{Attack, CriticalChoice, DefenseInput, Resolution, Target, resolve};
use super::shielding::{Pool, Situation};
use super::state::Precision;
use super::stats::{EnergyType, Stats};
use super::weapon::{Reduction, Weapon};
use crate::dice::{Dice, DiceExpr};
use serde_json::{Value, json};

pub(super) fn stats(value: Value) -> Stats {
    serde_json::from_value(value).expect("stats")
}

pub(super) fn weapon(value: Value) -> Weapon {
    serde_json::from_value(value).expect("weapon")
}

pub(super) fn pool(name: &str, precision: Precision, points: u32, techshield: bool) -> Pool {
    Pool { owner: "Ward".into(), name: name.into(), precision, points, techshield }
}

struct Case {
    weapons: Vec<Weapon>,
    reduction: Reduction,
    strength_withheld: bool,
    situation: Situation,
    critical_choice: CriticalChoice,
    stats: Stats,
    damage_taken: u32,
    pools: Vec<Pool>,
}

impl Case {
    fn new(weapons: Vec<Weapon>, stats: Stats) -> Self {
        Self {
            weapons,
            reduction: Reduction::None,
            strength_withheld: false,
            situation: Situation::default(),
            critical_choice: CriticalChoice::Drive,
            stats,
            damage_taken: 0,
            pools: Vec::new(),
        }
    }

    fn run(&mut self, defense: DefenseInput<'_>, rolls: Vec<u32>) -> Resolution {
        let attack = Attack {
            attacker: "Raider",
            weapons: &self.weapons,
            reduction: self.reduction,
            strength_withheld: self.strength_withheld,
            situation: self.situation,
            injury_type: "Limb",
            critical_choice: &self.critical_choice,
        };
        let target = Target {
            name: "Ward",
            stats: &self.stats,
            injury_factor: self.stats.injury_factor("stats").expect("factor"),
            damage_taken: self.damage_taken,
        };
        let mut dice = Dice::scripted(rolls, 0).expect("dice");
        resolve(attack, target, defense, &mut self.pools, &mut dice).expect("resolves")
    }

    /// A hit called out by the GM (no roll, not critical).
    fn hit(&mut self) -> Resolution {
        self.run(DefenseInput::Called { critical: false }, vec![])
    }
}

fn d100() -> DiceExpr {
    "1d100".parse().expect("expr")
}

fn hit_of(resolution: &Resolution) -> &super::outcome::Hit {
    match &resolution.outcome {
        Outcome::Hit { hit, .. } => hit,
        other => panic!("expected a hit, got {other:?}"),
    }
}

fn portion(resolution: &Resolution, element: Element) -> &Portion {
    resolution.portions.iter().find(|p| p.element == element).expect("portion")
}

fn codes(portion: &Portion) -> Vec<StepCode> {
    portion.steps.iter().map(|step| step.code).collect()
}

#[test]
fn seventeen_at_drive_twenty_inside_sixteen_to_twenty_eight_is_eight() {
    // Damage, Drive, & Armor Ranges: 17 (20 drive) against 16-28: drive inside the range, 50 %,
    // rounded down: 8.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Axe", "delivery": "melee", "damage": 17, "drive": 20}))],
        stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28}})),
    );
    let resolution = case.hit();
    assert_eq!(portion(&resolution, Element::Normal).damage, 8);
    assert_eq!(hit_of(&resolution).injury.degrees, 0, "8 crosses no multiple of 10");
}

#[test]
fn drive_below_the_range_is_stopped_and_above_it_passes_in_full() {
    // Damage, Drive, & Armor Ranges: below 16 no damage, above 28 full; 16 and 28 are inside.
    for (drive, expected) in [(15, 0), (16, 8), (28, 8), (29, 17)] {
        let mut case = Case::new(
            vec![weapon(json!({"name": "Axe", "delivery": "melee", "damage": 17, "drive": drive}))],
            stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28}})),
        );
        assert_eq!(case.hit().portions[0].damage, expected, "drive {drive}");
    }
}

#[test]
fn thirty_two_at_fifteen_drive_carries_eight_heat_at_its_drive() {
    // Combined Energy/Normal Damage: 32 (15 drive) + 8 heat: both portions use drive 15. Against
    // 10-20 both are halved: 16 + 4 = 20 damage; injury factor 10: 2 degrees; heat 4 / 10 = 0
    // degrees, so no ignition.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Blade", "delivery": "melee", "damage": 32, "drive": 15,
            "energy": {"type": "heat", "damage": 8}}))],
        stats(json!({"injury_factor": 10, "armour": {"low": 10, "high": 20}})),
    );
    let resolution = case.hit();
    let heat = portion(&resolution, Element::Heat);
    assert_eq!((heat.drive, heat.damage), (15, 4));
    assert_eq!(portion(&resolution, Element::Normal).damage, 16);
    let hit = hit_of(&resolution);
    assert_eq!((hit.injury.damage, hit.injury.degrees), (20, 2));
    assert!(hit.effects.is_empty());
}

#[test]
fn twenty_four_heat_keeps_its_own_drive_of_twenty_four() {
    // Combined Energy/Normal Damage: 32 (15 drive) + 24 heat: 32 at drive 15, 24 at drive 24.
    // Against 16-28: the normal 32 at 15 is stopped; the heat 24 at 24 is halved to 12. Injury
    // factor 10: 1 degree, all of it heat (12 / 10 = 1): ignited.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Blade", "delivery": "melee", "damage": 32, "drive": 15,
            "energy": {"type": "heat", "damage": 24}}))],
        stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28}})),
    );
    let resolution = case.hit();
    let heat = portion(&resolution, Element::Heat);
    assert_eq!((heat.drive, heat.damage), (24, 12));
    assert_eq!(portion(&resolution, Element::Normal).damage, 0);
    let hit = hit_of(&resolution);
    assert_eq!(hit.injury.degrees, 1);
    assert_eq!(hit.effects, vec![EnergyEffect::Ignited { degrees: 1 }]);
}

#[test]
fn an_elf_with_fifty_percent_frost_resistance_takes_thirty_seven_of_a_hundred() {
    // Damage Resistances and Weaknesses: elves take 75 % from frost, Energy Affinity another 50 %,
    // applied one after the other: 100 → 75 → 37 (37 %). Injury factor 20: 1 degree, frost
    // 37 / 20 = 1 degree: 25 fatigue.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Frost bolt", "delivery": "ranged", "energy": {"type": "frost", "damage": 100}}),
        )],
        stats(json!({"injury_factor": 20, "resistances": [
            {"source": "elf", "against": {"energy": "frost"}, "percent": 75},
            {"source": "Energy Affinity", "against": {"energy": "frost"}, "percent": 50}]})),
    );
    let resolution = case.hit();
    let frost = portion(&resolution, Element::Frost);
    let after: Vec<u32> =
        frost.steps.iter().filter(|s| s.code == StepCode::Resistance).map(|s| s.damage).collect();
    assert_eq!(after, vec![75, 37]);
    assert_eq!(frost.drive, 100, "a resistance never changes the drive");
    assert_eq!(hit_of(&resolution).effects, vec![EnergyEffect::Fatigue { degrees: 1, fatigue: 25 }]);
}

#[test]
fn fifty_shielding_points_against_forty_leave_ten() {
    // Energy Shielding: 50 points shield a 40-damage energy attack: 40 spent, 10 left, 0 damage.
    // Medium precision before the roll: nothing left, the attack is stopped.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Beam", "delivery": "ranged", "energy": {"type": "particle", "damage": 40}}),
        )],
        stats(json!({"injury_factor": 10})),
    );
    case.pools = vec![pool("Ward shield", Precision::Medium, 50, false)];
    let resolution = case.run(
        DefenseInput::Roll { tn: 14, dice: &d100(), tn_per_hindrance: 0, critical_possible: true },
        vec![],
    );
    assert_eq!(resolution.outcome, Outcome::StoppedByShielding);
    assert!(matches!(resolution.defense, Defense::NotRolled { .. }));
    assert_eq!(case.pools[0].points, 10);
    assert!(matches!(
        resolution.shielding[0].result,
        ShieldResult::Applied {
            points_before: 50,
            points_used: 40,
            points_after: 10,
            damage_before: 40,
            damage_after: 0,
            ..
        }
    ));
}

#[test]
fn short_points_shield_partially_and_lower_the_drive_before_the_roll() {
    // Energy Shielding: 30 points against 40: all 30 spent, 10 damage at drive 10 goes on to the
    // defense roll; armour 16-28 then stops drive 10.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Beam", "delivery": "ranged", "energy": {"type": "particle", "damage": 40}}),
        )],
        stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28}})),
    );
    case.pools = vec![pool("Dome", Precision::Low, 30, false)];
    let resolution = case.run(
        DefenseInput::Roll { tn: 14, dice: &d100(), tn_per_hindrance: 0, critical_possible: true },
        vec![20],
    );
    let beam = portion(&resolution, Element::Particle);
    let shielded = beam.steps.iter().find(|s| s.code == StepCode::LowShielding).expect("shielded");
    assert_eq!((shielded.damage, shielded.drive), (10, 10));
    assert_eq!(beam.damage, 0);
    assert_eq!(case.pools[0].points, 0);
}

#[test]
fn shields_go_low_then_medium_then_high_and_one_source_after_another() {
    // Energy Shielding: low (10) then two medium (5, then 20) before the roll; 60 → 50 → 45 →
    // 25 at drive 25. Roll 40 against TN 14 fails by 26: a critical hit, +10 drive: 35.
    // Armour 16-28: drive 35 is above, full 25. High (8 points) after drive: 25 → 17, drive stays
    // 35. Weakness 150 % to electric: 17 → 25. Injury factor 10: 2 degrees, electric 25 / 10 = 2:
    // stunned until the end of the Raider's next turn.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Arc gun", "delivery": "ranged", "energy": {"type": "electric", "damage": 60}}),
        )],
        stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28},
            "resistances": [{"source": "construct", "against": {"energy": "electric"}, "percent": 150}]})),
    );
    case.pools = vec![
        pool("Skin", Precision::High, 8, false),
        pool("Veil", Precision::Medium, 5, false),
        pool("Dome", Precision::Low, 10, false),
        pool("Cloak", Precision::Medium, 20, true),
    ];
    let resolution = case.run(
        DefenseInput::Roll { tn: 14, dice: &d100(), tn_per_hindrance: 0, critical_possible: true },
        vec![40],
    );
    let arc = portion(&resolution, Element::Electric);
    let trail: Vec<(StepCode, u32, u32)> = arc.steps.iter().map(|s| (s.code, s.damage, s.drive)).collect();
    assert_eq!(
        trail,
        vec![
            (StepCode::Base, 60, 60),
            (StepCode::LowShielding, 50, 50),
            (StepCode::MediumShielding, 45, 45),
            (StepCode::MediumShielding, 25, 25),
            (StepCode::CriticalDrive, 25, 35),
            (StepCode::Armour, 25, 35),
            (StepCode::HighShielding, 17, 35),
            (StepCode::Weakness, 25, 35),
        ]
    );
    let names: Vec<&str> = resolution.shielding.iter().map(|u| u.shield.as_str()).collect();
    assert_eq!(names, vec!["Dome", "Veil", "Cloak", "Skin"]);
    let hit = hit_of(&resolution);
    assert_eq!(hit.injury.degrees, 2);
    assert_eq!(
        hit.effects,
        vec![EnergyEffect::Stunned { energy: EnergyType::Electric, degrees: 2, attacker: "Raider".into() }]
    );
}

#[test]
fn high_precision_shields_what_armour_left_and_never_lowers_drive() {
    // Energy Shielding, High precision: after the hit and after drive. 24 heat at drive 24 is
    // within 16-28: armour halves it to 12; the high shield spends 12 of 20 points: 8 left, and
    // the drive stays 24.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Torch", "delivery": "melee", "energy": {"type": "heat", "damage": 24}}))],
        stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28}})),
    );
    case.pools = vec![pool("Skin", Precision::High, 20, false)];
    let resolution = case.hit();
    let heat = portion(&resolution, Element::Heat);
    assert_eq!((heat.damage, heat.drive), (0, 24));
    assert_eq!(case.pools[0].points, 8);
}

#[test]
fn low_precision_refuses_an_engaged_attacker_and_says_why() {
    // Energy Shielding, Low precision: not from within engagement range. The beam goes through.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Beam", "delivery": "ranged", "energy": {"type": "particle", "damage": 40}}),
        )],
        stats(json!({"injury_factor": 10})),
    );
    case.situation.engaged = true;
    case.pools = vec![pool("Dome", Precision::Low, 50, false)];
    let resolution = case.hit();
    assert_eq!(case.pools[0].points, 50);
    let ShieldResult::NotApplicable { reason } = &resolution.shielding[0].result else { panic!("applied") };
    assert!(reason.contains("engagement range"), "{reason}");
    assert_eq!(portion(&resolution, Element::Particle).damage, 40);
}

#[test]
fn combined_weapons_bypass_low_and_medium_but_not_high() {
    // Energy Shielding: a weapon combining normal and energy damage cannot be shielded at low
    // precision; projectiles with added energy bypass medium; high opposes all energy.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Shock round", "delivery": "ranged", "damage": 20, "drive": 30,
            "energy": {"type": "electric", "damage": 10}}))],
        stats(json!({"injury_factor": 10})),
    );
    case.pools = vec![
        pool("Dome", Precision::Low, 50, false),
        pool("Veil", Precision::Medium, 50, false),
        pool("Skin", Precision::High, 4, false),
    ];
    let resolution = case.hit();
    let refused: Vec<bool> =
        resolution.shielding.iter().map(|u| matches!(u.result, ShieldResult::NotApplicable { .. })).collect();
    assert_eq!(refused, vec![true, true, false]);
    // Normal drive 30 > energy 10: the electric rides at 30; no armour; high shield 4 → 6 left.
    let electric = portion(&resolution, Element::Electric);
    assert_eq!((electric.damage, electric.drive), (6, 30));
}

#[test]
fn medium_precision_takes_a_non_impact_blast_but_not_impact_or_a_grappler() {
    // Energy Shielding, Medium precision / Shielding AoEs: non-impact explosive blast may be
    // shielded; impact damage may not; nor attacks from a character the target grapples with.
    let grenade = |impact: bool| {
        weapon(json!({"name": "Grenade", "delivery": "explosive", "damage": 10, "drive": 12,
            "energy": {"type": "blast", "damage": 30}, "impact": impact}))
    };
    let run = |impact: bool, grappling: bool| {
        let mut case = Case::new(vec![grenade(impact)], stats(json!({"injury_factor": 100})));
        case.situation.grappling = grappling;
        case.pools = vec![pool("Veil", Precision::Medium, 100, false)];
        let resolution = case.hit();
        (case.pools[0].points, portion(&resolution, Element::Blast).damage)
    };
    assert_eq!(run(false, false), (70, 0), "area blast is shielded");
    assert_eq!(run(true, false), (100, 30), "impact blast is not");
    assert_eq!(run(false, true), (100, 30), "a grappler's blast is not");
}

#[test]
fn a_techshield_negates_two_blast_per_point() {
    // Energy Damage: techshields are doubly effective against blast. 30 blast against a 10-point
    // techshield: 20 negated for 10 points, 10 left at drive 10.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Blast rifle", "delivery": "ranged", "energy": {"type": "blast", "damage": 30}}),
        )],
        stats(json!({"injury_factor": 100})),
    );
    case.pools = vec![pool("Projector", Precision::Medium, 10, true)];
    let resolution = case.hit();
    assert!(matches!(
        resolution.shielding[0].result,
        ShieldResult::Applied { points_used: 10, damage_after: 10, blast_doubled: true, .. }
    ));
    let blast = portion(&resolution, Element::Blast);
    assert_eq!((blast.damage, blast.drive), (10, 10));
}

#[test]
fn failing_the_defense_by_twenty_is_critical_and_by_nineteen_is_not() {
    // Critical Hits: TN 14: 34 or more is a critical hit; 33 a plain hit; 14 defends.
    let cases = [(14, "defended"), (15, "hit"), (33, "hit"), (34, "critical")];
    for (roll, expected) in cases {
        let mut case = Case::new(
            vec![weapon(json!({"name": "Axe", "delivery": "melee", "damage": 17, "drive": 20}))],
            stats(json!({"injury_factor": 10})),
        );
        let resolution = case.run(
            DefenseInput::Roll { tn: 14, dice: &d100(), tn_per_hindrance: 0, critical_possible: true },
            vec![roll],
        );
        let got = match &resolution.outcome {
            Outcome::Defended => "defended",
            Outcome::Hit { critical: Some(_), .. } => "critical",
            Outcome::Hit { critical: None, .. } => "hit",
            Outcome::StoppedByShielding => "stopped",
        };
        assert_eq!(got, expected, "roll {roll}");
    }
}

#[test]
fn a_critical_adds_ten_drive_to_both_portions_and_twenty_to_a_precise_melee_weapon() {
    // Critical Hits: +10 drive to every weapon, +20 for a Precise melee weapon; Combined: both
    // normal and energy drive rise. Rapier 10 (drive 20, Precise) + 8 frost; pistol 10 (drive 5).
    // Roll 40 vs TN 14: critical. Rapier: normal 20 → 40, frost 8 → 28, then normal 40 > 28:
    // frost rides at 40. Pistol: 5 → 15.
    let mut case = Case::new(
        vec![
            weapon(json!({"name": "Rapier", "delivery": "melee", "damage": 10, "drive": 20, "precise": true,
                "energy": {"type": "frost", "damage": 8}})),
            weapon(json!({"name": "Pistol", "delivery": "ranged", "damage": 10, "drive": 5})),
        ],
        stats(json!({"injury_factor": 10})),
    );
    let resolution = case.run(
        DefenseInput::Roll { tn: 14, dice: &d100(), tn_per_hindrance: 0, critical_possible: true },
        vec![40],
    );
    let drives: Vec<(String, Element, u32)> =
        resolution.portions.iter().map(|p| (p.weapon.clone(), p.element, p.drive)).collect();
    assert_eq!(
        drives,
        vec![
            ("Rapier".into(), Element::Normal, 40),
            ("Rapier".into(), Element::Frost, 40),
            ("Pistol".into(), Element::Normal, 15)
        ]
    );
    let Outcome::Hit { critical: Some(CriticalEffect::Drive { bonuses }), .. } = &resolution.outcome else {
        panic!()
    };
    assert_eq!(bonuses.iter().map(|b| b.bonus).collect::<Vec<_>>(), vec![20, 10]);
}

#[test]
fn a_critical_may_name_the_injury_type_instead() {
    // Critical Hits: the attacker picks the injury type (Perception is the usual choice).
    let mut case = Case::new(
        vec![weapon(json!({"name": "Axe", "delivery": "melee", "damage": 17, "drive": 20}))],
        stats(json!({"injury_factor": 10})),
    );
    case.critical_choice = CriticalChoice::InjuryType { injury_type: "Perception".into() };
    let resolution = case.run(DefenseInput::Undefended { critical_possible: true }, vec![]);
    let hit = hit_of(&resolution);
    assert_eq!(hit.injury.injury_type, "Perception");
    assert_eq!(portion(&resolution, Element::Normal).drive, 20, "no drive bonus with this choice");
}

#[test]
fn degrees_count_multiples_of_the_injury_factor_crossed() {
    // Damage, Drive, & Armor Ranges: 25 damage on a character at 18 with injury factor 10 goes
    // 18 → 43: crosses 20, 30, 40: 3 degrees, all of the rolled type.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Axe", "delivery": "melee", "damage": 25, "drive": 20}))],
        stats(json!({"injury_factor": 10})),
    );
    case.damage_taken = 18;
    let resolution = case.hit();
    let injury = &hit_of(&resolution).injury;
    assert_eq!((injury.damage_before, injury.damage_after, injury.degrees), (18, 43, 3));
    assert_eq!(injury.injury_type, "Limb");
}

#[test]
fn electric_is_not_halved_by_metallic_armour_though_the_normal_part_is() {
    // Energy Damage, Electric / Combined: 20 (drive 20) + 10 electric against metallic 16-28:
    // normal halved to 10, electric (drive 20 from the normal portion) stays 10.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Shock mace", "delivery": "melee", "damage": 20, "drive": 20,
            "energy": {"type": "electric", "damage": 10}}))],
        stats(json!({"injury_factor": 100, "armour": {"low": 16, "high": 28, "metallic": true}})),
    );
    let resolution = case.hit();
    assert_eq!(portion(&resolution, Element::Normal).damage, 10);
    assert_eq!(portion(&resolution, Element::Electric).damage, 10);
}

#[test]
fn electric_below_a_metallic_range_is_still_stopped() {
    // Energy Damage, Electric: drive below the range is still blocked entirely.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Zap", "delivery": "ranged", "energy": {"type": "electric", "damage": 12}}),
        )],
        stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28, "metallic": true}})),
    );
    assert_eq!(case.hit().portions[0].damage, 0);
}

#[test]
fn particle_injury_owes_a_war_fever_roll_with_a_hindrance_per_two_degrees_beyond_one() {
    // Energy Damage, Particle: 1 degree → roll, 0 Hindrance; 3 → 1; 5 → 2; 4 → 1.
    for (damage, hindrance) in [(10, 0), (30, 1), (40, 1), (50, 2)] {
        let mut case = Case::new(
            vec![weapon(
                json!({"name": "Beam", "delivery": "ranged", "energy": {"type": "particle", "damage": damage}}),
            )],
            stats(json!({"injury_factor": 10})),
        );
        let degrees = damage / 10;
        assert_eq!(
            hit_of(&case.hit()).effects,
            vec![EnergyEffect::WarFeverRoll { degrees, hindrance }],
            "{damage}"
        );
    }
}

#[test]
fn blast_deafens_knocks_down_at_one_degree_and_stuns_at_two() {
    // Energy Damage, Blast: any blast hit deafens (6 turns); 1 degree knockdown; 2 stunned.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Charge", "delivery": "ranged", "energy": {"type": "blast", "damage": 20}}),
        )],
        stats(json!({"injury_factor": 10})),
    );
    assert_eq!(
        hit_of(&case.hit()).effects,
        vec![
            EnergyEffect::Deafened { turns: 6 },
            EnergyEffect::KnockedDown { degrees: 2 },
            EnergyEffect::Stunned { energy: EnergyType::Blast, degrees: 2, attacker: "Raider".into() },
        ]
    );
}

#[test]
fn non_organic_victims_ignore_blast_deafening_and_stun_but_fall_down() {
    // Energy Damage, Blast: non-organic characters are immune to deafening and stunning.
    let mut case = Case::new(
        vec![weapon(
            json!({"name": "Charge", "delivery": "ranged", "energy": {"type": "blast", "damage": 20}}),
        )],
        stats(json!({"injury_factor": 10, "organic": false})),
    );
    let resolution = case.hit();
    let effects = &hit_of(&resolution).effects;
    assert!(matches!(&effects[0], EnergyEffect::Prevented { prevented, .. } if prevented == "deafened"));
    assert_eq!(effects[1], EnergyEffect::KnockedDown { degrees: 2 });
    assert!(matches!(&effects[2], EnergyEffect::Prevented { prevented, .. } if prevented == "stunned"));
}

#[test]
fn high_precision_access_prevents_ignition_and_deafening() {
    // Energy Shielding, High precision: the character cannot be deafened by blast or ignited. An
    // empty high shield still counts as access.
    let mut case = Case::new(
        vec![
            weapon(json!({"name": "Torch", "delivery": "ranged", "energy": {"type": "heat", "damage": 10}})),
            weapon(json!({"name": "Charge", "delivery": "ranged", "energy": {"type": "blast", "damage": 5}})),
        ],
        stats(json!({"injury_factor": 10})),
    );
    case.pools = vec![pool("Skin", Precision::High, 0, false)];
    let resolution = case.hit();
    let effects = &hit_of(&resolution).effects;
    let prevented: Vec<&str> = effects
        .iter()
        .filter_map(|e| match e {
            EnergyEffect::Prevented { prevented, .. } => Some(prevented.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(prevented, vec!["ignited", "deafened"]);
}

#[test]
fn a_kinetic_shield_leaves_only_the_energy_portion_at_its_own_drive() {
    // Combined Energy/Normal Damage: a projectile stopped by a kinetic shield: normal 0, energy
    // resolves normally: 12 heat at drive 12, no armour: 12.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Incendiary", "delivery": "ranged", "damage": 30, "drive": 40,
            "stopped_by_kinetic_shield": true, "energy": {"type": "heat", "damage": 12}}))],
        stats(json!({"injury_factor": 10})),
    );
    let resolution = case.hit();
    assert_eq!(portion(&resolution, Element::Normal).damage, 0);
    let heat = portion(&resolution, Element::Heat);
    assert_eq!((heat.damage, heat.drive), (12, 12));
}

#[test]
fn explosive_frag_and_blast_keep_their_own_drives() {
    // Combined Energy/Normal Damage: not for explosives: frag 20 at drive 30, blast 10 at drive
    // 10 even though the frag drive is higher. Armour 16-28: frag full (30 > 28), blast stopped.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Grenade", "delivery": "explosive", "damage": 20, "drive": 30,
            "energy": {"type": "blast", "damage": 10}, "impact": true}))],
        stats(json!({"injury_factor": 100, "armour": {"low": 16, "high": 28}})),
    );
    let resolution = case.hit();
    let frag = portion(&resolution, Element::Frag);
    let blast = portion(&resolution, Element::Blast);
    assert_eq!((frag.damage, frag.drive, blast.damage, blast.drive), (20, 30, 0, 10));
}

#[test]
fn weapon_weaknesses_touch_base_and_str_but_not_added_energy() {
    // Damage Resistances and Weaknesses: a vampire takes 150 % from quartz: on base 10 + STR 6 =
    // 16 → 24, not on the 8 heat.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Quartz sword", "delivery": "melee", "damage": 10, "drive": 20,
            "strength": {"damage": 6, "drive": 2}, "tags": ["quartz"], "energy": {"type": "heat", "damage": 8}}))],
        stats(json!({"injury_factor": 100, "resistances": [
            {"source": "vampire", "against": {"weapon_tag": "quartz"}, "percent": 150}]})),
    );
    let resolution = case.hit();
    assert_eq!(portion(&resolution, Element::Normal).damage, 24);
    assert_eq!(portion(&resolution, Element::Heat).damage, 8);
}

#[test]
fn melee_reductions_spare_str_and_cost_one_hindrance() {
    // Voluntarily Reducing Damage: weapon damage (not STR) to 25 %: 30 → 7, + STR 6 = 13; drive
    // 20 + 2 unchanged by the reduction; 1 Hindrance.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Club", "delivery": "melee", "damage": 30, "drive": 20,
            "strength": {"damage": 6, "drive": 2}}))],
        stats(json!({"injury_factor": 100})),
    );
    case.reduction = Reduction::MeleeQuarter;
    let resolution = case.hit();
    let club = portion(&resolution, Element::Normal);
    assert_eq!((club.damage, club.drive, resolution.hindrance), (13, 22, 1));
    assert_eq!(codes(club)[..3], [StepCode::Base, StepCode::VoluntaryReduction, StepCode::Strength]);
}

#[test]
fn str_may_be_withheld_entirely() {
    // Voluntarily Reducing Damage: STR considered 0: nothing added to damage or drive; no
    // Hindrance.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Club", "delivery": "melee", "damage": 30, "drive": 20,
            "strength": {"damage": 6, "drive": 2}}))],
        stats(json!({"injury_factor": 100})),
    );
    case.strength_withheld = true;
    let resolution = case.hit();
    let club = portion(&resolution, Element::Normal);
    assert_eq!((club.damage, club.drive, resolution.hindrance), (30, 20, 0));
}

#[test]
fn a_ranged_reduction_halves_damage_and_drive_for_three_hindrance_on_the_tn_option() {
    // Voluntarily Reducing Damage: ranged damage and drive to 50 % (25 → 12, 31 → 15) for 3
    // Hindrance; with the option at +5 TN per Hindrance, TN 14 becomes 29: a roll of 29 defends.
    let mut case = Case::new(
        vec![weapon(json!({"name": "Rifle", "delivery": "ranged", "damage": 25, "drive": 31}))],
        stats(json!({"injury_factor": 100})),
    );
    case.reduction = Reduction::RangedHalf;
    let resolution = case.run(
        DefenseInput::Roll { tn: 14, dice: &d100(), tn_per_hindrance: 5, critical_possible: true },
        vec![29],
    );
    assert_eq!(resolution.outcome, Outcome::Defended);
    let Defense::Rolled { tn, modifiers, .. } = &resolution.defense else { panic!() };
    assert_eq!((*tn, modifiers[0].value), (29, 15));
    let rifle = portion(&resolution, Element::Normal);
    assert_eq!((rifle.damage, rifle.drive), (12, 15));
}
