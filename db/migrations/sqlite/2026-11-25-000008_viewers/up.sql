-- Viewer links: read-only, encounter-scoped tokens (stored as SHA-256 digests, like API keys),
-- and a per-combatant `public` flag that lets viewers see its stat block and state.
ALTER TABLE combatants ADD COLUMN public BOOLEAN NOT NULL DEFAULT 0;

CREATE TABLE viewers (
    id TEXT PRIMARY KEY NOT NULL,
    tenant TEXT NOT NULL,
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at TEXT,
    revoked_at TEXT
);
CREATE INDEX viewers_by_encounter ON viewers (encounter_id, created_at);
