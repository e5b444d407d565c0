//! `POST /v1/encounters/{id}/combatants/from-creature`: combatants added from a library creature.

use super::creatures::{name_check, ruleset_of_creature, stats_of_creature};
use super::responses::{AuthErrors, IdempotencyHeader, IfMatchHeader, MutationErrors};
use crate::app::{AppState, mutate, new_id, ruleset_of};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch, stats_from_json};
use crate::reply::json_reply;
use crate::wire::{
    AddFromCreatureRequest, CombatantResponse, CombatantsAddedResponse, CreatureInstance, event_notices,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use skirmish_db::{Creature, Mutation, StoredResponse};
use skirmish_domain::encounter::{
    CombatantId, Encounter, Event, Flags, MAX_CREATURE_COUNT, NewCombatant, add_from_creature, numbered_names,
};
use skirmish_domain::rulesets::{RulesetId, StatBlock};

/// Adds `count` combatants from a creature of your library, in one change: each gets the
/// creature's stat block as it is now (a later change to the creature does not reach them) and
/// its defaults, is named after it and numbered past the numbers the encounter already uses
/// ("Goblin 3" after "Goblin 2"; "Goblin 1" first), and keeps the creature's id. `instances`
/// gives single ones their own name, side, flags or stat changes (a JSON merge patch).
#[utoipa::path(operation_id = "add_combatants_from_creature",
    tag = "combatants",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body = AddFromCreatureRequest,
    responses((status = 201, body = CombatantsAddedResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[post("/v1/encounters/{id}/combatants/from-creature")]
pub async fn add(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(request): ApiJson<AddFromCreatureRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let count = checked(&request)?;
    let ruleset = ruleset_of(&state, &caller, &id).await?;
    let creature = creature_for(&state, &caller, &request.creature_id, ruleset).await?;
    let plan = Plan::new(&creature, ruleset, &request, count)?;
    let command = move |encounter: &mut Encounter| plan.apply(encounter);
    mutate(&state, &caller, id, if_match, command, render).await
}

/// How many to add (1 to 50), once the request's bounds are checked: `instances` at most
/// `count`, every group name 1 to 100 characters.
fn checked(request: &AddFromCreatureRequest) -> Result<usize, ApiError> {
    let count = usize::try_from(request.count.unwrap_or(1)).unwrap_or(usize::MAX);
    if !(1..=MAX_CREATURE_COUNT).contains(&count) {
        return Err(ApiError::invalid("count", format!("must be 1 to {MAX_CREATURE_COUNT}")));
    }
    if request.instances.len() > count {
        return Err(ApiError::invalid("instances", format!("at most `count` ({count}) entries")));
    }
    if let Some(group) = &request.group {
        name_check("group", group)?;
    }
    for (index, instance) in request.instances.iter().enumerate() {
        if let Some(group) = &instance.group {
            name_check(&format!("instances[{index}].group"), group)?;
        }
    }
    Ok(count)
}

/// The combatants to add from the creature, ready but for the numbered names, which the change
/// gives them (only it knows the names the encounter holds).
struct Plan {
    creature_id: String,
    base: String,
    instances: Vec<NewCombatant>,
    /// Per instance: it has a name of its own (no number).
    named: Vec<bool>,
    groups: Vec<Option<String>>,
}

impl Plan {
    fn new(
        creature: &Creature,
        ruleset: RulesetId,
        request: &AddFromCreatureRequest,
        count: usize,
    ) -> Result<Self, ApiError> {
        let own = |index: usize| request.instances.get(index);
        Ok(Self {
            creature_id: creature.id.clone(),
            base: creature.name.clone(),
            instances: instances(creature, ruleset, request, count)?,
            named: (0..count).map(|index| own(index).is_some_and(|i| i.name.is_some())).collect(),
            groups: (0..count)
                .map(|index| own(index).and_then(|i| i.group.clone()).or_else(|| request.group.clone()))
                .collect(),
        })
    }

    /// Names the unnamed instances after the creature, numbered past the encounter's numbers,
    /// adds them all and puts each in its group.
    fn apply(self, encounter: &mut Encounter) -> Result<(Vec<Event>, Vec<CombatantId>), ApiError> {
        let Self { creature_id, base, mut instances, named, groups } = self;
        let mut numbered =
            numbered_names(encounter, &base, named.iter().filter(|own| !**own).count()).into_iter();
        for (instance, own) in instances.iter_mut().zip(&named) {
            if !own {
                instance.name = numbered.next().unwrap_or_default();
            }
        }
        let ids: Vec<CombatantId> = instances.iter().map(|instance| instance.id.clone()).collect();
        let events = add_from_creature(encounter, &creature_id, instances.into_iter().zip(groups).collect())?;
        Ok((events, ids))
    }
}

/// The caller's creature `id`, of the encounter's ruleset (422 naming `creature_id` otherwise:
/// another tenant's creature is as unknown as one that never was).
async fn creature_for(
    state: &AppState,
    caller: &Caller,
    id: &str,
    ruleset: RulesetId,
) -> Result<Creature, ApiError> {
    let (store, tenant, id) = (state.store.clone(), caller.tenant.clone(), id.to_owned());
    let found = web::block(move || store.creature(&tenant, &id)).await??;
    let creature =
        found.ok_or_else(|| ApiError::invalid("creature_id", "no creature with this id in your library"))?;
    let of = ruleset_of_creature(&creature)?;
    if of != ruleset {
        return Err(ApiError::invalid(
            "creature_id",
            format!("a {of} creature cannot join a {ruleset} encounter"),
        ));
    }
    Ok(creature)
}

/// The `count` combatants to add, named later (in the change, where the encounter's names are
/// known) unless an instance names itself.
fn instances(
    creature: &Creature,
    ruleset: RulesetId,
    request: &AddFromCreatureRequest,
    count: usize,
) -> Result<Vec<NewCombatant>, ApiError> {
    let stats = stats_of_creature(creature)?;
    let plain = CreatureInstance::default();
    (0..count)
        .map(|index| {
            let own = request.instances.get(index).unwrap_or(&plain);
            let side = own.side.clone().or_else(|| request.side.clone()).or_else(|| creature.side.clone());
            let side =
                side.ok_or_else(|| ApiError::invalid("side", "the creature has no default side: give one"))?;
            let flags = Flags {
                surprised: own.surprised.unwrap_or(request.surprised),
                defeated: false,
                hidden: own.hidden.or(request.hidden).unwrap_or(creature.hidden),
                public: own.public.or(request.public).unwrap_or(creature.public),
            };
            Ok(NewCombatant {
                id: CombatantId(new_id("cmb")),
                name: own.name.clone().unwrap_or_default(),
                side,
                stats: patched(&stats, ruleset, own.stats.as_ref(), index)?,
                flags,
            })
        })
        .collect()
}

/// The creature's stat block with an instance's merge patch applied, checked as the ruleset's.
fn patched(
    stats: &StatBlock,
    ruleset: RulesetId,
    patch: Option<&serde_json::Value>,
    index: usize,
) -> Result<StatBlock, ApiError> {
    let Some(patch) = patch else { return Ok(stats.clone()) };
    let field = format!("instances[{index}].stats");
    if !patch.is_object() {
        return Err(ApiError::invalid(field, "a JSON merge patch of the stat block: an object"));
    }
    let mut merged = serde_json::to_value(stats).map_err(|error| ApiError::Internal(Box::new(error)))?;
    json_patch::merge(&mut merged, patch);
    stats_from_json(ruleset, &field, merged)
}

fn render(mutation: Mutation<Vec<CombatantId>>) -> Result<StoredResponse, ApiError> {
    let encounter = &mutation.encounter.encounter;
    let combatants = mutation
        .output
        .iter()
        .filter_map(|id| encounter.combatant(id))
        .map(|combatant| CombatantResponse::new(encounter, combatant))
        .collect();
    let body = CombatantsAddedResponse {
        version: encounter.version,
        combatants,
        events: event_notices(mutation.events),
    };
    json_reply(StatusCode::CREATED, &body, Some(encounter.version))
}
