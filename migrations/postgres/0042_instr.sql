-- SQLite's `instr(haystack, needle)` (the 1-based place of the needle, 0 when absent) for
-- PostgreSQL, so one statement serves both backends: the muted words' test
-- (`visibility::muted_post`) is a plain substring test, cheaper than a `LIKE` pattern built per
-- row. A one-expression SQL function: PostgreSQL inlines it into the statement.
CREATE FUNCTION instr(haystack TEXT, needle TEXT) RETURNS INTEGER
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT strpos(haystack, needle)';
