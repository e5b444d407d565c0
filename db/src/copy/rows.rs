//! Every table's full row, column for column as `schema.rs` declares it, read from either
//! backend and written to PostgreSQL by `skirmish copy-data` (and compared by its tests).

use diesel::prelude::*;

/// Declares a row struct holding every column of one table (queryable from and insertable into
/// both backends through the shared schema).
macro_rules! full_row {
    ($row:ident, $table:ident { $($column:ident: $type:ty),* $(,)? }) => {
        #[doc = concat!("A whole `", stringify!($table), "` row.")]
        #[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable)]
        #[diesel(table_name = crate::schema::$table)]
        pub struct $row {
            $(pub $column: $type,)*
        }
    };
}

full_row!(EncounterRecord, encounters {
    id: String, ruleset: String, name: String, status: String, round: i32,
    current_combatant: Option<String>, version: i64, created_at: String, updated_at: String,
    tenant: String, options: String, archived_at: Option<String>,
});
full_row!(ApiKeyRecord, api_keys {
    id: String, tenant: String, key_hash: String, created_at: String, revoked_at: Option<String>,
});
full_row!(IdempotencyRecord, idempotency_records {
    tenant: String, key: String, fingerprint: String, status: i32, body: String, headers: String,
    created_at: String, encounter_id: Option<String>,
});
full_row!(CombatantRecord, combatants {
    encounter_id: String, id: String, position: i32, name: String, side: String, stats: String,
    initiative: Option<i32>, initiative_roll_off: String, initiative_explanation: Option<String>,
    surprised: bool, defeated: bool, hidden: bool, acted_this_round: bool, delaying: bool,
    state: String, public: bool, creature_id: Option<String>, group_name: Option<String>,
});
full_row!(
    TemplateRecord,
    templates {
        tenant: String,
        id: String,
        name: String,
        name_key: String,
        ruleset: String,
        encounter_name: String,
        options: String,
        combatants: String,
        created_at: String,
    }
);
full_row!(CreatureRecord, creatures {
    tenant: String, id: String, ruleset: String, name: String, name_key: String, stats: String,
    side: Option<String>, notes: Option<String>, hidden: bool, public: bool, created_at: String,
    updated_at: String,
});
full_row!(EffectRecord, effects { encounter_id: String, id: String, position: i32, data: String });
full_row!(
    EventRecord,
    events { encounter_id: String, seq: i64, kind: String, data: String, created_at: String }
);
full_row!(HistoryRecord, encounter_history {
    encounter_id: String, slot: i32, version: i64, diff: Option<Vec<u8>>, state: Option<String>,
});
full_row!(ViewerRecord, viewers {
    id: String, tenant: String, encounter_id: String, token_hash: String, label: Option<String>,
    created_at: String, expires_at: Option<String>, revoked_at: Option<String>,
});
full_row!(WebhookRecord, webhooks {
    id: String, tenant: String, url: String, kinds: String, encounter_id: Option<String>,
    format: String, secret: String, created_at: String,
});
full_row!(DeliveryRecord, webhook_deliveries {
    n: i64, id: String, webhook_id: String, encounter_id: String, seq: i64, kind: String,
    event_at: String, summary: String, status: String, failures: i32, attempts: i32,
    next_attempt_ms: Option<i64>, created_at: String,
});
full_row!(AttemptRecord, webhook_attempts {
    delivery_n: i64, attempt: i32, at_ms: i64, status_code: Option<i32>, error: Option<String>,
});
