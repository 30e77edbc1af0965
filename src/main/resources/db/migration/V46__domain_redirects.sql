-- Where the traffic port sends what reached no link, per domain (Shlink's base URL, regular 404 and invalid short
-- URL redirects, set through PATCH /rest/v3/domains/redirects). Shortgate has only the default domain, keyed ''.
-- NULL means none of its own: the configured default (shortgate.not-found-redirects.*) applies, or a 404.
CREATE TABLE domain_redirect (
    domain                     VARCHAR(255)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    base_url_redirect          VARCHAR(2048) NULL,
    regular_404_redirect       VARCHAR(2048) NULL,
    invalid_short_url_redirect VARCHAR(2048) NULL,
    changed_at                 DATETIME(3)   NOT NULL,
    PRIMARY KEY (domain)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
