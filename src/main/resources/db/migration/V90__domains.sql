-- Short domains (issue 26, docs/adr/0024-many-short-domains.md): the host names links are served on besides the
-- default one (the host of shortgate.base-url), which has no row and the id 0. `host` is lower-case punycode.
CREATE TABLE domains (
    id         INT          NOT NULL AUTO_INCREMENT,
    host       VARCHAR(253) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at DATETIME(3)  NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE UNIQUE INDEX domains_host ON domains (host);
