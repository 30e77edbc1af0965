-- Orphan visits: GETs on the traffic port that reached no link (Shlink's invalid_short_url, base_url, regular_404).
-- Raw rows come through the same bounded buffer and batches as the visit table's, and are shed and kept for
-- shortgate.visit.raw-retention like them. type: 1 invalid_short_url, 2 base_url, 3 regular_404. visited_path is the
-- path and query asked for, cut to 2048 characters. Ids are visit ids: they start with the second.
CREATE TABLE orphan_visit (
    id              BINARY(12)    NOT NULL,
    type            TINYINT       NOT NULL,
    visited_path    VARCHAR(2048) NOT NULL,
    visited_at      DATETIME(3)   NOT NULL,
    client_id       CHAR(64)      CHARACTER SET ascii NOT NULL,
    ip              VARCHAR(45)   NULL,
    user_agent      VARCHAR(4096) NULL,
    referer         VARCHAR(4096) NULL,
    country         CHAR(2)       NULL,
    city            VARCHAR(128)  NULL,
    browser         VARCHAR(128)  NULL,
    browser_version VARCHAR(64)   NULL,
    os              VARCHAR(128)  NULL,
    device_class    VARCHAR(64)   NULL,
    bot             BOOLEAN       NOT NULL DEFAULT FALSE,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The newest-first list of one type.
CREATE INDEX orphan_visit_type_id ON orphan_visit (type, id);

-- Exact counts per UTC day and type, upserted by the count flusher in the same transaction as link_stats (and
-- under the same visit_flush id). No per-path counts: a flood of random paths adds nothing here but a number.
CREATE TABLE orphan_visit_stats (
    stat_date  DATE    NOT NULL,
    type       TINYINT NOT NULL,
    visits     BIGINT  NOT NULL DEFAULT 0,
    bot_visits BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (stat_date, type)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
