ALTER TABLE combatants DROP COLUMN group_name;
