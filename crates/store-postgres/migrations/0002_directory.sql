-- The trade directory. Matching runs on an in-memory index built from
-- `trades`; `card_json` is the search card, derived at import.
CREATE TABLE trades (
    company_id    BIGINT PRIMARY KEY,
    company_name  TEXT NOT NULL,
    logo_url      TEXT,
    active        BOOLEAN NOT NULL,
    base_postcode TEXT NOT NULL,
    base_easting  DOUBLE PRECISION,
    base_northing DOUBLE PRECISION,
    radius_miles  DOUBLE PRECISION,
    districts     TEXT NOT NULL,  -- space-separated postcode districts
    categories    TEXT NOT NULL,  -- space-separated category ids
    webhook_url   TEXT,
    email         TEXT,
    review_score  DOUBLE PRECISION,
    total_reviews BIGINT NOT NULL,
    card_json     TEXT NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE trade_reviews (
    company_id        BIGINT NOT NULL REFERENCES trades (company_id) ON DELETE CASCADE,
    review_id         TEXT NOT NULL,
    title             TEXT NOT NULL,
    review            TEXT NOT NULL,
    score             DOUBLE PRECISION NOT NULL,
    reliability       INTEGER NOT NULL,
    tidiness          INTEGER NOT NULL,
    courtesy          INTEGER NOT NULL,
    workmanship       INTEGER NOT NULL,
    postcode_district TEXT NOT NULL,
    verified          BOOLEAN NOT NULL,
    created_at        TEXT NOT NULL,  -- as the directory gave it
    PRIMARY KEY (company_id, review_id)
);

CREATE TABLE trade_images (
    company_id    BIGINT NOT NULL REFERENCES trades (company_id) ON DELETE CASCADE,
    image_id      TEXT NOT NULL,
    position      INTEGER NOT NULL,
    url           TEXT NOT NULL,
    thumbnail_url TEXT NOT NULL,
    caption       TEXT,
    width         INTEGER NOT NULL,
    height        INTEGER NOT NULL,
    PRIMARY KEY (company_id, image_id)
);

-- One row: the directory version (bumped by every import) and the
-- operator's category tree (NULL: the tree shipped in the binary).
CREATE TABLE directory_state (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    version       BIGINT NOT NULL,
    category_tree TEXT
);
INSERT INTO directory_state (id, version, category_tree) VALUES (1, 0, NULL);
