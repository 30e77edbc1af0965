-- The 62-table layout (shortgate.storage.table-split=first-char; docs/adr/0014-link-table-split.md).
--
-- link_00 ... link_61 hold the links whose code starts with the character at that index of the code alphabet
-- 0-9a-zA-Z (link_00 '0', link_10 'a', link_36 'A', link_61 'Z'). They have the columns and indexes of `link` as of
-- V20, each with its own index names (H2 names indexes per schema). Every table is created in both layouts; with
-- table-split=none they stay empty. A migration that changes `link` must change the 62 tables and the view alike.
--
-- link_create_key: a create key (V20) is unique across the 62 tables only through this table. A create in the split
-- layout claims its key here in the same transaction as its row; a change or a delete that clears a row's key drops
-- the claim in the same transaction. Rows moved from `link` bring their claims along.
--
-- link_all: every link of both layouts (`link` and the 62 tables), for the reads that do not know the code (find-if-
-- exists by URL hash, listings, the code guard). A row being moved is in exactly one of them at any instant.

-- codes starting with '0'
CREATE TABLE link_00 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_00_long_url_hash ON link_00 (long_url_hash);
CREATE INDEX link_00_created_at ON link_00 (created_at);
CREATE INDEX link_00_api_key_id ON link_00 (api_key_id, created_at);
CREATE UNIQUE INDEX link_00_create_key ON link_00 (create_key);

-- codes starting with '1'
CREATE TABLE link_01 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_01_long_url_hash ON link_01 (long_url_hash);
CREATE INDEX link_01_created_at ON link_01 (created_at);
CREATE INDEX link_01_api_key_id ON link_01 (api_key_id, created_at);
CREATE UNIQUE INDEX link_01_create_key ON link_01 (create_key);

-- codes starting with '2'
CREATE TABLE link_02 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_02_long_url_hash ON link_02 (long_url_hash);
CREATE INDEX link_02_created_at ON link_02 (created_at);
CREATE INDEX link_02_api_key_id ON link_02 (api_key_id, created_at);
CREATE UNIQUE INDEX link_02_create_key ON link_02 (create_key);

-- codes starting with '3'
CREATE TABLE link_03 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_03_long_url_hash ON link_03 (long_url_hash);
CREATE INDEX link_03_created_at ON link_03 (created_at);
CREATE INDEX link_03_api_key_id ON link_03 (api_key_id, created_at);
CREATE UNIQUE INDEX link_03_create_key ON link_03 (create_key);

-- codes starting with '4'
CREATE TABLE link_04 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_04_long_url_hash ON link_04 (long_url_hash);
CREATE INDEX link_04_created_at ON link_04 (created_at);
CREATE INDEX link_04_api_key_id ON link_04 (api_key_id, created_at);
CREATE UNIQUE INDEX link_04_create_key ON link_04 (create_key);

-- codes starting with '5'
CREATE TABLE link_05 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_05_long_url_hash ON link_05 (long_url_hash);
CREATE INDEX link_05_created_at ON link_05 (created_at);
CREATE INDEX link_05_api_key_id ON link_05 (api_key_id, created_at);
CREATE UNIQUE INDEX link_05_create_key ON link_05 (create_key);

-- codes starting with '6'
CREATE TABLE link_06 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_06_long_url_hash ON link_06 (long_url_hash);
CREATE INDEX link_06_created_at ON link_06 (created_at);
CREATE INDEX link_06_api_key_id ON link_06 (api_key_id, created_at);
CREATE UNIQUE INDEX link_06_create_key ON link_06 (create_key);

-- codes starting with '7'
CREATE TABLE link_07 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_07_long_url_hash ON link_07 (long_url_hash);
CREATE INDEX link_07_created_at ON link_07 (created_at);
CREATE INDEX link_07_api_key_id ON link_07 (api_key_id, created_at);
CREATE UNIQUE INDEX link_07_create_key ON link_07 (create_key);

-- codes starting with '8'
CREATE TABLE link_08 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_08_long_url_hash ON link_08 (long_url_hash);
CREATE INDEX link_08_created_at ON link_08 (created_at);
CREATE INDEX link_08_api_key_id ON link_08 (api_key_id, created_at);
CREATE UNIQUE INDEX link_08_create_key ON link_08 (create_key);

-- codes starting with '9'
CREATE TABLE link_09 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_09_long_url_hash ON link_09 (long_url_hash);
CREATE INDEX link_09_created_at ON link_09 (created_at);
CREATE INDEX link_09_api_key_id ON link_09 (api_key_id, created_at);
CREATE UNIQUE INDEX link_09_create_key ON link_09 (create_key);

-- codes starting with 'a'
CREATE TABLE link_10 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_10_long_url_hash ON link_10 (long_url_hash);
CREATE INDEX link_10_created_at ON link_10 (created_at);
CREATE INDEX link_10_api_key_id ON link_10 (api_key_id, created_at);
CREATE UNIQUE INDEX link_10_create_key ON link_10 (create_key);

-- codes starting with 'b'
CREATE TABLE link_11 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_11_long_url_hash ON link_11 (long_url_hash);
CREATE INDEX link_11_created_at ON link_11 (created_at);
CREATE INDEX link_11_api_key_id ON link_11 (api_key_id, created_at);
CREATE UNIQUE INDEX link_11_create_key ON link_11 (create_key);

-- codes starting with 'c'
CREATE TABLE link_12 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_12_long_url_hash ON link_12 (long_url_hash);
CREATE INDEX link_12_created_at ON link_12 (created_at);
CREATE INDEX link_12_api_key_id ON link_12 (api_key_id, created_at);
CREATE UNIQUE INDEX link_12_create_key ON link_12 (create_key);

-- codes starting with 'd'
CREATE TABLE link_13 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_13_long_url_hash ON link_13 (long_url_hash);
CREATE INDEX link_13_created_at ON link_13 (created_at);
CREATE INDEX link_13_api_key_id ON link_13 (api_key_id, created_at);
CREATE UNIQUE INDEX link_13_create_key ON link_13 (create_key);

-- codes starting with 'e'
CREATE TABLE link_14 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_14_long_url_hash ON link_14 (long_url_hash);
CREATE INDEX link_14_created_at ON link_14 (created_at);
CREATE INDEX link_14_api_key_id ON link_14 (api_key_id, created_at);
CREATE UNIQUE INDEX link_14_create_key ON link_14 (create_key);

-- codes starting with 'f'
CREATE TABLE link_15 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_15_long_url_hash ON link_15 (long_url_hash);
CREATE INDEX link_15_created_at ON link_15 (created_at);
CREATE INDEX link_15_api_key_id ON link_15 (api_key_id, created_at);
CREATE UNIQUE INDEX link_15_create_key ON link_15 (create_key);

-- codes starting with 'g'
CREATE TABLE link_16 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_16_long_url_hash ON link_16 (long_url_hash);
CREATE INDEX link_16_created_at ON link_16 (created_at);
CREATE INDEX link_16_api_key_id ON link_16 (api_key_id, created_at);
CREATE UNIQUE INDEX link_16_create_key ON link_16 (create_key);

-- codes starting with 'h'
CREATE TABLE link_17 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_17_long_url_hash ON link_17 (long_url_hash);
CREATE INDEX link_17_created_at ON link_17 (created_at);
CREATE INDEX link_17_api_key_id ON link_17 (api_key_id, created_at);
CREATE UNIQUE INDEX link_17_create_key ON link_17 (create_key);

-- codes starting with 'i'
CREATE TABLE link_18 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_18_long_url_hash ON link_18 (long_url_hash);
CREATE INDEX link_18_created_at ON link_18 (created_at);
CREATE INDEX link_18_api_key_id ON link_18 (api_key_id, created_at);
CREATE UNIQUE INDEX link_18_create_key ON link_18 (create_key);

-- codes starting with 'j'
CREATE TABLE link_19 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_19_long_url_hash ON link_19 (long_url_hash);
CREATE INDEX link_19_created_at ON link_19 (created_at);
CREATE INDEX link_19_api_key_id ON link_19 (api_key_id, created_at);
CREATE UNIQUE INDEX link_19_create_key ON link_19 (create_key);

-- codes starting with 'k'
CREATE TABLE link_20 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_20_long_url_hash ON link_20 (long_url_hash);
CREATE INDEX link_20_created_at ON link_20 (created_at);
CREATE INDEX link_20_api_key_id ON link_20 (api_key_id, created_at);
CREATE UNIQUE INDEX link_20_create_key ON link_20 (create_key);

-- codes starting with 'l'
CREATE TABLE link_21 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_21_long_url_hash ON link_21 (long_url_hash);
CREATE INDEX link_21_created_at ON link_21 (created_at);
CREATE INDEX link_21_api_key_id ON link_21 (api_key_id, created_at);
CREATE UNIQUE INDEX link_21_create_key ON link_21 (create_key);

-- codes starting with 'm'
CREATE TABLE link_22 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_22_long_url_hash ON link_22 (long_url_hash);
CREATE INDEX link_22_created_at ON link_22 (created_at);
CREATE INDEX link_22_api_key_id ON link_22 (api_key_id, created_at);
CREATE UNIQUE INDEX link_22_create_key ON link_22 (create_key);

-- codes starting with 'n'
CREATE TABLE link_23 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_23_long_url_hash ON link_23 (long_url_hash);
CREATE INDEX link_23_created_at ON link_23 (created_at);
CREATE INDEX link_23_api_key_id ON link_23 (api_key_id, created_at);
CREATE UNIQUE INDEX link_23_create_key ON link_23 (create_key);

-- codes starting with 'o'
CREATE TABLE link_24 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_24_long_url_hash ON link_24 (long_url_hash);
CREATE INDEX link_24_created_at ON link_24 (created_at);
CREATE INDEX link_24_api_key_id ON link_24 (api_key_id, created_at);
CREATE UNIQUE INDEX link_24_create_key ON link_24 (create_key);

-- codes starting with 'p'
CREATE TABLE link_25 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_25_long_url_hash ON link_25 (long_url_hash);
CREATE INDEX link_25_created_at ON link_25 (created_at);
CREATE INDEX link_25_api_key_id ON link_25 (api_key_id, created_at);
CREATE UNIQUE INDEX link_25_create_key ON link_25 (create_key);

-- codes starting with 'q'
CREATE TABLE link_26 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_26_long_url_hash ON link_26 (long_url_hash);
CREATE INDEX link_26_created_at ON link_26 (created_at);
CREATE INDEX link_26_api_key_id ON link_26 (api_key_id, created_at);
CREATE UNIQUE INDEX link_26_create_key ON link_26 (create_key);

-- codes starting with 'r'
CREATE TABLE link_27 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_27_long_url_hash ON link_27 (long_url_hash);
CREATE INDEX link_27_created_at ON link_27 (created_at);
CREATE INDEX link_27_api_key_id ON link_27 (api_key_id, created_at);
CREATE UNIQUE INDEX link_27_create_key ON link_27 (create_key);

-- codes starting with 's'
CREATE TABLE link_28 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_28_long_url_hash ON link_28 (long_url_hash);
CREATE INDEX link_28_created_at ON link_28 (created_at);
CREATE INDEX link_28_api_key_id ON link_28 (api_key_id, created_at);
CREATE UNIQUE INDEX link_28_create_key ON link_28 (create_key);

-- codes starting with 't'
CREATE TABLE link_29 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_29_long_url_hash ON link_29 (long_url_hash);
CREATE INDEX link_29_created_at ON link_29 (created_at);
CREATE INDEX link_29_api_key_id ON link_29 (api_key_id, created_at);
CREATE UNIQUE INDEX link_29_create_key ON link_29 (create_key);

-- codes starting with 'u'
CREATE TABLE link_30 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_30_long_url_hash ON link_30 (long_url_hash);
CREATE INDEX link_30_created_at ON link_30 (created_at);
CREATE INDEX link_30_api_key_id ON link_30 (api_key_id, created_at);
CREATE UNIQUE INDEX link_30_create_key ON link_30 (create_key);

-- codes starting with 'v'
CREATE TABLE link_31 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_31_long_url_hash ON link_31 (long_url_hash);
CREATE INDEX link_31_created_at ON link_31 (created_at);
CREATE INDEX link_31_api_key_id ON link_31 (api_key_id, created_at);
CREATE UNIQUE INDEX link_31_create_key ON link_31 (create_key);

-- codes starting with 'w'
CREATE TABLE link_32 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_32_long_url_hash ON link_32 (long_url_hash);
CREATE INDEX link_32_created_at ON link_32 (created_at);
CREATE INDEX link_32_api_key_id ON link_32 (api_key_id, created_at);
CREATE UNIQUE INDEX link_32_create_key ON link_32 (create_key);

-- codes starting with 'x'
CREATE TABLE link_33 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_33_long_url_hash ON link_33 (long_url_hash);
CREATE INDEX link_33_created_at ON link_33 (created_at);
CREATE INDEX link_33_api_key_id ON link_33 (api_key_id, created_at);
CREATE UNIQUE INDEX link_33_create_key ON link_33 (create_key);

-- codes starting with 'y'
CREATE TABLE link_34 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_34_long_url_hash ON link_34 (long_url_hash);
CREATE INDEX link_34_created_at ON link_34 (created_at);
CREATE INDEX link_34_api_key_id ON link_34 (api_key_id, created_at);
CREATE UNIQUE INDEX link_34_create_key ON link_34 (create_key);

-- codes starting with 'z'
CREATE TABLE link_35 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_35_long_url_hash ON link_35 (long_url_hash);
CREATE INDEX link_35_created_at ON link_35 (created_at);
CREATE INDEX link_35_api_key_id ON link_35 (api_key_id, created_at);
CREATE UNIQUE INDEX link_35_create_key ON link_35 (create_key);

-- codes starting with 'A'
CREATE TABLE link_36 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_36_long_url_hash ON link_36 (long_url_hash);
CREATE INDEX link_36_created_at ON link_36 (created_at);
CREATE INDEX link_36_api_key_id ON link_36 (api_key_id, created_at);
CREATE UNIQUE INDEX link_36_create_key ON link_36 (create_key);

-- codes starting with 'B'
CREATE TABLE link_37 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_37_long_url_hash ON link_37 (long_url_hash);
CREATE INDEX link_37_created_at ON link_37 (created_at);
CREATE INDEX link_37_api_key_id ON link_37 (api_key_id, created_at);
CREATE UNIQUE INDEX link_37_create_key ON link_37 (create_key);

-- codes starting with 'C'
CREATE TABLE link_38 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_38_long_url_hash ON link_38 (long_url_hash);
CREATE INDEX link_38_created_at ON link_38 (created_at);
CREATE INDEX link_38_api_key_id ON link_38 (api_key_id, created_at);
CREATE UNIQUE INDEX link_38_create_key ON link_38 (create_key);

-- codes starting with 'D'
CREATE TABLE link_39 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_39_long_url_hash ON link_39 (long_url_hash);
CREATE INDEX link_39_created_at ON link_39 (created_at);
CREATE INDEX link_39_api_key_id ON link_39 (api_key_id, created_at);
CREATE UNIQUE INDEX link_39_create_key ON link_39 (create_key);

-- codes starting with 'E'
CREATE TABLE link_40 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_40_long_url_hash ON link_40 (long_url_hash);
CREATE INDEX link_40_created_at ON link_40 (created_at);
CREATE INDEX link_40_api_key_id ON link_40 (api_key_id, created_at);
CREATE UNIQUE INDEX link_40_create_key ON link_40 (create_key);

-- codes starting with 'F'
CREATE TABLE link_41 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_41_long_url_hash ON link_41 (long_url_hash);
CREATE INDEX link_41_created_at ON link_41 (created_at);
CREATE INDEX link_41_api_key_id ON link_41 (api_key_id, created_at);
CREATE UNIQUE INDEX link_41_create_key ON link_41 (create_key);

-- codes starting with 'G'
CREATE TABLE link_42 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_42_long_url_hash ON link_42 (long_url_hash);
CREATE INDEX link_42_created_at ON link_42 (created_at);
CREATE INDEX link_42_api_key_id ON link_42 (api_key_id, created_at);
CREATE UNIQUE INDEX link_42_create_key ON link_42 (create_key);

-- codes starting with 'H'
CREATE TABLE link_43 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_43_long_url_hash ON link_43 (long_url_hash);
CREATE INDEX link_43_created_at ON link_43 (created_at);
CREATE INDEX link_43_api_key_id ON link_43 (api_key_id, created_at);
CREATE UNIQUE INDEX link_43_create_key ON link_43 (create_key);

-- codes starting with 'I'
CREATE TABLE link_44 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_44_long_url_hash ON link_44 (long_url_hash);
CREATE INDEX link_44_created_at ON link_44 (created_at);
CREATE INDEX link_44_api_key_id ON link_44 (api_key_id, created_at);
CREATE UNIQUE INDEX link_44_create_key ON link_44 (create_key);

-- codes starting with 'J'
CREATE TABLE link_45 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_45_long_url_hash ON link_45 (long_url_hash);
CREATE INDEX link_45_created_at ON link_45 (created_at);
CREATE INDEX link_45_api_key_id ON link_45 (api_key_id, created_at);
CREATE UNIQUE INDEX link_45_create_key ON link_45 (create_key);

-- codes starting with 'K'
CREATE TABLE link_46 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_46_long_url_hash ON link_46 (long_url_hash);
CREATE INDEX link_46_created_at ON link_46 (created_at);
CREATE INDEX link_46_api_key_id ON link_46 (api_key_id, created_at);
CREATE UNIQUE INDEX link_46_create_key ON link_46 (create_key);

-- codes starting with 'L'
CREATE TABLE link_47 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_47_long_url_hash ON link_47 (long_url_hash);
CREATE INDEX link_47_created_at ON link_47 (created_at);
CREATE INDEX link_47_api_key_id ON link_47 (api_key_id, created_at);
CREATE UNIQUE INDEX link_47_create_key ON link_47 (create_key);

-- codes starting with 'M'
CREATE TABLE link_48 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_48_long_url_hash ON link_48 (long_url_hash);
CREATE INDEX link_48_created_at ON link_48 (created_at);
CREATE INDEX link_48_api_key_id ON link_48 (api_key_id, created_at);
CREATE UNIQUE INDEX link_48_create_key ON link_48 (create_key);

-- codes starting with 'N'
CREATE TABLE link_49 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_49_long_url_hash ON link_49 (long_url_hash);
CREATE INDEX link_49_created_at ON link_49 (created_at);
CREATE INDEX link_49_api_key_id ON link_49 (api_key_id, created_at);
CREATE UNIQUE INDEX link_49_create_key ON link_49 (create_key);

-- codes starting with 'O'
CREATE TABLE link_50 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_50_long_url_hash ON link_50 (long_url_hash);
CREATE INDEX link_50_created_at ON link_50 (created_at);
CREATE INDEX link_50_api_key_id ON link_50 (api_key_id, created_at);
CREATE UNIQUE INDEX link_50_create_key ON link_50 (create_key);

-- codes starting with 'P'
CREATE TABLE link_51 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_51_long_url_hash ON link_51 (long_url_hash);
CREATE INDEX link_51_created_at ON link_51 (created_at);
CREATE INDEX link_51_api_key_id ON link_51 (api_key_id, created_at);
CREATE UNIQUE INDEX link_51_create_key ON link_51 (create_key);

-- codes starting with 'Q'
CREATE TABLE link_52 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_52_long_url_hash ON link_52 (long_url_hash);
CREATE INDEX link_52_created_at ON link_52 (created_at);
CREATE INDEX link_52_api_key_id ON link_52 (api_key_id, created_at);
CREATE UNIQUE INDEX link_52_create_key ON link_52 (create_key);

-- codes starting with 'R'
CREATE TABLE link_53 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_53_long_url_hash ON link_53 (long_url_hash);
CREATE INDEX link_53_created_at ON link_53 (created_at);
CREATE INDEX link_53_api_key_id ON link_53 (api_key_id, created_at);
CREATE UNIQUE INDEX link_53_create_key ON link_53 (create_key);

-- codes starting with 'S'
CREATE TABLE link_54 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_54_long_url_hash ON link_54 (long_url_hash);
CREATE INDEX link_54_created_at ON link_54 (created_at);
CREATE INDEX link_54_api_key_id ON link_54 (api_key_id, created_at);
CREATE UNIQUE INDEX link_54_create_key ON link_54 (create_key);

-- codes starting with 'T'
CREATE TABLE link_55 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_55_long_url_hash ON link_55 (long_url_hash);
CREATE INDEX link_55_created_at ON link_55 (created_at);
CREATE INDEX link_55_api_key_id ON link_55 (api_key_id, created_at);
CREATE UNIQUE INDEX link_55_create_key ON link_55 (create_key);

-- codes starting with 'U'
CREATE TABLE link_56 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_56_long_url_hash ON link_56 (long_url_hash);
CREATE INDEX link_56_created_at ON link_56 (created_at);
CREATE INDEX link_56_api_key_id ON link_56 (api_key_id, created_at);
CREATE UNIQUE INDEX link_56_create_key ON link_56 (create_key);

-- codes starting with 'V'
CREATE TABLE link_57 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_57_long_url_hash ON link_57 (long_url_hash);
CREATE INDEX link_57_created_at ON link_57 (created_at);
CREATE INDEX link_57_api_key_id ON link_57 (api_key_id, created_at);
CREATE UNIQUE INDEX link_57_create_key ON link_57 (create_key);

-- codes starting with 'W'
CREATE TABLE link_58 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_58_long_url_hash ON link_58 (long_url_hash);
CREATE INDEX link_58_created_at ON link_58 (created_at);
CREATE INDEX link_58_api_key_id ON link_58 (api_key_id, created_at);
CREATE UNIQUE INDEX link_58_create_key ON link_58 (create_key);

-- codes starting with 'X'
CREATE TABLE link_59 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_59_long_url_hash ON link_59 (long_url_hash);
CREATE INDEX link_59_created_at ON link_59 (created_at);
CREATE INDEX link_59_api_key_id ON link_59 (api_key_id, created_at);
CREATE UNIQUE INDEX link_59_create_key ON link_59 (create_key);

-- codes starting with 'Y'
CREATE TABLE link_60 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_60_long_url_hash ON link_60 (long_url_hash);
CREATE INDEX link_60_created_at ON link_60 (created_at);
CREATE INDEX link_60_api_key_id ON link_60 (api_key_id, created_at);
CREATE UNIQUE INDEX link_60_create_key ON link_60 (create_key);

-- codes starting with 'Z'
CREATE TABLE link_61 (
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
    forward_query   BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      DATETIME(3)   NULL,
    deleted_at      DATETIME(3)   NULL,
    version         BIGINT        NOT NULL DEFAULT 0,
    create_key      BINARY(32)    NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_61_long_url_hash ON link_61 (long_url_hash);
CREATE INDEX link_61_created_at ON link_61 (created_at);
CREATE INDEX link_61_api_key_id ON link_61 (api_key_id, created_at);
CREATE UNIQUE INDEX link_61_create_key ON link_61 (create_key);

CREATE TABLE link_create_key (
    create_key BINARY(32)  NOT NULL,
    code       VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    PRIMARY KEY (create_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX link_create_key_code ON link_create_key (code);

CREATE VIEW link_all AS
SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_00
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_01
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_02
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_03
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_04
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_05
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_06
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_07
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_08
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_09
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_10
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_11
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_12
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_13
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_14
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_15
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_16
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_17
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_18
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_19
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_20
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_21
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_22
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_23
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_24
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_25
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_26
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_27
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_28
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_29
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_30
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_31
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_32
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_33
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_34
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_35
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_36
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_37
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_38
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_39
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_40
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_41
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_42
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_43
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_44
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_45
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_46
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_47
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_48
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_49
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_50
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_51
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_52
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_53
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_54
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_55
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_56
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_57
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_58
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_59
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_60
UNION ALL SELECT code, long_url, long_url_hash, alias, redirect_status, created_at, expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key FROM link_61;
