DROP TABLE viewers;
ALTER TABLE combatants DROP COLUMN public;
