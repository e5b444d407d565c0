-- The whole schema on PostgreSQL, as the SQLite migrations (`../sqlite`) leave it: the same
-- tables, columns and keys, with PostgreSQL's types (BYTEA for BLOB, BIGSERIAL for SQLite's
-- implicit rowid). Timestamps are RFC 3339 UTC text with milliseconds, written by the store
-- (the defaults below write the same text).
CREATE FUNCTION skirmish_now() RETURNS TEXT LANGUAGE SQL STABLE AS
    $$ SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

CREATE TABLE encounters (
    id TEXT PRIMARY KEY NOT NULL,
    ruleset TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL,
    current_combatant TEXT,
    version BIGINT NOT NULL,
    created_at TEXT NOT NULL DEFAULT skirmish_now(),
    updated_at TEXT NOT NULL DEFAULT skirmish_now(),
    tenant TEXT NOT NULL DEFAULT 'default',
    options TEXT NOT NULL DEFAULT '{}',
    -- Insertion order, which lists follow (SQLite's rowid).
    rowid BIGSERIAL NOT NULL
);
CREATE INDEX encounters_by_creation ON encounters (created_at, id);
CREATE INDEX encounters_by_tenant ON encounters (tenant, rowid);

CREATE TABLE combatants (
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    side TEXT NOT NULL,
    stats TEXT NOT NULL,
    initiative INTEGER,
    initiative_roll_off TEXT NOT NULL DEFAULT '[]',
    initiative_explanation TEXT,
    surprised BOOLEAN NOT NULL,
    defeated BOOLEAN NOT NULL,
    hidden BOOLEAN NOT NULL,
    acted_this_round BOOLEAN NOT NULL,
    delaying BOOLEAN NOT NULL DEFAULT FALSE,
    state TEXT NOT NULL DEFAULT '"none"',
    public BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (encounter_id, id)
);

CREATE TABLE effects (
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    position INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (encounter_id, id)
);

CREATE TABLE events (
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT skirmish_now(),
    PRIMARY KEY (encounter_id, seq)
);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY NOT NULL,
    tenant TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT skirmish_now(),
    revoked_at TEXT
);

CREATE TABLE idempotency_records (
    tenant TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    headers TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT skirmish_now(),
    encounter_id TEXT,
    PRIMARY KEY (tenant, key)
);
CREATE INDEX idempotency_records_by_age ON idempotency_records (created_at);
CREATE INDEX idempotency_records_by_encounter ON idempotency_records (encounter_id);

-- Undo's ring of reverse diffs (see `db/src/store/history.rs`).
CREATE TABLE encounter_history (
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    slot INTEGER NOT NULL,
    version BIGINT NOT NULL,
    diff BYTEA,
    state TEXT,
    PRIMARY KEY (encounter_id, slot),
    CHECK ((diff IS NULL) <> (state IS NULL))
);

CREATE TABLE webhooks (
    id TEXT PRIMARY KEY NOT NULL,
    tenant TEXT NOT NULL,
    url TEXT NOT NULL,
    kinds TEXT NOT NULL,
    encounter_id TEXT,
    format TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX webhooks_by_tenant ON webhooks (tenant, created_at);

CREATE TABLE webhook_deliveries (
    n BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    encounter_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    event_at TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_ms BIGINT,
    created_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (status, n, next_attempt_ms, webhook_id);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, n);

CREATE TABLE webhook_attempts (
    delivery_n BIGINT NOT NULL REFERENCES webhook_deliveries (n) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    at_ms BIGINT NOT NULL,
    status_code INTEGER,
    error TEXT,
    PRIMARY KEY (delivery_n, attempt)
);

CREATE TABLE viewers (
    id TEXT PRIMARY KEY NOT NULL,
    tenant TEXT NOT NULL,
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT,
    created_at TEXT NOT NULL DEFAULT skirmish_now(),
    expires_at TEXT,
    revoked_at TEXT
);
CREATE INDEX viewers_by_encounter ON viewers (encounter_id, created_at);
