ALTER TABLE combatants DROP COLUMN creature_id;
DROP INDEX creatures_by_name;
DROP TABLE creatures;
