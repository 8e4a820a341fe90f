//! `murmur export-db` and `murmur import-db`: every table of the database in one portable file,
//! so an instance moves from SQLite to PostgreSQL (or back), or keeps a logical backup either
//! backend can read.
//!
//! The file is JSON Lines: a header (format, source backend, schema version, each table's row
//! count, the largest id each table has handed out), then for each table a line naming it and its columns followed by one JSON array per
//! row, and a last line `{"end":true}` so that a file cut short is told from a whole one. Values
//! are integers, text and null only, as everywhere in the schema (crates/core/src/db/mod.rs header); a
//! column of any other type stops the transfer instead of being copied wrong.
//!
//! The export reads one snapshot and writes rows as they come. The import reads the file line
//! by line and inserts a batch of rows as one JSON value (`json_each` / `jsonb_array_elements`),
//! so a row costs no bind of its own, all in one transaction: a damaged or short file, or a
//! failed insert, leaves the target as it was.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{AnyConnection, AssertSqlSafe, Executor};

use super::{Backend, Db};

const FORMAT: &str = "murmur-db-export";
const FORMAT_VERSION: i64 = 1;

/// A batch of the import is sent when it holds this many rows or this many bytes of JSON.
const BATCH_ROWS: usize = 5_000;
const BATCH_BYTES: usize = 1 << 20;

#[derive(Serialize, Deserialize, Debug)]
struct Header {
    format: String,
    version: i64,
    backend: String,
    schema_version: i64,
    exported_at: String,
    tables: Vec<TableCount>,
    /// The largest id each table with generated ids has handed out, which can be above its
    /// largest row's (an undone repost is deleted): the target goes on from there, so an id is
    /// never given twice.
    last_ids: BTreeMap<String, i64>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct TableCount {
    pub table: String,
    pub rows: i64,
}

#[derive(Serialize, Deserialize)]
struct TableStart {
    table: String,
    columns: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct End {
    end: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Integer,
    Text,
}

#[derive(Clone, Debug)]
pub struct Column {
    pub name: String,
    kind: Kind,
}

/// What an import did to one table.
pub struct Imported {
    pub table: String,
    pub in_file: i64,
    pub in_database: i64,
}

fn quote(identifier: &str) -> String {
    format!("\"{}\"", identifier.replace('"', "\"\""))
}

fn backend_name(backend: Backend) -> &'static str {
    match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    }
}

/// The newest migration this binary has for the database's backend: the schema version a file
/// must have to be imported.
pub fn latest_migration(db: &Db) -> i64 {
    db.backend.migrator().iter().filter(|m| m.migration_type.is_up_migration()).map(|m| m.version).max().unwrap_or(0)
}

/// The tables in the database, from its catalog, but sqlx's own and SQLite's internal ones.
pub async fn tables_in_schema(conn: &mut AnyConnection, backend: Backend) -> anyhow::Result<Vec<String>> {
    let sql = match backend {
        Backend::Sqlite => {
            // Post search's full-text table and its shadow tables are not copied: the triggers
            // on posts fill them again as the posts are imported.
            "SELECT name FROM sqlite_master m WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
             AND name <> '_sqlx_migrations' AND NOT EXISTS (SELECT 1 FROM sqlite_master v \
             WHERE v.type = 'table' AND v.sql LIKE 'CREATE VIRTUAL TABLE%' \
             AND (m.name = v.name OR m.name LIKE v.name || '\\_%' ESCAPE '\\')) ORDER BY name"
        }
        Backend::Postgres => {
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_schema = current_schema() \
             AND table_type = 'BASE TABLE' AND table_name <> '_sqlx_migrations' ORDER BY table_name"
        }
    };
    Ok(sqlx::query_scalar(sql).fetch_all(conn).await?)
}

/// Each table's parents: the other tables its foreign keys name, read from the schema.
async fn parents(
    conn: &mut AnyConnection,
    backend: Backend,
    tables: &[String],
) -> anyhow::Result<BTreeMap<String, BTreeSet<String>>> {
    let mut parents: BTreeMap<String, BTreeSet<String>> = tables.iter().map(|t| (t.clone(), BTreeSet::new())).collect();
    for parent in tables {
        for (child, _, _) in super::schema::references_to(conn, backend, parent).await? {
            if child != *parent
                && let Some(of_child) = parents.get_mut(&child)
            {
                of_child.insert(parent.clone());
            }
        }
    }
    Ok(parents)
}

/// Every table the migrations create (`tables_in_schema`), each after the tables its foreign
/// keys name, so that the import inserts rows in an order every key accepts; among tables free
/// to go, by name. Derived from the schema, so a migration's new table is copied without a list
/// to keep.
pub async fn tables_in_order(conn: &mut AnyConnection, backend: Backend) -> anyhow::Result<Vec<String>> {
    let tables = tables_in_schema(conn, backend).await?;
    let mut waiting = parents(conn, backend, &tables).await?;
    let mut order = Vec::with_capacity(tables.len());
    while !waiting.is_empty() {
        let ready: Vec<String> =
            waiting.iter().filter(|(_, parents)| parents.is_empty()).map(|(table, _)| table.clone()).collect();
        let Some(next) = ready.into_iter().next() else {
            let circle: Vec<String> = waiting.keys().cloned().collect();
            bail!("the foreign keys of these tables name each other in a circle: {}", circle.join(", "));
        };
        waiting.remove(&next);
        for parents in waiting.values_mut() {
            parents.remove(&next);
        }
        order.push(next);
    }
    Ok(order)
}

/// Refuses a file whose tables are not the target's, or come in an order the target's foreign
/// keys would refuse (a table before one its rows name).
async fn check_tables(conn: &mut AnyConnection, backend: Backend, in_file: &[TableCount]) -> anyhow::Result<()> {
    let tables = tables_in_schema(conn, backend).await?;
    let found: BTreeSet<&str> = tables.iter().map(String::as_str).collect();
    let listed: BTreeSet<&str> = in_file.iter().map(|t| t.table.as_str()).collect();
    let unknown: Vec<String> = listed.difference(&found).map(|t| t.to_string()).collect();
    let missing: Vec<String> = found.difference(&listed).map(|t| t.to_string()).collect();
    if !unknown.is_empty() || !missing.is_empty() {
        bail!(
            "the file's tables are not the database's (only in the file: {}; not in the file: {}); \
             import it with the murmur version that exported it",
            list_or_none(&unknown),
            list_or_none(&missing)
        );
    }
    let parents = parents(conn, backend, &tables).await?;
    for (at, table) in in_file.iter().enumerate() {
        let earlier = &in_file[..at];
        if let Some(parent) = parents[&table.table].iter().find(|p| !earlier.iter().any(|t| t.table == **p)) {
            bail!(
                "the file lists {} before {parent}, whose rows it names; it was not written by murmur export-db",
                table.table
            );
        }
    }
    Ok(())
}

fn list_or_none(names: &[String]) -> String {
    if names.is_empty() { "none".to_string() } else { names.join(", ") }
}

/// A table's columns in their order, from the catalog.
pub async fn columns(conn: &mut AnyConnection, backend: Backend, table: &str) -> anyhow::Result<Vec<Column>> {
    let sql = match backend {
        Backend::Sqlite => "SELECT name, type FROM pragma_table_info($1) ORDER BY cid",
        Backend::Postgres => {
            // Generated columns (post search's words) are computed again from the others.
            "SELECT CAST(column_name AS TEXT), CAST(data_type AS TEXT) FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' \
             ORDER BY ordinal_position"
        }
    };
    let rows: Vec<(String, String)> = sqlx::query_as(sql).bind(table).fetch_all(conn).await?;
    rows.into_iter()
        .map(|(name, declared)| {
            let upper = declared.to_uppercase();
            let kind = if upper.contains("INT") {
                Kind::Integer
            } else if upper == "TEXT" {
                Kind::Text
            } else {
                bail!("{table}.{name} is of type {declared}; the transfer carries only integers and text");
            };
            Ok(Column { name, kind })
        })
        .collect()
}

/// A table's primary key columns, which the export orders rows by: a post's reply or repost
/// then comes after the post it names, as the foreign keys on `posts` need.
async fn primary_key(conn: &mut AnyConnection, backend: Backend, table: &str) -> anyhow::Result<Vec<String>> {
    let sql = match backend {
        Backend::Sqlite => "SELECT name FROM pragma_table_info($1) WHERE pk > 0 ORDER BY pk",
        Backend::Postgres => {
            "SELECT CAST(k.column_name AS TEXT) FROM information_schema.table_constraints c \
             JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name \
               AND k.table_schema = c.table_schema AND k.table_name = c.table_name \
             WHERE c.table_schema = current_schema() AND c.table_name = $1 AND c.constraint_type = 'PRIMARY KEY' \
             ORDER BY k.ordinal_position"
        }
    };
    Ok(sqlx::query_scalar(sql).bind(table).fetch_all(conn).await?)
}

async fn count(conn: &mut AnyConnection, table: &str) -> anyhow::Result<i64> {
    let sql = format!("SELECT COUNT(*) FROM {}", quote(table));
    Ok(sqlx::query_scalar(AssertSqlSafe(sql)).fetch_one(conn).await?)
}

/// Writes every table to `dest`, a new file; answers each table's rows. A failed export removes
/// what it had written.
pub async fn export(db: &Db, dest: &Path) -> anyhow::Result<Vec<TableCount>> {
    let file = File::options()
        .write(true)
        .create_new(true)
        .open(dest)
        .with_context(|| format!("cannot create {} (it must not exist yet)", dest.display()))?;
    let written = write_export(db, BufWriter::new(file)).await;
    if written.is_err() {
        let _ = std::fs::remove_file(dest);
    }
    written
}

async fn write_export(db: &Db, mut out: BufWriter<File>) -> anyhow::Result<Vec<TableCount>> {
    // One read transaction: the counts and the rows are of one moment, even with the server
    // running (SQLite's WAL snapshot; PostgreSQL's repeatable read).
    let mut tx = db.read.begin().await?;
    if db.backend == Backend::Postgres {
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
    }
    let tables = tables_in_order(&mut tx, db.backend).await?;
    let schema_version: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success")
            .fetch_one(&mut *tx)
            .await?;
    let mut counts = Vec::with_capacity(tables.len());
    for table in tables {
        let rows = count(&mut tx, &table).await?;
        counts.push(TableCount { table, rows });
    }
    let last_ids = last_ids(&mut tx, db.backend).await?;
    let header = Header {
        format: FORMAT.to_string(),
        version: FORMAT_VERSION,
        backend: backend_name(db.backend).to_string(),
        schema_version,
        exported_at: crate::clock::to_rfc3339(crate::clock::Clock::default().now()),
        tables: counts.clone(),
        last_ids,
    };
    write_line(&mut out, &header)?;
    for expected in &counts {
        let table = expected.table.as_str();
        let columns = columns(&mut tx, db.backend, table).await?;
        let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
        write_line(&mut out, &TableStart { table: table.to_string(), columns: names.clone() })?;
        let list = names.iter().map(|n| quote(n)).collect::<Vec<_>>().join(", ");
        // Each row crosses the driver as one JSON text, whatever its columns.
        let row = match db.backend {
            Backend::Sqlite => format!("json_array({list})"),
            Backend::Postgres => format!("CAST(json_build_array({list}) AS TEXT)"),
        };
        let key = primary_key(&mut tx, db.backend, table).await?;
        let order = if key.is_empty() {
            String::new()
        } else {
            format!(" ORDER BY {}", key.iter().map(|k| quote(k)).collect::<Vec<_>>().join(", "))
        };
        let sql = format!("SELECT {row} FROM {}{order}", quote(table));
        let mut rows = sqlx::query_scalar::<_, String>(AssertSqlSafe(sql)).fetch(&mut *tx);
        let mut n = 0;
        while let Some(row) = rows.try_next().await? {
            out.write_all(row.as_bytes())?;
            out.write_all(b"\n")?;
            n += 1;
        }
        if n != expected.rows {
            bail!("{table} had {} rows counted but {n} read; nothing usable was written", expected.rows);
        }
    }
    write_line(&mut out, &End { end: true })?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    tx.rollback().await?;
    Ok(counts)
}

fn write_line(out: &mut impl Write, value: &impl Serialize) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// An export file opened for import, its header read and checked.
pub struct ImportFile {
    path: PathBuf,
    lines: std::io::Lines<BufReader<File>>,
    header: Header,
}

impl ImportFile {
    /// Opens `path` and checks its header against this binary: the format, and the schema
    /// version against `latest` (`latest_migration`).
    pub fn open(path: &Path, latest: i64) -> anyhow::Result<ImportFile> {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let mut lines = BufReader::new(file).lines();
        let first = lines.next().transpose()?.unwrap_or_default();
        let header: Header = serde_json::from_str(&first)
            .ok()
            .filter(|h: &Header| h.format == FORMAT)
            .with_context(|| format!("{} is not a file written by `murmur export-db`", path.display()))?;
        if header.version != FORMAT_VERSION {
            bail!(
                "{} is in version {} of the export format; this murmur reads version {FORMAT_VERSION}: \
                 import it with the murmur version that exported it",
                path.display(),
                header.version
            );
        }
        if header.schema_version != latest {
            bail!(
                "{} holds a database at schema version {} and this murmur's is {latest}: import it with the \
                 murmur version that exported it (or upgrade the source and export again); nothing was changed",
                path.display(),
                header.schema_version
            );
        }
        Ok(ImportFile { path: path.to_path_buf(), lines, header })
    }

    /// The backend the file was exported from.
    pub fn source_backend(&self) -> &str {
        &self.header.backend
    }
}

/// Fills the empty database `db` (migrated) with the file's rows in one transaction, checks
/// each table's rows against the file's counts, and answers them.
pub async fn import(db: &Db, mut file: ImportFile) -> anyhow::Result<Vec<Imported>> {
    let mut tx = db.write.begin().await?;
    let filled = fill(&mut tx, db.backend, &mut file).await;
    match filled {
        Ok(imported) => {
            tx.commit().await.context("the import could not be committed; nothing was imported")?;
            if db.backend == Backend::Postgres {
                // The planner's statistics of the new rows, before the first request needs them.
                db.write.execute("ANALYZE").await?;
            }
            Ok(imported)
        }
        Err(e) => {
            let _ = tx.rollback().await;
            Err(e)
        }
    }
}

async fn fill(conn: &mut AnyConnection, backend: Backend, file: &mut ImportFile) -> anyhow::Result<Vec<Imported>> {
    check_tables(conn, backend, &file.header.tables).await?;
    let mut occupied = Vec::new();
    for table in &file.header.tables {
        let table = table.table.as_str();
        let n = count(conn, table).await?;
        if n > 0 {
            occupied.push(format!("{table}: {n}"));
        }
    }
    if !occupied.is_empty() {
        bail!(
            "the target database already has data ({}); import-db fills only an empty database. \
             Nothing was changed",
            occupied.join(", ")
        );
    }

    let path = file.path.display().to_string();
    let damaged = |line: usize, what: String| {
        anyhow::anyhow!("{path}, line {line}: {what}; the file is damaged. Nothing was imported")
    };
    let mut current: Option<Batch> = None;
    let mut done: Vec<(String, i64)> = Vec::new();
    let mut ended = false;
    let mut line_no = 1;
    for line in file.lines.by_ref() {
        line_no += 1;
        let line = line.map_err(|e| damaged(line_no, format!("cannot be read ({e})")))?;
        if ended {
            return Err(damaged(line_no, "there are lines after the end".into()));
        }
        if line.starts_with('[') {
            let Some(batch) = current.as_mut() else {
                return Err(damaged(line_no, "a row before any table".into()));
            };
            let values: Vec<Value> =
                serde_json::from_str(&line).map_err(|e| damaged(line_no, format!("not a row ({e})")))?;
            batch.check(&values).map_err(|e| damaged(line_no, e))?;
            batch.push(&line);
            if batch.full() {
                batch.flush(conn).await?;
            }
            continue;
        }
        // A table's first line, or the end: the table before it is complete.
        if let Some(mut batch) = current.take() {
            batch.flush(conn).await?;
            done.push((batch.table, batch.read));
        }
        if let Ok(start) = serde_json::from_str::<TableStart>(&line) {
            if !file.header.tables.iter().any(|t| t.table == start.table) || done.iter().any(|(t, _)| *t == start.table)
            {
                return Err(damaged(line_no, format!("unexpected table {}", start.table)));
            }
            let target = columns(conn, backend, &start.table).await?;
            current = Some(Batch::new(backend, &start, &target).map_err(|e| damaged(line_no, e))?);
        } else if serde_json::from_str::<End>(&line).is_ok_and(|e| e.end) {
            ended = true;
        } else {
            return Err(damaged(line_no, "not a line of an export".into()));
        }
    }
    if !ended {
        bail!("{path} ends before its last line: it was cut short or damaged. Nothing was imported");
    }

    let mut imported = Vec::with_capacity(file.header.tables.len());
    for expected in &file.header.tables {
        let read = done.iter().find(|(t, _)| *t == expected.table).map_or(0, |(_, n)| *n);
        let in_database = count(conn, &expected.table).await?;
        if read != expected.rows || in_database != expected.rows {
            bail!(
                "{}: the file's header says {} rows, {read} were read and the database has {in_database}; \
                 the file is damaged. Nothing was imported",
                expected.table,
                expected.rows
            );
        }
        imported.push(Imported { table: expected.table.clone(), in_file: expected.rows, in_database });
    }
    move_sequences(conn, backend, &file.header.last_ids).await?;
    Ok(imported)
}

/// The tables' id columns whose values the database generates: PostgreSQL's identity columns
/// (or serials), SQLite's AUTOINCREMENT tables, which keep their high-water mark in
/// `sqlite_sequence`.
async fn generated_ids(conn: &mut AnyConnection, backend: Backend) -> anyhow::Result<Vec<(String, String)>> {
    let sql = match backend {
        Backend::Sqlite => "SELECT name, 'id' FROM sqlite_sequence",
        Backend::Postgres => {
            "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT) FROM information_schema.columns \
             WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
        }
    };
    Ok(sqlx::query_as(sql).fetch_all(conn).await?)
}

/// The largest id handed out per table (`Header::last_ids`), where the database keeps it.
async fn last_ids(conn: &mut AnyConnection, backend: Backend) -> anyhow::Result<BTreeMap<String, i64>> {
    let mut last = BTreeMap::new();
    for (table, column) in generated_ids(conn, backend).await? {
        let id: Option<i64> = match backend {
            Backend::Sqlite => {
                sqlx::query_scalar("SELECT seq FROM sqlite_sequence WHERE name = $1")
                    .bind(&table)
                    .fetch_one(&mut *conn)
                    .await?
            }
            Backend::Postgres => {
                sqlx::query_scalar("SELECT pg_sequence_last_value(CAST(pg_get_serial_sequence($1, $2) AS regclass))")
                    .bind(quote(&table))
                    .bind(&column)
                    .fetch_one(&mut *conn)
                    .await?
            }
        };
        if let Some(id) = id {
            last.insert(table, id);
        }
    }
    Ok(last)
}

/// Explicit ids do not move PostgreSQL's sequences: each is set to its column's largest id or
/// the source's `last_ids`, whichever is larger, so new rows get fresh ids. SQLite moves its own
/// to the largest id on insert; it is moved on to `last_ids` where that is larger.
async fn move_sequences(
    conn: &mut AnyConnection,
    backend: Backend,
    last_ids: &BTreeMap<String, i64>,
) -> anyhow::Result<()> {
    match backend {
        Backend::Sqlite => {
            for (table, last) in last_ids {
                let moved = sqlx::query("UPDATE sqlite_sequence SET seq = MAX(seq, $1) WHERE name = $2")
                    .bind(last)
                    .bind(table)
                    .execute(&mut *conn)
                    .await?;
                // A table left empty has no row there yet; only AUTOINCREMENT tables may have one.
                if moved.rows_affected() == 0 {
                    sqlx::query(
                        "INSERT INTO sqlite_sequence (name, seq) SELECT $2, $1 FROM sqlite_master \
                         WHERE type = 'table' AND name = $2 AND sql LIKE '%AUTOINCREMENT%'",
                    )
                    .bind(last)
                    .bind(table)
                    .execute(&mut *conn)
                    .await?;
                }
            }
        }
        Backend::Postgres => {
            for (table, column) in generated_ids(conn, backend).await? {
                // NULLIF: an empty table that never handed out an id keeps its sequence at the start.
                let sql = format!(
                    "SELECT setval(pg_get_serial_sequence($1, $2), NULLIF(GREATEST(MAX({}), $3), 0)) FROM {}",
                    quote(&column),
                    quote(&table)
                );
                let last = last_ids.get(&table).copied().unwrap_or(0);
                sqlx::query(AssertSqlSafe(sql))
                    .bind(quote(&table))
                    .bind(&column)
                    .bind(last)
                    .execute(&mut *conn)
                    .await?;
            }
        }
    }
    Ok(())
}

/// Rows of one table waiting to be inserted, as the text of one JSON array.
struct Batch {
    table: String,
    kinds: Vec<Kind>,
    sql: String,
    json: String,
    rows: usize,
    read: i64,
}

impl Batch {
    fn new(backend: Backend, start: &TableStart, target: &[Column]) -> Result<Batch, String> {
        let in_file: BTreeSet<&str> = start.columns.iter().map(String::as_str).collect();
        let in_target: BTreeSet<&str> = target.iter().map(|c| c.name.as_str()).collect();
        if in_file != in_target || in_file.len() != start.columns.len() {
            return Err(format!(
                "the columns of {} ({}) are not this version's ({})",
                start.table,
                start.columns.join(", "),
                target.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
            ));
        }
        let kinds: Vec<Kind> = start
            .columns
            .iter()
            .map(|name| target.iter().find(|c| c.name == *name).expect("checked above").kind)
            .collect();
        let values = kinds
            .iter()
            .enumerate()
            .map(|(i, kind)| match (backend, kind) {
                (Backend::Sqlite, _) => format!("json_extract(value, '$[{i}]')"),
                (Backend::Postgres, Kind::Integer) => format!("CAST(value ->> {i} AS BIGINT)"),
                (Backend::Postgres, Kind::Text) => format!("value ->> {i}"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let source = match backend {
            Backend::Sqlite => "json_each($1) ORDER BY key",
            Backend::Postgres => "jsonb_array_elements(CAST($1 AS JSONB)) WITH ORDINALITY AS e(value, n) ORDER BY n",
        };
        let columns = start.columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(", ");
        let sql = format!("INSERT INTO {} ({columns}) SELECT {values} FROM {source}", quote(&start.table));
        Ok(Batch { table: start.table.clone(), kinds, sql, json: String::new(), rows: 0, read: 0 })
    }

    /// A row's values must be as many as the columns and of their types (null goes anywhere
    /// the schema allows it).
    fn check(&self, values: &[Value]) -> Result<(), String> {
        if values.len() != self.kinds.len() {
            return Err(format!(
                "a row of {} has {} values for {} columns",
                self.table,
                values.len(),
                self.kinds.len()
            ));
        }
        for (value, kind) in values.iter().zip(&self.kinds) {
            let fits = match (value, kind) {
                (Value::Null, _) => true,
                (Value::Number(n), Kind::Integer) => n.is_i64(),
                (Value::String(_), Kind::Text) => true,
                _ => false,
            };
            if !fits {
                return Err(format!("a row of {} has {value} where {kind:?} belongs", self.table));
            }
        }
        Ok(())
    }

    fn push(&mut self, row: &str) {
        self.json.push(if self.rows == 0 { '[' } else { ',' });
        self.json.push_str(row);
        self.rows += 1;
        self.read += 1;
    }

    fn full(&self) -> bool {
        self.rows >= BATCH_ROWS || self.json.len() >= BATCH_BYTES
    }

    async fn flush(&mut self, conn: &mut AnyConnection) -> anyhow::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        self.json.push(']');
        let json = std::mem::take(&mut self.json);
        sqlx::query(AssertSqlSafe(self.sql.clone()))
            .bind(json)
            .execute(&mut *conn)
            .await
            .with_context(|| format!("inserting rows of {} failed; nothing was imported", self.table))?;
        self.rows = 0;
        Ok(())
    }
}
