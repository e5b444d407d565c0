//! Whom a declared action delivers something to, for the one rule on the dead
//! (`rulesets/receiving.rs`, `CepheusEngine::may_receive`): the actor takes an action; the
//! combatants it names receive what the action brings. A dead one is refused there (409), as
//! damage or an attack on the dead is, rather than by each action on its own.

use super::action_request::Action;
use crate::encounter::CombatantId;
use crate::rulesets::receiving::{Delivery, Receipt};

/// The actor and everyone the action names, each with what it receives.
pub fn deliveries(action: &Action) -> Vec<Delivery<'_>> {
    let mut deliveries = vec![Delivery::new(action.combatant_id(), "combatant_id", Receipt::Action)];
    match action {
        // An aim is at the target of the next attack (cepheus-engine.txt, "Aiming"); a grapple
        // and a ram deal damage to their target ("Grappling", "Collisions").
        Action::Aim { target_id, .. }
        | Action::AimForKill { target_id, .. }
        | Action::Grapple { target_id, .. } => {
            deliveries.push(Delivery::new(target_id, "target_id", Receipt::Damage));
        }
        // Leadership raises the target's Initiative ("Tactics and Leadership").
        Action::Leadership { target_id, .. } => {
            deliveries.push(Delivery::new(target_id, "target_id", Receipt::Condition));
        }
        // A Tactics check's unit members receive its bonus.
        Action::Tactics { unit_ids, .. } => listed(&mut deliveries, "unit_ids", unit_ids, Receipt::Condition),
        // Everyone a collision or a ram hits takes its damage ("Collisions"); the dead take no
        // more ("If all the passengers are dead, further passenger hits become Structure hits",
        // "Vehicle Damage", Passengers).
        Action::Collision { target_ids, unsecured_ids, secured_ids, .. } => {
            listed(&mut deliveries, "target_ids", target_ids, Receipt::Damage);
            listed(&mut deliveries, "unsecured_ids", unsecured_ids, Receipt::Damage);
            listed(&mut deliveries, "secured_ids", secured_ids, Receipt::Damage);
        }
        Action::Ram { target_id, unsecured_ids, secured_ids, .. } => {
            deliveries.push(Delivery::new(target_id, "target_id", Receipt::Damage));
            listed(&mut deliveries, "unsecured_ids", unsecured_ids, Receipt::Damage);
            listed(&mut deliveries, "secured_ids", secured_ids, Receipt::Damage);
        }
        // A medic of the encounter acts to heal.
        Action::Heal { medic_id: Some(medic), .. } => {
            deliveries.push(Delivery::new(medic, "medic_id", Receipt::Action));
        }
        _ => {}
    }
    deliveries
}

fn listed<'a>(deliveries: &mut Vec<Delivery<'a>>, name: &str, ids: &'a [CombatantId], receipt: Receipt) {
    let each = ids.iter().enumerate();
    deliveries.extend(each.map(|(i, id)| Delivery::new(id, format!("{name}[{i}]"), receipt)));
}
