-- Code strategies (shortgate.codegen.strategy).
--
-- create_key: SHA-256 of a generated link's URL, code length and find-if-exists settings, set on live, enabled
-- generated links only (a change or a delete clears it). Its unique key makes concurrent creates of the same link
-- settle on one row even when their candidates differ (the sequence and pool strategies), as the primary key does
-- for the hash strategy's shared first candidates. Rows from before have none: find-if-exists finds them by URL.
ALTER TABLE link ADD COLUMN create_key BINARY(32) NULL;
CREATE UNIQUE INDEX link_create_key ON link (create_key);

-- The sequence strategy's counters, one per code length; pods reserve blocks of values with a compare-and-set.
CREATE TABLE code_sequence (
    code_length SMALLINT NOT NULL,
    next_value  BIGINT   NOT NULL,
    PRIMARY KEY (code_length)
) ENGINE = InnoDB;
INSERT INTO code_sequence (code_length, next_value) VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0);

-- The pool strategy's pool when there is no Redis: codes checked free in advance; a create deletes the one it takes.
CREATE TABLE code_pool (
    code        VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    code_length SMALLINT   NOT NULL,
    PRIMARY KEY (code)
) ENGINE = InnoDB;
CREATE INDEX code_pool_length ON code_pool (code_length, code);
