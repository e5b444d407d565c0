-- The ruleset's settings for the encounter (JSON), e.g. adeva-d100's Lethal Damage table.
ALTER TABLE encounters ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
