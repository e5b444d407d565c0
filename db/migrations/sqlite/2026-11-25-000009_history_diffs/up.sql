-- Undo's history keeps, per change, a reverse diff instead of a whole snapshot: the encounter
-- row's fields before the change and the earlier image of only the child rows it wrote, as CBOR
-- (see `db/src/store/reverse_diff.rs`). Same ring as before (version V in slot V mod 50, at most
-- 50 rows per encounter, one row written per change), now WITHOUT ROWID: the key is the table,
-- so replacing a slot touches one b-tree instead of a table and its key index.
-- The snapshots already stored are kept in `state` and still read as whole states (see
-- `db/src/store/history.rs`), so an undo across this migration works; each later change
-- replaces one of them with a diff.
CREATE TABLE encounter_history_diffs (
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    slot INTEGER NOT NULL,
    version BIGINT NOT NULL,
    diff BLOB,
    state TEXT,
    PRIMARY KEY (encounter_id, slot),
    CHECK ((diff IS NULL) <> (state IS NULL))
) WITHOUT ROWID;
INSERT INTO encounter_history_diffs (encounter_id, slot, version, state)
    SELECT encounter_id, slot, version, state FROM encounter_history;
DROP TABLE encounter_history;
ALTER TABLE encounter_history_diffs RENAME TO encounter_history;
