DROP TABLE events;
DROP TABLE effects;
DROP TABLE combatants;
DROP TABLE encounters;
