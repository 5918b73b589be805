-- The search answer as the specification's tables have it: a review has a
-- body, a location, the trade's response and label/value breakdowns; an image
-- has an album, a type (photo or youtube), a label, a title, a description,
-- a date, a URL template and a YouTube id. Existing rows are carried over
-- (the four scores become four breakdowns, the district the location, the
-- caption the description); the stored search cards are rebuilt by the store
-- when it opens, since `directory_state.card_format` is below the format the
-- binary writes.
ALTER TABLE trade_reviews ALTER COLUMN title DROP NOT NULL;
ALTER TABLE trade_reviews RENAME COLUMN review TO body;
ALTER TABLE trade_reviews ALTER COLUMN body DROP NOT NULL;
ALTER TABLE trade_reviews RENAME COLUMN postcode_district TO location;
ALTER TABLE trade_reviews ADD COLUMN trade_response TEXT;
ALTER TABLE trade_reviews ADD COLUMN breakdowns TEXT;
UPDATE trade_reviews SET
    title = NULLIF(btrim(title), ''),
    body = NULLIF(btrim(body), ''),
    breakdowns = json_build_array(
        json_build_object('label', 'Reliability', 'value', reliability),
        json_build_object('label', 'Tidiness', 'value', tidiness),
        json_build_object('label', 'Courtesy', 'value', courtesy),
        json_build_object('label', 'Workmanship', 'value', workmanship))::text;
ALTER TABLE trade_reviews ALTER COLUMN breakdowns SET NOT NULL;
ALTER TABLE trade_reviews
    DROP COLUMN reliability,
    DROP COLUMN tidiness,
    DROP COLUMN courtesy,
    DROP COLUMN workmanship;

ALTER TABLE trade_images ADD COLUMN album_id TEXT NOT NULL DEFAULT 'work';
ALTER TABLE trade_images ADD COLUMN kind TEXT NOT NULL DEFAULT 'photo';
ALTER TABLE trade_images ALTER COLUMN album_id DROP DEFAULT;
ALTER TABLE trade_images ALTER COLUMN kind DROP DEFAULT;
ALTER TABLE trade_images ALTER COLUMN url DROP NOT NULL;
ALTER TABLE trade_images ALTER COLUMN thumbnail_url DROP NOT NULL;
ALTER TABLE trade_images ALTER COLUMN width DROP NOT NULL;
ALTER TABLE trade_images ALTER COLUMN height DROP NOT NULL;
ALTER TABLE trade_images RENAME COLUMN caption TO description;
UPDATE trade_images SET description = NULLIF(btrim(description), '');
ALTER TABLE trade_images
    ADD COLUMN url_template TEXT,
    ADD COLUMN label TEXT,
    ADD COLUMN title TEXT,
    ADD COLUMN taken_on TEXT,
    ADD COLUMN youtube_id TEXT;

-- 1: cards as written before this migration; the store rebuilds older ones.
ALTER TABLE directory_state ADD COLUMN card_format INTEGER NOT NULL DEFAULT 1;
