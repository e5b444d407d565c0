//! Damage auras against hand-worked cases from lur-asko.txt, "Damage Auras".

use super::aura::{AuraAmount, discharge_amount, strike};
use super::outcome::{Element, EnergyEffect};
use super::pipeline::Target;
use super::state::{Aura, AuraKind, Precision};
use super::stats::EnergyType;
use super::pipeline_tests::{pool, stats};
use serde_json::json;

fn aura(stored: u32, kind: AuraKind) -> Aura {
    Aura { name: "Storm aura".into(), kind, stored, mental: false }
}

fn amount(value: i64) -> Option<AuraAmount> {
    Some(AuraAmount::new(value).expect("amount"))
}

#[test]
fn a_discharge_is_all_the_stored_damage_or_a_multiple_of_ten() {
    // Damage Auras: the amount must be the full stored damage, or a multiple of 10.
    let stored = aura(35, AuraKind::Energy { energy: EnergyType::Electric });
    assert_eq!(discharge_amount(&stored, None, "aura_response"), Ok(35));
    assert_eq!(discharge_amount(&stored, amount(35), "aura_response"), Ok(35));
    assert_eq!(discharge_amount(&stored, amount(30), "aura_response"), Ok(30));
    let refused = discharge_amount(&stored, amount(25), "aura_response").expect_err("25");
    assert!(refused.to_string().starts_with("aura_response.amount"), "{refused}");
    assert!(discharge_amount(&stored, amount(40), "aura_response").is_err(), "more than stored");
}

#[test]
fn an_electric_aura_strikes_back_with_core_injuries_and_stuns_the_attacker_to_its_own_turn() {
    // Damage Auras: 30 electric at drive 30 against the attacker's armour 16-28 (above: full);
    // injury factor 10: 3 degrees of Core Injury; electric 3 degrees: stunned until the end of
    // the attacker's (the struck character's) next turn. 5 stored damage remain.
    let mut storm = aura(35, AuraKind::Energy { energy: EnergyType::Electric });
    let raider = stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28}}));
    let struck = Target { name: "Raider", stats: &raider, injury_factor: 10, damage_taken: 0 };
    let report = strike("Ward", &mut storm, 30, struck, &mut []);
    assert_eq!((report.stored_before, report.stored_after, storm.stored), (35, 5, 5));
    assert_eq!(report.portions[0].element, Element::Electric);
    assert_eq!(report.hit.injury.injury_type, "Core");
    assert_eq!(report.hit.injury.degrees, 3);
    assert_eq!(
        report.hit.effects,
        vec![EnergyEffect::Stunned { energy: EnergyType::Electric, degrees: 3, attacker: "Raider".into() }]
    );
}

#[test]
fn only_high_precision_shields_an_aura_and_normal_auras_keep_their_drive() {
    // Damage Auras: energy aura damage can only be shielded by high precision. A normal aura of
    // 20 at drive 18 against 16-28 is halved to 10 and no shield touches it.
    let mut fire = aura(20, AuraKind::Energy { energy: EnergyType::Heat });
    let raider = stats(json!({"injury_factor": 10}));
    let mut pools = vec![pool("Skin", Precision::High, 15, false)];
    let report =
        strike("Ward", &mut fire, 20, Target { name: "Raider", stats: &raider, injury_factor: 10, damage_taken: 0 }, &mut pools);
    assert_eq!((report.portions[0].damage, pools[0].points), (5, 0));
    assert!(report.hit.effects.is_empty(), "5 heat is no degree");

    let mut spikes = aura(20, AuraKind::Normal { drive: crate::score::Score::new(18).expect("18") });
    let armoured = stats(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28}}));
    let report = strike(
        "Ward",
        &mut spikes,
        20,
        Target { name: "Raider", stats: &armoured, injury_factor: 10, damage_taken: 0 },
        &mut [],
    );
    assert_eq!((report.portions[0].drive, report.portions[0].damage), (18, 10));
}
