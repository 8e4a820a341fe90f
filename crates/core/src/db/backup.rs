//! `murmur backup`: a consistent copy of a live SQLite database.
//!
//! `VACUUM INTO` reads the database inside one read transaction, so the copy is a consistent
//! snapshot even while writes go on (WAL lets them proceed), and it is written compacted.
//! PostgreSQL instances use `pg_dump` instead (README, "Backups").

use std::path::Path;

use super::{Backend, Db};

pub async fn backup(db: &Db, dest: &Path) -> anyhow::Result<()> {
    if db.backend != Backend::Sqlite {
        anyhow::bail!("`murmur backup` copies a SQLite database; back up PostgreSQL with pg_dump");
    }
    if dest.exists() {
        anyhow::bail!("{} already exists; choose a new file", dest.display());
    }
    let dest = dest.to_str().ok_or_else(|| anyhow::anyhow!("the backup path is not valid UTF-8"))?;
    sqlx::query("VACUUM INTO $1").bind(dest).execute(&db.read).await?;
    Ok(())
}

/// Runs SQLite's `PRAGMA integrity_check`; answers its verdict ("ok" when sound).
pub async fn integrity_check(db: &Db) -> anyhow::Result<String> {
    let verdict: String = sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&db.read).await?;
    Ok(verdict)
}
