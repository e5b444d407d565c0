DROP INDEX idempotency_records_by_encounter;
ALTER TABLE idempotency_records DROP COLUMN encounter_id;
