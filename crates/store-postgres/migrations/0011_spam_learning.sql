-- What the spam screen learns from (docs/spam.md, "Learning from operators"):
-- the model version that judged each quarantined submission, operators'
-- decisions kept as labelled examples (text and verdict only, no contact
-- fields), and text models trained with them.
ALTER TABLE quarantine ADD COLUMN model_version TEXT;

CREATE TABLE spam_decisions (
    quarantine_id TEXT PRIMARY KEY,
    verdict       TEXT NOT NULL CHECK (verdict IN ('spam', 'ham')),
    description   TEXT NOT NULL,
    model_version TEXT,
    decided_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE spam_models (
    version    TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    report     TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX spam_models_by_created ON spam_models (created_at);
