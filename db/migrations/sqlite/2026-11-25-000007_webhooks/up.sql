-- Webhook subscriptions and their durable outbox (see `db/src/store/webhooks.rs` and
-- `outbox.rs`). A delivery row is written in the same transaction as the event it announces, so
-- a crash loses none; the deliverer sends pending rows and records every attempt.
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY NOT NULL,
    tenant TEXT NOT NULL,
    url TEXT NOT NULL,
    -- JSON array of event kinds; empty = every kind.
    kinds TEXT NOT NULL,
    encounter_id TEXT,
    format TEXT NOT NULL,
    -- `whsec_…`: needed in clear to sign each delivery; never listed.
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX webhooks_by_tenant ON webhooks (tenant, created_at);

CREATE TABLE webhook_deliveries (
    -- Order of writing: the page cursor of `GET /v1/webhooks/{id}/deliveries`.
    n INTEGER PRIMARY KEY,
    -- `msg_…`, the `webhook-id` of every attempt (derived from subscription, encounter and seq,
    -- so unique without an index of its own: rows are found by `n`).
    id TEXT NOT NULL,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    encounter_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    event_at TEXT NOT NULL,
    -- The event's one-line summary; its data is read from the log when it is sent (so a change
    -- writes a short row per delivery, not a second copy of the event).
    summary TEXT NOT NULL,
    -- pending | delivered | failed
    status TEXT NOT NULL,
    -- Failed attempts counted towards giving up (a rate-limit answer is not one).
    failures INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    -- Unix milliseconds; NULL once delivered or failed.
    next_attempt_ms BIGINT,
    created_at TEXT NOT NULL
);
-- Pending rows in order of writing, with what picking due ones filters on, so picking a page
-- reads this index only and stops at the page. (Not a partial index: the store binds `status` as
-- a parameter, which a partial index's WHERE cannot be matched against.)
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (status, n, next_attempt_ms, webhook_id);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, n);

CREATE TABLE webhook_attempts (
    delivery_n INTEGER NOT NULL REFERENCES webhook_deliveries (n) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    at_ms BIGINT NOT NULL,
    status_code INTEGER,
    error TEXT,
    PRIMARY KEY (delivery_n, attempt)
);
