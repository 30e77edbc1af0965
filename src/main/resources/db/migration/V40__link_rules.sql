-- Redirect rules and weighted splits of a link (issue 25, docs/adr/0018-redirect-rules-in-the-cached-link.md): one
-- row per link that has any, the whole set as JSON (dev.shortgate.link.LinkRules), read with the link in the same
-- statement and carried inside its cached value. A link without rules has no row. Written together with a bump of
-- the link's version, so a concurrent PATCH of the link re-reads it.
CREATE TABLE link_rules (
    code       VARCHAR(64)    CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    rules_json VARCHAR(16000) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    updated_at DATETIME(3)    NOT NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
