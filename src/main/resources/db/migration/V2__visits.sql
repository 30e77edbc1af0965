-- Visits, written in batches by the visit pipeline. One migration set serves MySQL/MariaDB and H2 in MySQL mode.
-- `id` is a 96-bit ObjectId-layout id (4-byte seconds, 5-byte process identity, 3-byte counter), so ids sort
-- roughly by time and pods need no coordination. Times are UTC. `ip` is anonymised unless raw storage is on.
CREATE TABLE visit (
    id              BINARY(12)    NOT NULL,
    code            VARCHAR(64)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
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

-- Stats over a date range, and the newest-first visit list (keyset on id).
CREATE INDEX visit_code_visited_at ON visit (code, visited_at);
CREATE INDEX visit_code_id ON visit (code, id);

-- Per-link, per-day (UTC) counters, upserted once per batch. `visits` counts every visit, bots included.
CREATE TABLE link_stats (
    code       VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    stat_date  DATE        NOT NULL,
    visits     BIGINT      NOT NULL DEFAULT 0,
    bot_visits BIGINT      NOT NULL DEFAULT 0,
    PRIMARY KEY (code, stat_date)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
