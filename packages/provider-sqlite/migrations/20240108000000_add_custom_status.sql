-- Custom status lives on the instance, so it survives continue-as-new; the version counts changes.
ALTER TABLE instances ADD COLUMN custom_status TEXT;
ALTER TABLE instances ADD COLUMN custom_status_version INTEGER NOT NULL DEFAULT 0;
