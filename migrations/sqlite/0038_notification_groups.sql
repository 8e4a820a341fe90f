-- Likes and reposts of one post are shown as one group ("Ada and 4 others liked your post"):
-- a group's newest notification is found, and its members counted, by this index.
CREATE INDEX notifications_group_idx ON notifications (recipient_id, type, post_id, id);
