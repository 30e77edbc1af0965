-- Stats are read from aggregates from here on: link_stats (per link and UTC day), visit_dim_stats (per link, day,
-- dimension and label) and visit_sketch (unique-visitor sketches). Each pod counts visits in memory and upserts
-- the deltas every shortgate.visit.counts-flush-interval, recording the flush in visit_flush in the same
-- transaction, so a retried flush is never counted twice. Raw visit rows serve the raw-visit API and are deleted
-- after shortgate.visit.raw-retention; their ids start with the second, so retention deletes by id range.

-- Nothing reads raw visits by (code, visited_at) any more, and every secondary index is a write per row.
DROP INDEX visit_code_visited_at ON visit;

-- Per-dimension counters. dim: 1 country, 2 browser, 3 operating system, 4 device class, 5 referrer host.
-- `visits` counts every visit with this label, bots included; `bot_visits` those made by bots. A pod keeps at most
-- shortgate.visit.max-labels labels per link, day and dimension; the rest are counted under 'other'.
-- The key puts the label before the day: a top-ten query reads one link's dimension in label order and sums each
-- label's days as it goes, with no temporary table (on MariaDB 10.11 about 4x faster over 365 days than date first).
CREATE TABLE visit_dim_stats (
    code       VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    stat_date  DATE         NOT NULL,
    dim        TINYINT      NOT NULL,
    label      VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    visits     BIGINT       NOT NULL DEFAULT 0,
    bot_visits BIGINT       NOT NULL DEFAULT 0,
    PRIMARY KEY (code, dim, label, stat_date)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Unique visitors: one HyperLogLog sketch (Apache DataSketches HLL_4, lgK 12, compact bytes) per link, UTC day and
-- writer (a pod's sketch instance). Reads merge every writer's sketch over the days asked for.
-- `visitors` holds every visitor; `human_visitors` those not classed as bots.
CREATE TABLE visit_sketch (
    code           VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    stat_date      DATE        NOT NULL,
    writer         BINARY(8)   NOT NULL,
    visitors       VARBINARY(8192) NOT NULL,
    human_visitors VARBINARY(8192) NOT NULL,
    PRIMARY KEY (code, stat_date, writer)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Count flushes already applied, by writer (a pod's identity) and sequence number: written in the same
-- transaction as the counters, so a flush whose commit was acknowledged late is recognised and not applied twice.
CREATE TABLE visit_flush (
    writer     BINARY(8)   NOT NULL,
    seq        BIGINT      NOT NULL,
    flushed_at DATETIME(3) NOT NULL,
    PRIMARY KEY (writer, seq)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The dimensions of visits written before this version, from their raw rows (referrer hosts and unique visitors
-- start with this version).
INSERT INTO visit_dim_stats (code, stat_date, dim, label, visits, bot_visits)
SELECT code, CAST(visited_at AS DATE), 1, country, COUNT(*), SUM(CASE WHEN bot THEN 1 ELSE 0 END)
FROM visit WHERE country IS NOT NULL GROUP BY code, CAST(visited_at AS DATE), country;
INSERT INTO visit_dim_stats (code, stat_date, dim, label, visits, bot_visits)
SELECT code, CAST(visited_at AS DATE), 2, browser, COUNT(*), SUM(CASE WHEN bot THEN 1 ELSE 0 END)
FROM visit WHERE browser IS NOT NULL GROUP BY code, CAST(visited_at AS DATE), browser;
INSERT INTO visit_dim_stats (code, stat_date, dim, label, visits, bot_visits)
SELECT code, CAST(visited_at AS DATE), 3, os, COUNT(*), SUM(CASE WHEN bot THEN 1 ELSE 0 END)
FROM visit WHERE os IS NOT NULL GROUP BY code, CAST(visited_at AS DATE), os;
INSERT INTO visit_dim_stats (code, stat_date, dim, label, visits, bot_visits)
SELECT code, CAST(visited_at AS DATE), 4, device_class, COUNT(*), SUM(CASE WHEN bot THEN 1 ELSE 0 END)
FROM visit WHERE device_class IS NOT NULL GROUP BY code, CAST(visited_at AS DATE), device_class;
