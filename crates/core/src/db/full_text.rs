//! Full-text matching, each database its own way: SQLite's FTS5 (a virtual table whose rowid is
//! the indexed row's id) and PostgreSQL's `tsvector` column. The terms reach here checked by the
//! caller (lower-case letters and digits only), so what meets each engine's query syntax is our
//! own quoting around plain words.

use super::Backend;

/// What a search looks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    /// Words every match holds.
    pub words: Vec<String>,
    /// A word that also matches as the start of a longer one.
    pub prefix: Option<String>,
    /// Phrases (words in a row) every match holds.
    pub phrases: Vec<Vec<String>>,
    /// Words or phrases no match holds.
    pub excluded: Vec<Vec<String>>,
}

impl Terms {
    /// Whether there are words for the index to find (else only exclusions, or nothing).
    pub fn has_text(&self) -> bool {
        !self.words.is_empty() || self.prefix.is_some() || !self.phrases.is_empty()
    }

    /// The FTS5 query: each word and phrase quoted, the prefix starred, the exclusions after
    /// `NOT`.
    pub fn fts5(&self) -> String {
        let quote = |words: &[String]| format!("\"{}\"", words.join(" "));
        let mut must: Vec<String> = self.words.iter().map(|w| quote(std::slice::from_ref(w))).collect();
        must.extend(self.phrases.iter().map(|p| quote(p)));
        must.extend(self.prefix.iter().map(|p| format!("{}*", quote(std::slice::from_ref(p)))));
        let mut sql = format!("({})", must.join(" AND "));
        for excluded in &self.excluded {
            sql = format!("{sql} NOT {}", quote(excluded));
        }
        sql
    }

    /// The text of FTS5's query for the exclusions alone (`"a" OR "b c"`).
    pub fn fts5_excluded(&self) -> String {
        self.excluded.iter().map(|e| format!("\"{}\"", e.join(" "))).collect::<Vec<_>>().join(" OR ")
    }

    /// The `to_tsquery` text: quoted lexemes joined with `&`, phrases with `<->`, the prefix as
    /// `:*`, exclusions negated.
    pub fn tsquery(&self) -> String {
        let lexeme = |w: &str| format!("'{w}'");
        let phrase = |p: &[String]| format!("({})", p.iter().map(|w| lexeme(w)).collect::<Vec<_>>().join(" <-> "));
        let mut parts: Vec<String> = self.words.iter().map(|w| lexeme(w)).collect();
        parts.extend(self.phrases.iter().map(|p| phrase(p)));
        parts.extend(self.prefix.iter().map(|p| format!("{}:*", lexeme(p))));
        parts.extend(self.excluded.iter().map(|e| format!("!{}", phrase(e))));
        parts.join(" & ")
    }
}

/// A statement's values where its plan should fit them: written into the SQL as constants
/// where the planner plans by them (PostgreSQL: a rare word is then not searched the way a
/// common one is), bound otherwise (SQLite; numbered in order, every integer before any text).
/// Constants are only numbers and texts quoted here; such a statement is not kept prepared.
pub struct Values {
    backend: Backend,
    pub ints: Vec<i64>,
    pub texts: Vec<String>,
}

impl Values {
    pub fn new(backend: Backend) -> Values {
        Values { backend, ints: Vec::new(), texts: Vec::new() }
    }

    /// Whether the statement is worth keeping prepared (its values are bound, not written in).
    pub fn is_persistent(&self) -> bool {
        !self.backend.plans_by_statistics()
    }

    pub fn int(&mut self, value: i64) -> String {
        if self.backend.plans_by_statistics() {
            return value.to_string();
        }
        debug_assert!(self.texts.is_empty(), "integers are bound before texts");
        self.ints.push(value);
        format!("${}", self.ints.len())
    }

    pub fn text(&mut self, value: String) -> String {
        if self.backend.plans_by_statistics() {
            return format!("'{}'", value.replace('\'', "''"));
        }
        self.texts.push(value);
        format!("${}", self.ints.len() + self.texts.len())
    }
}

/// Where a table's text is indexed: the rows (`posts p`) and their id (`p.id`), SQLite's FTS5
/// table and PostgreSQL's `tsvector` column.
pub struct Index {
    pub rows: &'static str,
    pub id: &'static str,
    pub fts5_table: &'static str,
    pub vector: &'static str,
}

/// A full-text search's `FROM` and the key its rows are ordered by, and how relevant a match
/// is (when there are words to rank by).
pub struct Matching {
    source: String,
    key: String,
    score: Option<(String, &'static str)>,
}

impl Index {
    /// Adds the conditions that match `terms` to `conditions`; its values are taken after every
    /// other value of the statement's.
    pub fn matching(&self, values: &mut Values, terms: &Terms, conditions: &mut Vec<String>) -> Matching {
        let (fts, rows, id, vector) = (self.fts5_table, self.rows, self.id, self.vector);
        let plain = Matching { source: rows.to_string(), key: id.to_string(), score: None };
        match values.backend {
            Backend::Sqlite if terms.has_text() => {
                conditions.push(format!("{fts} MATCH {}", values.text(terms.fts5())));
                Matching {
                    source: format!("{fts} s JOIN {rows} ON {id} = s.rowid"),
                    key: "s.rowid".to_string(),
                    score: Some((format!("bm25({fts})"), "score")),
                }
            }
            Backend::Sqlite => {
                if !terms.excluded.is_empty() {
                    conditions.push(format!(
                        "{id} NOT IN (SELECT rowid FROM {fts} WHERE {fts} MATCH {})",
                        values.text(terms.fts5_excluded())
                    ));
                }
                plain
            }
            Backend::Postgres if terms.has_text() || !terms.excluded.is_empty() => {
                let tsquery = format!("to_tsquery('simple', {})", values.text(terms.tsquery()));
                conditions.push(format!("{vector} @@ {tsquery}"));
                let score = terms.has_text().then(|| (format!("ts_rank({vector}, {tsquery})"), "score DESC"));
                Matching { score, ..plain }
            }
            Backend::Postgres => plain,
        }
    }
}

impl Matching {
    /// The statement answering a page of the matches that hold `filter`, newest first; or,
    /// when `ranked` and there are words, the newest `candidates` matches by relevance.
    pub fn statement(&self, filter: &str, ranked: bool, candidates: i64, limit: &str, offset: &str) -> String {
        let (source, key) = (&self.source, &self.key);
        match &self.score {
            Some((score, order)) if ranked => format!(
                "SELECT id FROM (SELECT {key} AS id, {score} AS score FROM {source} WHERE {filter} \
                 ORDER BY {key} DESC LIMIT {candidates}) c ORDER BY {order}, id DESC LIMIT {limit} OFFSET {offset}"
            ),
            _ => format!("SELECT {key} FROM {source} WHERE {filter} ORDER BY {key} DESC LIMIT {limit} OFFSET {offset}"),
        }
    }
}

/// Whether a database refused a full-text query's syntax (the query's fault, not the server's).
pub fn is_query_refused(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.message().starts_with("fts5:"))
}
