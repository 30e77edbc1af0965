-- Orphan visits record their short domain (issue 26): the id of the domain the request's host picked (0 is the default
-- domain, which has no row; an unknown host answered as the default domain counts as it). Online on MariaDB:
-- - the column is appended with a default, an instant, metadata-only change (ALGORITHM=INSTANT makes MariaDB refuse
--   rather than rebuild the table); every existing orphan visit was made before domains existed, so 0 is true of it,
--   and a pod of the previous build keeps inserting rows without the column, which get 0;
-- - the index that lists one domain's orphan visits newest first is built in place while rows are written
--   (LOCK=NONE), without copying the table. The /*M! ... */ clauses are MariaDB's; H2 reads them as comments.
ALTER TABLE orphan_visit ADD COLUMN domain_id INT NOT NULL DEFAULT 0 /*M!100300 , ALGORITHM=INSTANT */;

CREATE INDEX orphan_visit_domain_id ON orphan_visit (domain_id, id) /*M! ALGORITHM=INPLACE LOCK=NONE */;

-- Exact orphan-visit counts of the domains other than the default one, per UTC day and type, upserted by the count
-- flusher in the same transaction as orphan_visit_stats, which keeps counting every orphan visit of every domain
-- (so its totals mean what they did). The default domain's counts are orphan_visit_stats less these: every orphan
-- visit counted before this table existed was the default domain's. A new table: nothing existing is rewritten.
CREATE TABLE orphan_visit_domain_stats (
    domain_id  INT     NOT NULL,
    stat_date  DATE    NOT NULL,
    type       TINYINT NOT NULL,
    visits     BIGINT  NOT NULL DEFAULT 0,
    bot_visits BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (domain_id, stat_date, type)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
