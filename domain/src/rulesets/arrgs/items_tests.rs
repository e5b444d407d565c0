use super::*;
use crate::rulesets::arrgs::test_support::fighter;
use serde_json::json;

fn armed() -> Fighter {
    let mut one = fighter("Hero", json!({"agility": 10, "vitality": 20,
        "items": [{"name": "Sword"}, {"name": "Dagger", "held": false}, {"name": "Shield", "vitality": 12}]}));
    adopt_sheet(&mut one);
    one
}

fn draw(item: &str, action: ItemAction) -> Handling {
    Handling { item: item.into(), action }
}

#[test]
fn an_item_is_broken_at_half_its_vitality_and_destroyed_at_all_of_it() {
    // "Items that suffer 50% damage gain the Broken condition. Items that suffer 100% damage are
    // destroyed." (arrgs.txt, "Sunder Manoeuvre"). Vitality 12: 5 intact, 6 broken, 12 destroyed.
    assert_eq!([ItemState::of(5, 12), ItemState::of(6, 12), ItemState::of(12, 12)], [ItemState::Intact, ItemState::Broken, ItemState::Destroyed]);
    // Vitality 5: 2 is under half (2 × 2 = 4 < 5), 3 is over.
    assert_eq!([ItemState::of(2, 5), ItemState::of(3, 5)], [ItemState::Intact, ItemState::Broken]);
}

#[test]
fn the_sheet_lists_what_is_held_and_staggering_to_zero_drops_it_all() {
    let mut hero = armed();
    assert_eq!(hero.held(), ["Sword", "Shield"]);
    assert_eq!(drop_all_held(&mut hero), ["Sword", "Shield"]);
    let places: Vec<Place> = hero.items().iter().map(|item| item.place).collect();
    assert_eq!(places, [Place::Dropped, Place::Carried, Place::Dropped]);
}

#[test]
fn complementary_actions_draw_and_drop_but_picking_up_is_a_miscellaneous_manoeuvre() {
    let mut hero = armed();
    assert_eq!(handle(&mut hero, &draw("Dagger", ItemAction::Draw), true, "manoeuvre.item").unwrap(), Place::Held);
    handle(&mut hero, &draw("Sword", ItemAction::Drop), true, "manoeuvre.item").unwrap();
    let refused = handle(&mut hero, &draw("Sword", ItemAction::PickUp), true, "manoeuvre.item").unwrap_err();
    assert!(matches!(refused, RuleError::Invalid { field, .. } if field == "manoeuvre.item.action"));
    assert_eq!(handle(&mut hero, &draw("Sword", ItemAction::PickUp), false, "manoeuvre.item").unwrap(), Place::Held);
    let missing = handle(&mut hero, &draw("Axe", ItemAction::Draw), false, "manoeuvre.item").unwrap_err();
    assert!(matches!(missing, RuleError::Invalid { field, .. } if field == "manoeuvre.item.item"));
}

#[test]
fn disarm_takes_the_named_item_or_the_only_one_held() {
    let hero = armed();
    assert!(matches!(disarm_target(&hero, None, "effect.item"), Err(RuleError::Invalid { field, .. }) if field == "effect.item"));
    assert_eq!(disarm_target(&hero, Some("Shield"), "effect.item").unwrap().as_deref(), Some("Shield"));
    assert!(disarm_target(&hero, Some("Dagger"), "effect.item").is_err(), "the Dagger is not in the hands");
    let untracked = fighter("Troll", json!({"agility": 8, "vitality": 60}));
    assert_eq!(disarm_target(&untracked, None, "effect.item").unwrap(), None);
}

#[test]
fn sunder_continues_from_the_stored_damage() {
    let mut hero = armed();
    let shield = Item { name: "Shield".into(), vitality: None, damage_taken: None };
    // 5 then 2: 7 of 12 → Broken (7 × 2 ≥ 12); stored on the Hero.
    let aimed = sunder_target(&hero, &shield).unwrap();
    let first = sunder(&mut hero, aimed, 5);
    assert_eq!((first.damage_taken, first.condition), (5, ItemState::Intact));
    let aimed = sunder_target(&hero, &shield).unwrap();
    let second = sunder(&mut hero, aimed, 2);
    assert_eq!((second.damage_taken, second.condition), (7, ItemState::Broken));
    assert_eq!(hero.items()[2].damage_taken, 7);
    let sword = Item { name: "Sword".into(), vitality: None, damage_taken: None };
    let refused = sunder_target(&hero, &sword).unwrap_err();
    assert!(matches!(refused, RuleError::Invalid { field, .. } if field == "effect.item.vitality"));
}
