-- Links. One migration set serves MySQL/MariaDB and H2 in MySQL mode.
-- `code` uses a binary collation: `aB` and `Ab` are two different codes.
-- `long_url` is compared byte for byte too; `long_url_hash` (SHA-256 of it) is the find-if-exists index.
CREATE TABLE link (
    code            VARCHAR(64)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    long_url        VARCHAR(4096) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    long_url_hash   BINARY(32)    NOT NULL,
    alias           BOOLEAN       NOT NULL DEFAULT FALSE,
    redirect_status SMALLINT      NOT NULL DEFAULT 302,
    created_at      DATETIME(3)   NOT NULL,
    expires_at      DATETIME(3)   NULL,
    max_visits      BIGINT        NULL,
    disabled        BOOLEAN       NOT NULL DEFAULT FALSE,
    api_key_id      BIGINT        NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE INDEX link_long_url_hash ON link (long_url_hash);
CREATE INDEX link_created_at ON link (created_at);

-- Settings the application makes once and every pod shares, such as a generated code-generation key.
CREATE TABLE shortgate_setting (
    setting_key   VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    setting_value VARCHAR(512) NOT NULL,
    PRIMARY KEY (setting_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
