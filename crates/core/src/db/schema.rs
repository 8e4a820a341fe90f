//! What the schema itself says, read from the database: each backend's catalogue.

use sqlx::AnyConnection;

use super::Backend;
use crate::error::Result;

/// How a foreign key acts when the row it names is deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnDelete {
    Cascade,
    SetNull,
    /// Anything else: the row would block the delete.
    Other(String),
}

/// Every column with a foreign key to `table`: (table, column, what deleting the row it names
/// does), read from the schema itself, so a table added later is in the list without a change
/// to its reader.
pub async fn references_to(
    conn: &mut AnyConnection,
    backend: Backend,
    table: &str,
) -> Result<Vec<(String, String, OnDelete)>> {
    let sql = match backend {
        Backend::Sqlite => {
            "SELECT m.name, p.\"from\", p.on_delete FROM sqlite_master m \
             JOIN pragma_foreign_key_list(m.name) p WHERE m.type = 'table' AND p.\"table\" = $1 \
             ORDER BY m.name, p.\"from\""
        }
        Backend::Postgres => {
            "SELECT CAST(k.table_name AS TEXT), CAST(k.column_name AS TEXT), CAST(r.delete_rule AS TEXT) \
             FROM information_schema.referential_constraints r \
             JOIN information_schema.key_column_usage k \
               ON k.constraint_name = r.constraint_name AND k.constraint_schema = r.constraint_schema \
             JOIN information_schema.constraint_column_usage u \
               ON u.constraint_name = r.unique_constraint_name AND u.constraint_schema = r.unique_constraint_schema \
             WHERE u.table_name = $1 AND k.table_schema = current_schema() \
             ORDER BY 1, 2"
        }
    };
    let rows: Vec<(String, String, String)> = sqlx::query_as(sql).bind(table).fetch_all(conn).await?;
    Ok(rows
        .into_iter()
        .map(|(table, column, rule)| {
            let rule = match rule.to_ascii_uppercase().as_str() {
                "CASCADE" => OnDelete::Cascade,
                "SET NULL" => OnDelete::SetNull,
                _ => OnDelete::Other(rule),
            };
            (table, column, rule)
        })
        .collect())
}
