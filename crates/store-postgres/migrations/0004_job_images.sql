-- Photos of jobs: the cleaned files live in the object store under
-- `object_key`; this table is their record, written with the job.
CREATE TABLE job_images (
    job_id       TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    image_id     TEXT NOT NULL,
    object_key   TEXT NOT NULL,
    file_name    TEXT NOT NULL,
    content_type TEXT NOT NULL,
    width        INTEGER NOT NULL,
    height       INTEGER NOT NULL,
    bytes        BIGINT NOT NULL,
    PRIMARY KEY (job_id, position)
);
