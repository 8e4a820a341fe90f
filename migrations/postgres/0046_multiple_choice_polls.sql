-- Multiple-choice polls (issue 62): a poll may take several of its options from each voter.
ALTER TABLE posts ADD COLUMN poll_multiple BIGINT NOT NULL DEFAULT 0;

-- A vote is one member's choice of one option: a single-choice poll still takes one per member
-- (the writes check it), a multiple-choice poll several.
ALTER TABLE poll_votes DROP CONSTRAINT poll_votes_pkey, ADD PRIMARY KEY (post_id, user_id, position);
