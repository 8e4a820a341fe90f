-- Direct messages (docs/messages.md): private conversations of 2 to 8 members.

-- A conversation. `member_key` is its members' ids in ascending order, joined by commas: the
-- same people always reopen the same conversation. `last_message_id` orders each member's
-- list and tells what is unread (no reference: messages reference their conversation).
CREATE TABLE conversations (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    member_key      TEXT   NOT NULL UNIQUE,
    started_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at      BIGINT NOT NULL,
    last_message_id BIGINT NOT NULL DEFAULT 0
);

-- One member's place in a conversation: where it shows for them (`inbox`, `requests`,
-- `hidden` until the next message, `declined` and `left` for good), whether they muted it,
-- and the last message they read (no one else reads it: there are no read receipts).
CREATE TABLE conversation_members (
    conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    member_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    box             TEXT   NOT NULL CONSTRAINT conversation_members_box_check
                        CHECK (box IN ('inbox', 'requests', 'hidden', 'declined', 'left')),
    muted           BIGINT NOT NULL DEFAULT 0,
    last_read_id    BIGINT NOT NULL DEFAULT 0,
    joined_at       BIGINT NOT NULL,
    PRIMARY KEY (conversation_id, member_id)
);
-- A member's conversations, by box.
CREATE INDEX conversation_members_member_idx ON conversation_members (member_id, box);

-- A message. Deleted by its author, it stays as "Message deleted" without its words; a member
-- who leaves Murmur takes their words with them (content emptied, author cleared).
CREATE TABLE messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    author_id       BIGINT REFERENCES users (id) ON DELETE SET NULL,
    content         TEXT   NOT NULL CONSTRAINT messages_content_check CHECK (length(content) <= 1000),
    created_at      BIGINT NOT NULL,
    deleted_at      BIGINT
);
-- A conversation's messages, newest first, paged by id.
CREATE INDEX messages_conversation_idx ON messages (conversation_id, id);
-- The request limit counts the sender's messages; leaving finds a member's messages.
CREATE INDEX messages_author_idx ON messages (author_id, conversation_id);

-- Who may start a conversation with the member: everyone, people they follow, or no one.
ALTER TABLE users ADD COLUMN messages_from TEXT NOT NULL DEFAULT 'following'
    CONSTRAINT users_messages_from_check CHECK (messages_from IN ('everyone', 'following', 'nobody'));

-- The messages a member chose to include in a report, as they read then: the moderators read
-- these and nothing else of a conversation. A member who leaves takes their words here too.
CREATE TABLE report_messages (
    report_id  BIGINT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    message_id BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    author_id  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    content    TEXT   NOT NULL,
    sent_at    BIGINT NOT NULL,
    PRIMARY KEY (report_id, message_id)
);
-- Leaving finds the words of the member who left.
CREATE INDEX report_messages_author_idx ON report_messages (author_id);
