DROP TABLE idempotency_records;
DROP TABLE api_keys;
DROP INDEX encounters_by_tenant;
ALTER TABLE encounters DROP COLUMN tenant;
