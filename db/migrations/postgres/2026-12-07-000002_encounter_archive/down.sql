DROP INDEX encounters_by_status;
ALTER TABLE encounters DROP COLUMN archived_at;
