-- Encounters and their combatants, effects and append-only event log.
-- Timestamps are RFC 3339 UTC text written by SQLite itself.
CREATE TABLE encounters (
    id TEXT PRIMARY KEY NOT NULL,
    ruleset TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL,
    current_combatant TEXT,
    version BIGINT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX encounters_by_creation ON encounters (created_at, id);

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
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (encounter_id, seq)
);
