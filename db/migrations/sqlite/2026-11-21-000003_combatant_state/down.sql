ALTER TABLE combatants DROP COLUMN state;
ALTER TABLE combatants DROP COLUMN delaying;
