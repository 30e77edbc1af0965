-- Link lifecycle: query forwarding, edits and tombstones. A deleted link keeps its row (deleted_at set), so its
-- code is never handed to another URL.
ALTER TABLE link ADD COLUMN forward_query BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE link ADD COLUMN updated_at DATETIME(3) NULL;
ALTER TABLE link ADD COLUMN deleted_at DATETIME(3) NULL;

-- API keys, stored only as SHA-256 hashes. scope is admin, create or read.
CREATE TABLE api_key (
    id         BIGINT       NOT NULL AUTO_INCREMENT,
    name       VARCHAR(100) NOT NULL,
    key_hash   BINARY(32)   NOT NULL,
    scope      VARCHAR(16)  NOT NULL,
    created_at DATETIME(3)  NOT NULL,
    revoked_at DATETIME(3)  NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE UNIQUE INDEX api_key_key_hash ON api_key (key_hash);
CREATE INDEX link_api_key_id ON link (api_key_id, created_at);
