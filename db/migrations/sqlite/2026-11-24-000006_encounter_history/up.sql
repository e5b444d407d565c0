-- The encounter's recent states, for undo: one snapshot (JSON) per version it had before a
-- change, written in the change's own transaction. A ring: version V goes to slot V mod 50 (see
-- `db/src/store/history.rs` for the depth), replacing the version 50 older, so the table holds at
-- most 50 rows per encounter and each change writes one row with one statement.
CREATE TABLE encounter_history (
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    slot INTEGER NOT NULL,
    version BIGINT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (encounter_id, slot)
);
