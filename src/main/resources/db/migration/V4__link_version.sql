-- A per-link version, so concurrent PATCHes are applied one after the other instead of one silently undoing
-- the other's fields (a PATCH writes only when the version it read is still current, and re-reads otherwise).
ALTER TABLE link ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
