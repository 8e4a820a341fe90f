-- Link preview cards (docs/discovery.md, "Link preview cards"): the card of a post's first link, read in the
-- background from the page's OpenGraph / Twitter-card / <title> tags and kept per URL, so every
-- post with that link shares one card and one fetch.

-- One row per link URL (as written in posts). A fetch that found no card leaves the texts NULL;
-- either way `fetched_at` says when, and a post written 14 days later asks for a new one.
CREATE TABLE link_cards (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    url                TEXT NOT NULL,
    title              TEXT,
    description        TEXT,
    site_name          TEXT,
    -- The card's image, checked and stored like an upload (served at /objects/{id}).
    image_media_id     TEXT,
    image_content_type TEXT,
    fetched_at         BIGINT,
    -- A fetch is wanted from this time on (NULL: none), and the process fetching it holds it
    -- until `claimed_until`: one fetch per URL at a time across processes.
    due_at             BIGINT,
    claimed_until      BIGINT,
    CONSTRAINT link_cards_url_key UNIQUE (url)
);
CREATE INDEX link_cards_due_idx ON link_cards (due_at) WHERE due_at IS NOT NULL;
-- Serving an image that is a card's (`/objects/{id}`) finds it by this.
CREATE UNIQUE INDEX link_cards_image_idx ON link_cards (image_media_id) WHERE image_media_id IS NOT NULL;

-- The card a post shows; NULL: none (no link, or its author removed it).
ALTER TABLE posts ADD COLUMN link_card_id BIGINT REFERENCES link_cards (id);
-- When the author removed the card: an edit does not bring it back.
ALTER TABLE posts ADD COLUMN link_card_removed_at BIGINT;
