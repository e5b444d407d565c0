//! One weapon with more than one energy portion (lur-asko.txt, "Combined Energy/Normal Damage";
//! the reading is in weapon.rs): each energy portion is settled against the normal drive, shielded
//! and counted on its own. Numbers worked by hand from the text in each test.

use super::outcome::{Element, EnergyEffect, Outcome, Portion, ShieldResult};
use super::pipeline::{Attack, CriticalChoice, DefenseInput, Resolution, Target, resolve};
use super::pipeline_tests::{pool, stats, weapon};
use super::shielding::{Pool, Situation};
use super::state::Precision;
use super::stats::{EnergyType, Stats};
use super::weapon::{Reduction, Weapon, check_weapons};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde_json::json;

/// A hit called out by the GM (no roll, not critical) of `weapons` on `stats`.
fn hit(weapons: &[Weapon], reduction: Reduction, stats: &Stats, pools: &mut [Pool]) -> Resolution {
    let choice = CriticalChoice::Drive;
    let attack = Attack {
        attacker: "Raider",
        weapons,
        reduction,
        strength_withheld: false,
        situation: Situation::default(),
        injury_type: "Limb",
        critical_choice: &choice,
    };
    let factor = stats.injury_factor("stats").expect("factor");
    let target = Target { name: "Ward", stats, injury_factor: factor, damage_taken: 0 };
    let mut dice = Dice::scripted(vec![], 0).expect("dice");
    resolve(attack, target, DefenseInput::Called { critical: false }, pools, &mut dice).expect("resolves")
}

fn portion(resolution: &Resolution, element: Element) -> &Portion {
    resolution.portions.iter().find(|p| p.element == element).expect("portion")
}

fn effects(resolution: &Resolution) -> &[EnergyEffect] {
    match &resolution.outcome {
        Outcome::Hit { hit, .. } => &hit.effects,
        other => panic!("expected a hit, got {other:?}"),
    }
}

#[test]
fn each_energy_portion_is_settled_against_the_normal_drive_by_itself() {
    // Combined Energy/Normal Damage: 32 (15 drive) + 8 heat + 24 electric. Heat 8 < 15: rides at
    // 15; electric 24 > 15: keeps 24. Against metallic 16-28 (Damage, Drive, & Armor Ranges;
    // Energy Damage, Electric): normal at 15 and heat at 15 are below 16: 0; electric at 24 is
    // inside the range of metallic armour: not halved, 24. Injury factor 10: 24 → 2 degrees, all
    // electric (24 / 10 = 2): stunned; heat 0 degrees: no ignition.
    let blade = weapon(json!({"name": "Blade", "delivery": "melee", "damage": 32, "drive": 15,
        "energy": {"type": "heat", "damage": 8}, "extra_energy": [{"type": "electric", "damage": 24}]}));
    let target = stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28, "metallic": true}}));
    let resolution = hit(&[blade], Reduction::None, &target, &mut []);
    let heat = portion(&resolution, Element::Heat);
    let electric = portion(&resolution, Element::Electric);
    assert_eq!((heat.drive, heat.damage), (15, 0));
    assert_eq!((electric.drive, electric.damage), (24, 24));
    assert_eq!(portion(&resolution, Element::Normal).damage, 0);
    assert_eq!(resolution.portions.len(), 3);
    assert_eq!(
        effects(&resolution),
        [EnergyEffect::Stunned { energy: EnergyType::Electric, degrees: 2, attacker: "Raider".into() }]
    );
}

#[test]
fn a_pure_energy_weapon_of_two_types_is_shielded_portion_by_portion() {
    // Energy Shielding: a ranged attack entirely of energy meets low precision; each portion is
    // shielded on its own, in order: particle 40 takes 40 of 50 points (10 left), frost 30 takes
    // the last 10 (partial): 20 left at drive 20. Hit, no armour, injury factor 10: 20 → 2
    // degrees, frost 20 / 10 = 2 (Energy Damage, Frost): 2 × 25 = 50 fatigue; particle 0.
    let beam = weapon(json!({"name": "Rime beam", "delivery": "ranged",
        "energy": {"type": "particle", "damage": 40}, "extra_energy": [{"type": "frost", "damage": 30}]}));
    let mut pools = [pool("Dome", Precision::Low, 50, false)];
    let resolution = hit(&[beam], Reduction::None, &stats(json!({"injury_factor": 10})), &mut pools);
    assert_eq!(pools[0].points, 0);
    let used: Vec<(u32, u32)> = resolution
        .shielding
        .iter()
        .map(|u| match u.result {
            ShieldResult::Applied { points_used, damage_after, .. } => (points_used, damage_after),
            ShieldResult::NotApplicable { .. } => panic!("not applied"),
        })
        .collect();
    assert_eq!(used, vec![(40, 0), (10, 20)]);
    let frost = portion(&resolution, Element::Frost);
    assert_eq!((frost.damage, frost.drive), (20, 20));
    assert_eq!(effects(&resolution), [EnergyEffect::Fatigue { degrees: 2, fatigue: 50 }]);
}

#[test]
fn a_melee_half_reduction_halves_every_energy_portion() {
    // Voluntarily Reducing Damage: melee 50 % of everything but STR. 20 (10 drive) → 10 at 10;
    // heat 9 → 4 (drive 4, rides at the normal 10); frost 30 → 15 (drive 15, keeps it). No
    // armour: 10 + 4 + 15 = 29 damage.
    let axe = weapon(json!({"name": "Axe", "delivery": "melee", "damage": 20, "drive": 10,
        "energy": {"type": "heat", "damage": 9}, "extra_energy": [{"type": "frost", "damage": 30}]}));
    let resolution = hit(&[axe], Reduction::MeleeHalf, &stats(json!({"injury_factor": 100})), &mut []);
    let heat = portion(&resolution, Element::Heat);
    let frost = portion(&resolution, Element::Frost);
    assert_eq!((heat.damage, heat.drive, frost.damage, frost.drive), (4, 10, 15, 15));
    assert_eq!(resolution.portions.iter().map(|p| p.damage).sum::<u32>(), 29);
}

fn refused(value: serde_json::Value) -> String {
    match check_weapons("attack", &[weapon(value)], Reduction::None) {
        Err(RuleError::Invalid { field, .. }) => field,
        other => panic!("expected a 422, got {other:?}"),
    }
}

#[test]
fn extra_energy_is_refused_naming_the_field_when_it_cannot_be() {
    let heat = json!({"type": "heat", "damage": 5});
    assert_eq!(
        refused(json!({"name": "G", "delivery": "explosive", "damage": 5, "drive": 5,
            "energy": {"type": "blast", "damage": 5}, "extra_energy": [heat]})),
        "attack.weapons[0].extra_energy"
    );
    assert_eq!(
        refused(json!({"name": "B", "delivery": "melee", "damage": 5, "drive": 5, "extra_energy": [heat]})),
        "attack.weapons[0].extra_energy"
    );
    assert_eq!(
        refused(json!({"name": "B", "delivery": "melee", "energy": {"type": "frost", "damage": 5},
            "extra_energy": [heat, {"type": "frost", "damage": 1}]})),
        "attack.weapons[0].extra_energy[1].type"
    );
    let five: Vec<_> = (0..5).map(|_| heat.clone()).collect();
    assert_eq!(
        refused(json!({"name": "B", "delivery": "melee", "energy": {"type": "frost", "damage": 5},
            "extra_energy": five})),
        "attack.weapons[0].extra_energy"
    );
}
