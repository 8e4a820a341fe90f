-- Quote posts (issue 44): a post may quote another, shown inside its card. The quoted post's
-- author may detach their post from a quote, and turn off quoting of a post.

-- The post this one quotes (a repost is never quoted: its original is). Posts are deleted
-- softly, so the quote keeps pointing at a deleted one and shows "Post unavailable"; a post
-- removed for good (a leaving member's) leaves the quote without it, as a reply's parent does.
ALTER TABLE posts ADD COLUMN quote_of_id BIGINT REFERENCES posts (id) ON DELETE SET NULL;
-- When the quoted post's author detached their post from this quote ("Removed by the author").
ALTER TABLE posts ADD COLUMN quote_detached_at BIGINT;
-- Whether the author lets others quote this post (1: yes). Existing quotes stay when it is off.
ALTER TABLE posts ADD COLUMN quotes_allowed BIGINT NOT NULL DEFAULT 1;
-- A post's quotes, found when detaching one and when its author leaves.
CREATE INDEX posts_quote_of_idx ON posts (quote_of_id) WHERE quote_of_id IS NOT NULL;

-- The quoted author hears of a quote (`notifications::Kind::Quote`).
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('follow', 'like', 'reply', 'repost', 'mention', 'removed', 'export-ready', 'quote'));
