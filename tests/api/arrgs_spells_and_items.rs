//! arrgs over HTTP: what a combatant holds (Staggered to 0 AP drops it, Sunder damage kept
//! between requests), Counterspell inside a spell attack, and spells in effect under Control
//! Spell and Dismiss Spell until the End of Round. Numbers worked from shared/rules/arrgs.txt.

use crate::arrgs_support::{Arena, firebolt, first_strike, hero, mage, merge, sword, troll};
use crate::helpers::text;
use serde_json::{Value, json};

fn armed_hero() -> Value {
    let mut stats = hero();
    stats["items"] = json!([{"name": "Longsword"}, {"name": "Shield"}, {"name": "Dagger", "held": false}]);
    stats
}

#[tokio::test]
async fn staggered_to_zero_action_points_drops_what_is_held_and_the_turn_is_lost() {
    let arena = Arena::new(&[("Hero", armed_hero()), ("Troll", troll())]).await;
    // Staggered [5]: AAP 2 − 2 = 0, then AP 3 − 3 = 0 → drops all items held in the hands.
    let stagger =
        json!({"combatant_id": arena.id("Hero"), "change": {"type": "staggered", "applications": 5}});
    let reply = arena.op("conditions", stagger, "Staggered [5]").await;
    assert_eq!(reply["result"]["dropped"], json!(["Longsword", "Shield"]));
    assert!(text(&reply["summary"]).contains("drops Longsword, Shield"), "{}", reply["summary"]);
    let places: Vec<Value> = arena.state("Hero").await["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|i| i["place"].clone())
        .collect();
    assert_eq!(places, [json!("dropped"), json!("dropped"), json!("carried")]);
    let swing = arena.attack("Hero", "Troll", sword(), json!({"rolls": [10]}));
    arena.refused("attacks", swing, "attacker_id", "nothing on its turn at 0 AP").await;
}

#[tokio::test]
async fn a_second_sunder_continues_from_the_damage_the_encounter_kept() {
    let shielded = json!({"agility": 8, "initiative": 10, "vitality": 60, "checks": {"reflex": {"skill": 2}},
        "items": [{"name": "Shield", "vitality": 20}]});
    let arena = Arena::new(&[("Hero", hero()), ("Troll", shielded)]).await;
    let sunder = |extra: Value| {
        let mut body = arena.attack(
            "Hero",
            "Troll",
            sword(),
            json!({"effect": {"type": "sunder", "item": {"name": "Shield"}}}),
        );
        merge(&mut body, extra);
        body
    };
    // d20 4 + 6 = 10 vs 12 → 4 − 2 = 2: 2 of 20.
    arena.op("attacks", sunder(json!({"rolls": [4]})), "first sunder").await;
    assert_eq!(arena.state("Troll").await["items"][0]["damage_taken"], json!(2));
    // Swift: d20 12 + 6 = 18 → 4 + 6 = 10: 2 + 10 = 12 ≥ half of 20 → Broken.
    let reply = arena.op("attacks", sunder(json!({"pace": "swift", "rolls": [12]})), "second sunder").await;
    assert_eq!(first_strike(&reply)["result"]["state"], json!("broken"));
    let shield = &arena.state("Troll").await["items"][0];
    assert_eq!((shield["damage_taken"].clone(), shield["condition"].clone()), (json!(12), json!("broken")));
    assert_eq!(arena.vitality("Troll").await, 60, "the item takes the damage");
}

fn shaman() -> Value {
    json!({"agility": 9, "initiative": 5, "vitality": 20, "checks": {"spell": {"skill": 4}}})
}

#[tokio::test]
async fn a_counterspell_meeting_the_casters_reaction_wastes_the_spell_attack() {
    let arena = Arena::new(&[("Mage", mage()), ("Troll", troll()), ("Shaman", shaman())]).await;
    let bolt = |level: u64| {
        arena.attack("Mage", "Troll", firebolt(),
            json!({"counterspell": {"combatant_id": arena.id("Shaman"), "spell_level": level}, "rolls": [12]}))
    };
    arena.refused("attacks", bolt(0), "counterspell.spell_level", "a level 0 spell against a level 1").await;
    // Mage pays 1 (14 → 13). Shaman (Immediate, 2 AAP, 1 Vitality: 19): d20 12 + 4 = 16 against
    // the Mage's Reaction Spell 10 + 3 + 3 = 16: the Firebolt goes up in smoke.
    let reply = arena.op("attacks", bolt(1), "countered").await;
    assert_eq!(reply["result"]["counterspell"]["test"]["dc"], json!(16));
    assert_eq!(reply["result"]["outcome"]["outcome"], json!("wasted"));
    let losses =
        (arena.vitality("Mage").await, arena.vitality("Shaman").await, arena.vitality("Troll").await);
    assert_eq!(losses, (13, 19, 60));
}

fn spell(name: &str, level: u64, duration: &str) -> Value {
    json!({"name": name, "kind": "spell", "damage": 2, "types": ["force"], "spell_level": level, "duration": duration})
}

/// Advances past the Troll's turn, sends the End of Round, and starts the next round.
async fn end_round(arena: &Arena) -> Value {
    arena.next_turn().await;
    let reply = arena.op("end-of-round", json!({}), "end of round").await;
    arena.next_turn().await;
    reply
}

#[tokio::test]
async fn a_concentration_spell_lasts_while_controlled_and_dismiss_ends_a_lasting_one() {
    let arena = Arena::new(&[("Mage", mage()), ("Troll", troll())]).await;
    // Round 1: Web (level 1, Concentration): d20 10 + 6 = 16 ≥ 11, vs 12 → 2 + 4 = 6: Troll 54.
    arena
        .op(
            "attacks",
            arena.attack("Mage", "Troll", spell("Web", 1, "concentration"), json!({"rolls": [10]})),
            "Web",
        )
        .await;
    assert_eq!(arena.state("Mage").await["spells"][0]["name"], json!("Web"));
    end_round(&arena).await;
    // Round 2: Control Spell, d20 12 + 6 = 18 ≥ 11: Web holds through End of Round 2.
    let control =
        arena.action("Mage", json!({"type": "control_spell", "spell": "Web"}), json!({"rolls": [12]}));
    let reply = arena.op("actions", control, "control").await;
    assert!(text(&reply["summary"]).contains("check 18 vs DC 11 on Web: success"), "{}", reply["summary"]);
    let reply = end_round(&arena).await;
    assert_eq!(reply["result"]["entries"], json!([]));
    // Round 3: Flame Wall (level 0, lasting): 16 vs 12 → 2 + 4 = 6: Troll 48. Dismiss it: d20 5 +
    // 6 = 11 exceeds 10 + 0. No Control Spell on the Web this round: it ends at the End of Round.
    arena
        .op(
            "attacks",
            arena.attack("Mage", "Troll", spell("Flame Wall", 0, "lasting"), json!({"rolls": [10]})),
            "Flame Wall",
        )
        .await;
    let dismiss =
        arena.action("Mage", json!({"type": "dismiss_spell", "spell": "Flame Wall"}), json!({"rolls": [5]}));
    arena.op("actions", dismiss, "dismiss").await;
    let names: Vec<Value> = arena.state("Mage").await["spells"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert_eq!(names, [json!("Web")]);
    let reply = end_round(&arena).await;
    assert_eq!(reply["result"]["entries"][0]["spells_ended"], json!(["Web"]));
    assert_eq!(arena.state("Mage").await.get("spells"), None);
    assert_eq!(arena.vitality("Troll").await, 48);
}

#[tokio::test]
async fn a_stat_block_listing_an_item_twice_is_refused_naming_it() {
    let app = crate::helpers::spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Twice").await;
    let mut stats = hero();
    stats["items"] = json!([{"name": "Shield"}, {"name": "Shield", "held": false}]);
    let body = json!({"name": "Hero", "side": "heroes", "stats": stats});
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;
    // Checks across fields name `stats`; the detail names the item.
    reply.assert_problem(422, Some("stats"), "the same item twice");
    assert!(text(&reply.body["detail"]).starts_with("items[1].name: listed twice"), "{}", reply.body);
    assert_eq!(app.encounter(&encounter).await["version"], json!(1), "nothing stored");
}
