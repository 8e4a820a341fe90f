-- Search's exact matches on display names, case-insensitively (src/users/store.rs): without it
-- the exact group walked every member.
CREATE INDEX users_display_name_lower_idx ON users (lower(display_name));
