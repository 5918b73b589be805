-- The retry window of a delivery runs from its creation, or from the last
-- time an operator retried it (`intake leads retry`): NULL means creation.
ALTER TABLE deliveries ADD COLUMN window_from_ms INTEGER;
