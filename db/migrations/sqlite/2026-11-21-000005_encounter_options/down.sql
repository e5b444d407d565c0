ALTER TABLE encounters DROP COLUMN options;
