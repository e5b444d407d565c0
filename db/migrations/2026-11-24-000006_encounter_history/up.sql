-- The encounter's recent states, for undo: one snapshot (JSON) per version it had before a
-- change, written in the change's own transaction and pruned to the last versions (see
-- `db/src/store/history.rs` for the depth).
CREATE TABLE encounter_history (
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    version BIGINT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (encounter_id, version)
);
