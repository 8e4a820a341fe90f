-- Lists (docs/feeds.md, "Lists"): a member's private groups of people they follow, each read
-- as a feed of its own.

-- A member's list; at most 20 a member (`lists::MAX_LISTS`), counted in the transaction that
-- makes one.
CREATE TABLE lists (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX lists_owner_idx ON lists (owner_id, id);

-- Who is in a list: only people its owner follows (an unfollow, and so a block, takes them out
-- of the follower's lists: `follows::store::unfollow`).
CREATE TABLE list_members (
    list_id    BIGINT NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    member_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (list_id, member_id)
);
-- An unfollow and a member leaving find the rows that name the member.
CREATE INDEX list_members_member_idx ON list_members (member_id);
