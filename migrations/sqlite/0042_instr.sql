-- PostgreSQL gains SQLite's built-in `instr` in its migration 0042; SQLite has nothing to add,
-- and keeps the two backends' histories in step.
SELECT 1;
