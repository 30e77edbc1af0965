-- Stats over long ranges read whole months from a monthly roll-up of visit_dim_stats, and only the days of the
-- months the range cuts into from visit_dim_stats itself (issue 10; docs/adr/0013-monthly-dimension-roll-ups.md).

-- Day first: a request reads only the days it asks for (at most two partial months, about 61 days), where the
-- label-first key of V10 made every request read all of the link's rows (73,000 for a year of 200 labels a day).
ALTER TABLE visit_dim_stats DROP PRIMARY KEY;
ALTER TABLE visit_dim_stats ADD PRIMARY KEY (code, stat_date, dim, label);

-- The same counters per calendar month (UTC): stat_month is the month's first day. The count flusher adds each
-- delta to visit_dim_stats and here in the same transaction, so a month row always equals the sum of its days.
CREATE TABLE visit_dim_month (
    code       VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    stat_month DATE         NOT NULL,
    dim        TINYINT      NOT NULL,
    label      VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    visits     BIGINT       NOT NULL DEFAULT 0,
    bot_visits BIGINT       NOT NULL DEFAULT 0,
    PRIMARY KEY (code, stat_month, dim, label)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

INSERT INTO visit_dim_month (code, stat_month, dim, label, visits, bot_visits)
SELECT code, stat_month, dim, label, SUM(visits), SUM(bot_visits)
FROM (SELECT code, CAST(TIMESTAMPADD(DAY, 1 - EXTRACT(DAY FROM stat_date), stat_date) AS DATE) AS stat_month, dim,
             label, visits, bot_visits
      FROM visit_dim_stats) d
GROUP BY code, stat_month, dim, label;
