-- The search answer as the specification's tables have it: a review has a
-- body, a location, the trade's response and label/value breakdowns; an image
-- has an album, a type (photo or youtube), a label, a title, a description,
-- a date, a URL template and a YouTube id. Existing rows are carried over
-- (the four scores become four breakdowns, the district the location, the
-- caption the description); the stored search cards are rebuilt by the store
-- when it opens, since `directory_state.card_format` is below the format the
-- binary writes.
CREATE TABLE trade_reviews_v2 (
    company_id     INTEGER NOT NULL REFERENCES trades (company_id) ON DELETE CASCADE,
    review_id      TEXT NOT NULL,
    title          TEXT,
    body           TEXT,
    score          REAL NOT NULL,
    breakdowns     TEXT NOT NULL,  -- JSON array of {label, value}
    location       TEXT NOT NULL,
    verified       INTEGER NOT NULL,
    created_at     TEXT NOT NULL,
    trade_response TEXT,
    PRIMARY KEY (company_id, review_id)
) STRICT;

INSERT INTO trade_reviews_v2
SELECT company_id, review_id, NULLIF(trim(title), ''), NULLIF(trim(review), ''), score,
       json_array(
           json_object('label', 'Reliability', 'value', reliability),
           json_object('label', 'Tidiness', 'value', tidiness),
           json_object('label', 'Courtesy', 'value', courtesy),
           json_object('label', 'Workmanship', 'value', workmanship)),
       postcode_district, verified, created_at, NULL
FROM trade_reviews;

DROP TABLE trade_reviews;
ALTER TABLE trade_reviews_v2 RENAME TO trade_reviews;

CREATE TABLE trade_images_v2 (
    company_id    INTEGER NOT NULL REFERENCES trades (company_id) ON DELETE CASCADE,
    image_id      TEXT NOT NULL,
    position      INTEGER NOT NULL,
    album_id      TEXT NOT NULL,
    kind          TEXT NOT NULL,  -- photo or youtube
    url           TEXT,
    thumbnail_url TEXT,
    url_template  TEXT,
    description   TEXT,
    label         TEXT,
    title         TEXT,
    taken_on      TEXT,           -- YYYY-MM-DD
    youtube_id    TEXT,
    width         INTEGER,
    height        INTEGER,
    PRIMARY KEY (company_id, image_id)
) STRICT;

INSERT INTO trade_images_v2
SELECT company_id, image_id, position, 'work', 'photo', url, thumbnail_url, NULL,
       NULLIF(trim(caption), ''), NULL, NULL, NULL, NULL, width, height
FROM trade_images;

DROP TABLE trade_images;
ALTER TABLE trade_images_v2 RENAME TO trade_images;

-- 1: cards as written before this migration; the store rebuilds older ones.
ALTER TABLE directory_state ADD COLUMN card_format INTEGER NOT NULL DEFAULT 1;
