-- For You kept ready: the network is ranked once a minute into a shared row instead of once per
-- member and first page (src/feeds/for_you.rs, docs/feeds.md). Each ranking holds the candidate
-- posts in score order as "post:author" pairs; a member's page is that list without their own
-- posts and with runs of one author limited, computed when read.
CREATE TABLE for_you_rankings (
    id         INTEGER PRIMARY KEY,
    created_at BIGINT NOT NULL,
    ranked     TEXT   NOT NULL
);

-- A member's pages continue the ranking their first page used: the snapshot is now a pointer
-- to a shared ranking (the old per-member lists were a cache; nothing is lost by dropping them).
DROP TABLE for_you_snapshots;
CREATE TABLE for_you_snapshots (
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    ranking_id BIGINT NOT NULL REFERENCES for_you_rankings (id) ON DELETE CASCADE
);
CREATE INDEX for_you_snapshots_ranking_idx ON for_you_snapshots (ranking_id);
