-- The encounter an idempotent response reported on, so its records go when it is deleted.
ALTER TABLE idempotency_records ADD COLUMN encounter_id TEXT;
CREATE INDEX idempotency_records_by_encounter ON idempotency_records (encounter_id);
