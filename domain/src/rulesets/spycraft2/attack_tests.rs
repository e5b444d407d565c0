//! The attack model worked by hand (see the module comment and the docs' decisions).

use super::*;
use crate::rulesets::spycraft2::fluid::FluidCode;

fn stats(attack: i64, defense: i64, vulnerable: i64, vitality: i64, dr: i64) -> Stats {
    let mut stats = Stats::with_initiative_bonus(Score::new(0).unwrap());
    stats.attack_bonus = Score::new(attack).unwrap();
    stats.defense = Score::new(defense).unwrap();
    stats.vulnerable_defense = Score::new(vulnerable).unwrap();
    stats.vitality = Score::new(vitality).unwrap();
    stats.damage_reduction = Score::new(dr).unwrap();
    stats
}

fn weapon(count: i64, sides: i64, bonus: i64) -> Weapon {
    Weapon {
        name: "pistol".into(),
        damage: DamageDice {
            count: Score::new(count).unwrap(),
            sides: Score::new(sides).unwrap(),
            bonus: Some(Score::new(bonus).unwrap()),
        },
        threat_range: None,
        error_range: None,
        tactical: false,
        proficient: true,
        electrical_count_change: None,
    }
}

struct Fight {
    attacker: Stats,
    target: Stats,
    attacker_state: CombatState,
    target_state: CombatState,
}

impl Fight {
    fn new(attacker: Stats, target: Stats) -> Self {
        let awake = CombatState { flat_footed: false, ..CombatState::default() };
        Self { attacker, target, attacker_state: awake.clone(), target_state: awake }
    }

    fn attack(&mut self, weapon: &Weapon, choices: &AttackChoices, rolls: Vec<u32>) -> AttackReport {
        let mut dice = Dice::scripted(rolls, 0).unwrap();
        let sides = Sides {
            attacker_name: "Ana",
            attacker: &self.attacker,
            attacker_state: &mut self.attacker_state,
            target_name: "Guard",
            target: &self.target,
            target_state: &mut self.target_state,
        };
        resolve(sides, weapon, choices, &mut dice).unwrap()
    }
}

#[test]
fn a_hit_spends_vitality_then_wounds() {
    // +5, die 12 → 17 against Defense 15: hit. 2d6+1 = 4 + 3 + 1 = 8, DR 2 → 6: 4 vitality,
    // then 2 wounds → the target's Count −2.
    let mut fight = Fight::new(stats(5, 10, 0, 0, 0), stats(0, 15, 0, 4, 2));
    let report = fight.attack(&weapon(2, 6, 1), &AttackChoices::default(), vec![12, 4, 3]);
    assert_eq!((report.die, report.total, report.defense), (12, 17, 15));
    let AttackOutcome::Hit { threat: false, damage_dice } = report.outcome else { panic!() };
    let damage = report.damage.expect("a hit's damage");
    assert_eq!(damage_dice, vec![4, 3]);
    assert_eq!((damage.amount, damage.suffered, damage.to_vitality, damage.to_wounds), (8, 6, 4, 2));
    assert_eq!(fight.target_state.fluid, vec![FluidEntry::wounds_lost(2)]);
}

#[test]
fn a_flat_footed_target_loses_dexterity_and_dodge_and_then_is_no_longer_flat_footed() {
    // Defense 16, of which 3 is Dex and dodge: flat-footed 13. +5, die 8 → 13: hits (16 would not).
    let mut fight = Fight::new(stats(5, 10, 0, 0, 0), stats(0, 16, 3, 20, 0));
    fight.target_state.flat_footed = true;
    let report = fight.attack(&weapon(1, 6, 0), &AttackChoices::default(), vec![8, 2]);
    assert_eq!(report.defense, 13);
    assert_eq!(
        report.defense_modifiers[1].code,
        crate::rulesets::spycraft2::modifier::ModifierCode::FlatFooted
    );
    assert!(report.target_no_longer_flat_footed && !fight.target_state.flat_footed);
}

#[test]
fn an_activated_threat_is_a_critical_hit_straight_to_wounds() {
    // Threat range 19–20, die 19 → 19 + 2 = 21 ≥ 15: hit and threat; the Action Die makes it
    // critical. 1d8+2 = 6 + 2 = 8, DR 1 → 7 wounds despite 30 vitality: Count −5, not −7.
    let mut fight = Fight::new(stats(2, 10, 0, 0, 0), stats(0, 15, 0, 30, 1));
    let mut rifle = weapon(1, 8, 2);
    rifle.threat_range = Some(Score::new(19).unwrap());
    let choices = AttackChoices { activate_threat: true, ..AttackChoices::default() };
    let report = fight.attack(&rifle, &choices, vec![19, 6]);
    assert!(matches!(report.outcome, AttackOutcome::CriticalHit { .. }));
    let damage = report.damage.expect("a critical hit's damage");
    assert_eq!((damage.to_vitality, damage.to_wounds, damage.wounds_left), (0, 7, 3));
    assert_eq!(fight.target_state.fluid.iter().map(|e| e.value).collect::<Vec<_>>(), vec![-5]);
}

#[test]
fn a_threat_without_an_action_die_or_on_a_miss_is_no_critical() {
    let mut fight = Fight::new(stats(0, 10, 0, 0, 0), stats(0, 15, 0, 30, 0));
    // Die 20 → 20 ≥ 15: a threat, not activated: an ordinary hit, 1d4 = 3 to vitality.
    let report = fight.attack(&weapon(1, 4, 0), &AttackChoices::default(), vec![20, 3]);
    assert!(matches!(report.outcome, AttackOutcome::Hit { threat: true, .. }));
    // Against Defense 25 the same 20 misses: the threat comes to nothing even when activated.
    fight.target.defense = Score::new(25).unwrap();
    let choices = AttackChoices { activate_threat: true, ..AttackChoices::default() };
    let report = fight.attack(&weapon(1, 4, 0), &choices, vec![20]);
    assert_eq!((report.threat, report.outcome), (true, AttackOutcome::Miss));
}

#[test]
fn an_activated_error_is_a_critical_miss_costing_two_per_action_die() {
    // +30, die 1 → 31 would hit Defense 15, but the GC spends 2 Action Dice on the error: a
    // critical miss, and the attacker's Count −4. No damage die is rolled.
    let mut fight = Fight::new(stats(30, 10, 0, 0, 0), stats(0, 15, 0, 0, 0));
    let choices = AttackChoices { error_action_dice: 2, ..AttackChoices::default() };
    let report = fight.attack(&weapon(1, 6, 0), &choices, vec![1]);
    assert_eq!(report.outcome, AttackOutcome::CriticalMiss { action_dice: 2 });
    assert_eq!(report.attacker_fluid, vec![FluidEntry::critical_miss(2)]);
    assert_eq!(fight.attacker_state.fluid[0].value, -4);
    // Without Action Dice the error is only an error: an ordinary result (here a hit).
    let report = fight.attack(&weapon(1, 6, 0), &AttackChoices::default(), vec![1, 5]);
    assert!(report.error && matches!(report.outcome, AttackOutcome::Hit { .. }));
}

#[test]
fn tactical_non_proficient_and_final_attacks_cost_the_attacker() {
    // Two shots with a tactical weapon the attacker is not proficient with, the second a final
    // attack: −2 −4 (first shot), −2 −2 (second: no second −4 for the same weapon).
    let mut fight = Fight::new(stats(0, 10, 0, 0, 0), stats(0, 30, 0, 0, 0));
    let mut launcher = weapon(1, 6, 0);
    launcher.tactical = true;
    launcher.proficient = false;
    fight.attack(&launcher, &AttackChoices::default(), vec![5]);
    let last = AttackChoices { final_attack: true, ..AttackChoices::default() };
    let report = fight.attack(&launcher, &last, vec![5]);
    let codes: Vec<FluidCode> = report.attacker_fluid.iter().map(|e| e.code).collect();
    assert_eq!(codes, vec![FluidCode::TacticalWeapon, FluidCode::FinalAttack]);
    let all: Vec<i32> = fight.attacker_state.fluid.iter().map(|e| e.value).collect();
    assert_eq!(all, vec![-2, -4, -2, -2]);
}
