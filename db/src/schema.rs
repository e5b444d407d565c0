//! Diesel table definitions, matching `migrations/`.

diesel::table! {
    encounters (id) {
        id -> Text,
        ruleset -> Text,
        name -> Text,
        status -> Text,
        round -> Integer,
        current_combatant -> Nullable<Text>,
        version -> BigInt,
        created_at -> Text,
        updated_at -> Text,
        tenant -> Text,
        options -> Text,
        archived_at -> Nullable<Text>,
    }
}

diesel::table! {
    api_keys (id) {
        id -> Text,
        tenant -> Text,
        key_hash -> Text,
        created_at -> Text,
        revoked_at -> Nullable<Text>,
    }
}

diesel::table! {
    idempotency_records (tenant, key) {
        tenant -> Text,
        key -> Text,
        fingerprint -> Text,
        status -> Integer,
        body -> Text,
        headers -> Text,
        created_at -> Text,
        encounter_id -> Nullable<Text>,
    }
}

diesel::table! {
    combatants (encounter_id, id) {
        encounter_id -> Text,
        id -> Text,
        position -> Integer,
        name -> Text,
        side -> Text,
        stats -> Text,
        initiative -> Nullable<Integer>,
        initiative_roll_off -> Text,
        initiative_explanation -> Nullable<Text>,
        surprised -> Bool,
        defeated -> Bool,
        hidden -> Bool,
        acted_this_round -> Bool,
        delaying -> Bool,
        state -> Text,
        public -> Bool,
        creature_id -> Nullable<Text>,
        group_name -> Nullable<Text>,
    }
}

diesel::table! {
    templates (tenant, id) {
        tenant -> Text,
        id -> Text,
        name -> Text,
        name_key -> Text,
        ruleset -> Text,
        encounter_name -> Text,
        options -> Text,
        combatants -> Text,
        created_at -> Text,
    }
}

diesel::table! {
    creatures (tenant, id) {
        tenant -> Text,
        id -> Text,
        ruleset -> Text,
        name -> Text,
        name_key -> Text,
        stats -> Text,
        side -> Nullable<Text>,
        notes -> Nullable<Text>,
        hidden -> Bool,
        public -> Bool,
        created_at -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    effects (encounter_id, id) {
        encounter_id -> Text,
        id -> Text,
        position -> Integer,
        data -> Text,
    }
}

diesel::table! {
    events (encounter_id, seq) {
        encounter_id -> Text,
        seq -> BigInt,
        kind -> Text,
        data -> Text,
        created_at -> Text,
    }
}

diesel::table! {
    encounter_history (encounter_id, slot) {
        encounter_id -> Text,
        slot -> Integer,
        version -> BigInt,
        diff -> Nullable<Binary>,
        state -> Nullable<Text>,
    }
}

diesel::joinable!(combatants -> encounters (encounter_id));
diesel::joinable!(effects -> encounters (encounter_id));
diesel::joinable!(events -> encounters (encounter_id));
diesel::joinable!(encounter_history -> encounters (encounter_id));
diesel::allow_tables_to_appear_in_same_query!(
    encounters,
    combatants,
    effects,
    events,
    encounter_history,
    api_keys,
    idempotency_records
);

diesel::table! {
    viewers (id) {
        id -> Text,
        tenant -> Text,
        encounter_id -> Text,
        token_hash -> Text,
        label -> Nullable<Text>,
        created_at -> Text,
        expires_at -> Nullable<Text>,
        revoked_at -> Nullable<Text>,
    }
}

diesel::table! {
    webhooks (id) {
        id -> Text,
        tenant -> Text,
        url -> Text,
        kinds -> Text,
        encounter_id -> Nullable<Text>,
        format -> Text,
        secret -> Text,
        created_at -> Text,
    }
}

diesel::table! {
    webhook_deliveries (n) {
        n -> BigInt,
        id -> Text,
        webhook_id -> Text,
        encounter_id -> Text,
        seq -> BigInt,
        kind -> Text,
        event_at -> Text,
        summary -> Text,
        status -> Text,
        failures -> Integer,
        attempts -> Integer,
        next_attempt_ms -> Nullable<BigInt>,
        created_at -> Text,
    }
}

diesel::table! {
    webhook_attempts (delivery_n, attempt) {
        delivery_n -> BigInt,
        attempt -> Integer,
        at_ms -> BigInt,
        status_code -> Nullable<Integer>,
        error -> Nullable<Text>,
    }
}

diesel::joinable!(webhook_deliveries -> webhooks (webhook_id));
diesel::allow_tables_to_appear_in_same_query!(events, webhooks, webhook_deliveries, webhook_attempts);
