-- Import jobs (issue 27; docs/adr/0020-transfer.md): one row per import, written after every batch with the
-- source's checkpoint, so an interrupted import (a killed command, a restarted pod) resumes where it stopped.
-- source_key identifies what is imported (SHA-256 of the source's name and file, URL or body); an unfinished job
-- of the same key is resumed rather than started again. report holds the job's counts and first problems as JSON.
CREATE TABLE import_job (
    id         VARCHAR(36)   CHARACTER SET ascii NOT NULL,
    source_key CHAR(64)      CHARACTER SET ascii NOT NULL,
    source     VARCHAR(16)   CHARACTER SET ascii NOT NULL,
    status     VARCHAR(16)   CHARACTER SET ascii NOT NULL,
    checkpoint VARCHAR(1024) CHARACTER SET utf8mb4 NULL,
    report     TEXT          CHARACTER SET utf8mb4 NULL,
    started_at DATETIME(3)   NOT NULL,
    updated_at DATETIME(3)   NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE INDEX import_job_source ON import_job (source_key, started_at);
