-- Back to whole snapshots only: the diffs cannot be turned back into snapshots, so they are
-- dropped (undo then reaches only the snapshots still kept).
CREATE TABLE encounter_history_snapshots (
    encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    slot INTEGER NOT NULL,
    version BIGINT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (encounter_id, slot)
);
INSERT INTO encounter_history_snapshots (encounter_id, slot, version, state)
    SELECT encounter_id, slot, version, state FROM encounter_history WHERE state IS NOT NULL;
DROP TABLE encounter_history;
ALTER TABLE encounter_history_snapshots RENAME TO encounter_history;
