-- When a link's visits were last deleted (DELETE /rest/v3/short-urls/{shortCode}/visits). Pods look here once per
-- shortgate.visit.sketch-flush-interval: a unique-visitor sketch is written whole, so a sketch a pod started before
-- the deletion is dropped with the row it wrote, instead of bringing the deleted visitors back. One row per link.
CREATE TABLE visit_reset (
    code     VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    reset_at DATETIME(3) NOT NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE INDEX visit_reset_at ON visit_reset (reset_at);
