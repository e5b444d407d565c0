-- Issue 29 item 3: encounter templates, each tenant's saved setups (name, ruleset, options and
-- combatants as JSON), keyed by tenant first; listed by `name_key` (the name lower-cased by the
-- server, compared byte by byte as PostgreSQL's "C" collation does).
CREATE TABLE templates (
    tenant TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    encounter_name TEXT NOT NULL,
    options TEXT NOT NULL,
    combatants TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX templates_by_name ON templates (tenant, name_key, id);
