-- When a session's member last proved it was them: signing in starts a session (`created_at`);
-- confirming it later with a passkey or an e-mailed link (`sessions::reauthenticated`) is kept
-- here. Adding a passkey asks for such a sign-in within the last few minutes, so a copied
-- session cookie alone cannot add one (docs/auth.md). NULL: never confirmed since it began.
ALTER TABLE sessions ADD COLUMN reauthenticated_at BIGINT;
