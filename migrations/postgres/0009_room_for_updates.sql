-- Posts and members are updated in place all the time: a post's like, reply and repost counts
-- with every like, reply and repost of it, a member's `feed_version` with every write of
-- theirs. PostgreSQL writes an updated row as a new version; when the row's page has room for
-- it (and no indexed column changed) the update is "HOT": no index is touched. Pages filled to
-- the brim (the default fillfactor, 100) have no room, so such an update puts the new version
-- on another page and adds an entry to every index of the table (seven on posts). Leaving a
-- tenth of each new page free keeps those updates HOT (docs/performance.md). SQLite updates
-- rows in place and has no such setting.
ALTER TABLE posts SET (fillfactor = 90);
ALTER TABLE users SET (fillfactor = 90);
