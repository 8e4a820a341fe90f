//! Multi-row INSERTs: rows are buffered and sent hundreds at a time as one statement
//! (`INSERT … VALUES ($1, $2), ($3, $4), …`), so a million rows cost a few thousand round trips.
//! Full batches always have the same SQL text, so each connection prepares it once.
//!
//! On SQLite the placeholders are anonymous (`?`): sqlx looks each numbered parameter up by name
//! with `sqlite3_bind_parameter_name`, a linear scan, which made binding a statement of 8,000
//! `$N` parameters quadratic (80% of a seed's time in a profile). Anonymous ones are bound in order.

use sqlx::AnyConnection;
use sqlx::{AssertSqlSafe, Executor};

use murmur_core::db::Backend;

/// Bind parameters per statement: under SQLite's limit (32,766) and PostgreSQL's (65,535),
/// and small enough that a statement stays a few hundred kilobytes.
const MAX_VARS: usize = 8_000;
const MAX_ROWS: usize = 1_000;

pub(crate) enum Val {
    Int(Option<i64>),
    Text(Option<String>),
}

pub(crate) struct Batch {
    backend: Backend,
    head: &'static str,
    cols: usize,
    rows_per_statement: usize,
    full_sql: String,
    vals: Vec<Val>,
    /// Rows written so far (flushed).
    pub written: u64,
}

fn values_sql(backend: Backend, head: &str, cols: usize, rows: usize) -> String {
    let mut sql = String::with_capacity(head.len() + rows * cols * 6);
    sql.push_str(head);
    sql.push_str(" VALUES ");
    let mut n = 0;
    for r in 0..rows {
        if r > 0 {
            sql.push(',');
        }
        sql.push('(');
        for c in 0..cols {
            if c > 0 {
                sql.push(',');
            }
            n += 1;
            match backend {
                Backend::Sqlite => sql.push('?'),
                Backend::Postgres => {
                    sql.push('$');
                    sql.push_str(&n.to_string());
                }
            }
        }
        sql.push(')');
    }
    sql
}

impl Batch {
    /// `head` is `INSERT INTO table (col, …)` with `cols` columns.
    pub fn new(backend: Backend, head: &'static str, cols: usize) -> Batch {
        let rows_per_statement = (MAX_VARS / cols).min(MAX_ROWS);
        Batch {
            backend,
            head,
            cols,
            rows_per_statement,
            full_sql: values_sql(backend, head, cols, rows_per_statement),
            vals: Vec::with_capacity(rows_per_statement * cols),
            written: 0,
        }
    }

    pub fn int(&mut self, v: i64) -> &mut Self {
        self.vals.push(Val::Int(Some(v)));
        self
    }

    pub fn opt(&mut self, v: Option<i64>) -> &mut Self {
        self.vals.push(Val::Int(v));
        self
    }

    pub fn text(&mut self, v: impl Into<String>) -> &mut Self {
        self.vals.push(Val::Text(Some(v.into())));
        self
    }

    pub fn opt_text(&mut self, v: Option<String>) -> &mut Self {
        self.vals.push(Val::Text(v));
        self
    }

    /// Ends a row; sends the batch when it is full. Answers the rows sent (0 or a full batch).
    pub async fn end_row(&mut self, conn: &mut AnyConnection) -> sqlx::Result<u64> {
        debug_assert_eq!(self.vals.len() % self.cols, 0, "a row of {} has the wrong arity", self.head);
        if self.vals.len() >= self.rows_per_statement * self.cols {
            return self.flush(conn).await;
        }
        Ok(0)
    }

    /// Sends what is buffered; answers the number of rows sent.
    pub async fn flush(&mut self, conn: &mut AnyConnection) -> sqlx::Result<u64> {
        let rows = self.vals.len() / self.cols;
        if rows == 0 {
            return Ok(0);
        }
        let sql = if rows == self.rows_per_statement {
            self.full_sql.clone()
        } else {
            values_sql(self.backend, self.head, self.cols, rows)
        };
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for val in self.vals.drain(..) {
            query = match val {
                Val::Int(v) => query.bind(v),
                Val::Text(v) => query.bind(v),
            };
        }
        conn.execute(query).await?;
        self.written += rows as u64;
        Ok(rows as u64)
    }
}

#[cfg(test)]
mod tests {
    use murmur_core::db::Backend;

    #[test]
    fn postgres_placeholders_are_numbered_across_rows() {
        let sql = super::values_sql(Backend::Postgres, "INSERT INTO t (a, b)", 2, 2);
        assert_eq!(sql, "INSERT INTO t (a, b) VALUES ($1,$2),($3,$4)");
    }

    #[test]
    fn sqlite_placeholders_are_anonymous() {
        let sql = super::values_sql(Backend::Sqlite, "INSERT INTO t (a, b)", 2, 2);
        assert_eq!(sql, "INSERT INTO t (a, b) VALUES (?,?),(?,?)");
    }
}
