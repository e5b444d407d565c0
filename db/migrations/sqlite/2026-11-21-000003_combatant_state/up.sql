-- Combatants holding their action, and the ruleset's engine-managed combat state (JSON).
ALTER TABLE combatants ADD COLUMN delaying BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE combatants ADD COLUMN state TEXT NOT NULL DEFAULT '"none"';
