-- Tenants own encounters; API keys (stored hashed) name a tenant; idempotent POSTs keep the
-- first response per tenant and key.
ALTER TABLE encounters ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default';
CREATE INDEX encounters_by_tenant ON encounters (tenant, created_at, id);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY NOT NULL,
    tenant TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    revoked_at TEXT
);

CREATE TABLE idempotency_records (
    tenant TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    headers TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tenant, key)
);
CREATE INDEX idempotency_records_by_age ON idempotency_records (created_at);
