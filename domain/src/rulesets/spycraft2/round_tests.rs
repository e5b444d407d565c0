//! Ties the fluid Counts create at the end of a round, rolled off with the advance's dice
//! (spycraft2.txt, "Step 5" on equal Initiative Counts; "Step 6: Fluid Initiative Modifiers").

use super::super::fluid::FluidEntry;
use super::super::state::{state_of, store};
use super::super::Stats;
use crate::dice::{Dice, DieSource};
use crate::encounter::test_support::{encounter, fix, id, order_names};
use crate::encounter::{Advance, Event, NewCombatant, Flags, add_combatant, advance, advance_with};
use crate::rulesets::{RulesetId, StatBlock};
use crate::score::Score;

/// Guards Cy and Dee, both Initiative +1, on Counts 12 and 10; Dee aims and braces this round
/// (+1 and +1 on Table: Fluid Initiative Modifiers), reaching Cy's 12 at the round's end.
fn guards() -> crate::encounter::Encounter {
    let mut enc = encounter(RulesetId::Spycraft2);
    for name in ["Cy", "Dee"] {
        let stats = Stats::with_initiative_bonus(Score::new(1).unwrap());
        let new = NewCombatant {
            id: id(name),
            name: name.into(),
            side: "guards".into(),
            stats: StatBlock::Spycraft2(stats),
            flags: Flags::default(),
        };
        add_combatant(&mut enc, new).unwrap();
    }
    fix(&mut enc, &[("Cy", 12), ("Dee", 10)]);
    advance(&mut enc, Advance::NextTurn).unwrap(); // round 1, Cy's turn
    advance(&mut enc, Advance::NextTurn).unwrap(); // Dee's turn
    let mut dee = state_of(&enc, &id("Dee")).cloned().unwrap_or_default();
    dee.fluid.push(FluidEntry::aim());
    dee.fluid.push(FluidEntry::brace());
    store(&mut enc, &id("Dee"), dee);
    enc
}

#[test]
fn a_tie_made_by_fluid_initiative_is_rolled_off_on_d20s_from_the_advance() {
    let mut enc = guards();
    // Dee 10 + 1 + 1 = 12 = Cy's 12; both Initiative +1: each rolls 1d20, highest first.
    // Cy (first in the tied group) rolls 5, Dee 17: Dee acts first in round 2.
    let mut dice = Dice::scripted(vec![5, 17], 0).unwrap();
    let events = advance_with(&mut enc, Advance::NextTurn, &mut dice).unwrap();
    let rolls = dice.rolls();
    assert_eq!(rolls.len(), 2);
    assert!(rolls.iter().all(|r| r.sides == 20 && r.source == DieSource::Scripted));
    assert_eq!(rolls[0].purpose, "initiative roll-off: Cy");
    assert_eq!(rolls[1].purpose, "initiative roll-off: Dee");
    assert!(events.iter().any(|e| matches!(e, Event::InitiativeTieBroken { combatant_ids, .. }
        if combatant_ids.len() == 2)));
    assert_eq!(order_names(&enc), ["Dee", "Cy"]);
    assert_eq!((enc.round, enc.current.clone()), (2, Some(id("Dee"))));
}

#[test]
fn the_roll_off_re_rolls_its_own_ties_and_can_keep_join_order_by_the_dice() {
    let mut enc = guards();
    // 9 and 9 tie again ("re-rolling ties"); then Cy 14, Dee 3: Cy first.
    let mut dice = Dice::scripted(vec![9, 9, 14, 3], 0).unwrap();
    advance_with(&mut enc, Advance::NextTurn, &mut dice).unwrap();
    assert_eq!(dice.rolls().len(), 4);
    assert!(dice.unused_rolls().is_empty());
    assert_eq!(order_names(&enc), ["Cy", "Dee"]);
}

#[test]
fn with_strict_dice_too_few_refuses_the_advance() {
    let mut enc = guards();
    let mut dice = Dice::scripted_strict(vec![5], 0).unwrap();
    assert!(advance_with(&mut enc, Advance::NextTurn, &mut dice).is_err());
}
