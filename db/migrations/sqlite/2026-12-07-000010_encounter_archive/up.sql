-- Issue 29 item 4: an ended encounter may be archived (hidden from the default list, kept from
-- retention); retention finds ended encounters by the time of their last change.
ALTER TABLE encounters ADD COLUMN archived_at TEXT;
CREATE INDEX encounters_by_status ON encounters (status, updated_at);
