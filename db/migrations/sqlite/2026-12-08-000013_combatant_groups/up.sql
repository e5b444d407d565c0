-- Issue 29 item 2: the named group a combatant shares initiative with.
ALTER TABLE combatants ADD COLUMN group_name TEXT;
