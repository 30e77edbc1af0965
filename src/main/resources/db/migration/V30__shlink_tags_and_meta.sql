-- Shlink's REST API (/rest/v3): tags on short links, and the few fields of Shlink's short URLs that Shortgate's own
-- link has no use for. Tags exist on their own (a tag outlives its last link, as in Shlink) and are renamed in one
-- row; names compare byte for byte, so "Tag" and "tag" are two tags.
CREATE TABLE tag (
    id   BIGINT       NOT NULL AUTO_INCREMENT,
    name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE UNIQUE INDEX tag_name ON tag (name);

CREATE TABLE link_tag (
    code   VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    tag_id BIGINT      NOT NULL,
    PRIMARY KEY (code, tag_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE INDEX link_tag_tag_id ON link_tag (tag_id, code);

-- title and crawlable are kept and shown; valid_since only ever holds a past instant (Shortgate does not hold a link
-- back until a future date; see docs/adr/0009-shlink-api.md).
CREATE TABLE link_shlink_meta (
    code        VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    title       VARCHAR(512) CHARACTER SET utf8mb4 NULL,
    crawlable   BOOLEAN      NOT NULL DEFAULT FALSE,
    valid_since DATETIME(3)  NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
