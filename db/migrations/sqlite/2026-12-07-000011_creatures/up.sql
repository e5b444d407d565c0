-- Issue 29 item 1: each tenant's creature library (stat blocks kept to add combatants from),
-- keyed by tenant first; `name_key` is the name lower-cased by the server, which lists sort
-- and filter on (byte order, as PostgreSQL's "C" collation). A combatant keeps the creature
-- it was added from.
CREATE TABLE creatures (
    tenant TEXT NOT NULL,
    id TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    stats TEXT NOT NULL,
    side TEXT,
    notes TEXT,
    hidden BOOLEAN NOT NULL DEFAULT 0,
    public BOOLEAN NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX creatures_by_name ON creatures (tenant, name_key, id);
ALTER TABLE combatants ADD COLUMN creature_id TEXT;
