//! Mastodon's parameters, as apps send them: a JSON body, or form fields and query strings in
//! Rails' bracket style (`media_ids[]=1&media_ids[]=2`, `poll[options][]=a`,
//! `data[alerts][follow]=true`). Both become one JSON value, read into the handler's type; form
//! values stay strings, so numbers and booleans are read by `lenient`.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::error::MastodonError;
use murmur_core::error::Error;

/// The most fields a form or query may hold, and the deepest brackets.
const MAX_FIELDS: usize = 200;
const MAX_DEPTH: usize = 4;

/// Parameters from the body: JSON, or a URL-encoded form (multipart is the media routes' own).
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Params<T> {
    type Rejection = MastodonError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = content_type(request.headers());
        let query = request.uri().query().map(str::to_string);
        let body = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|_| MastodonError(Error::PayloadTooLarge("The request body is too large".into())))?;
        let mut value = if content_type.starts_with("application/json") {
            serde_json::from_slice(&body).map_err(|e| MastodonError::unprocessable(format!("Malformed JSON: {e}")))?
        } else if body.is_empty() {
            Value::Object(Map::new())
        } else {
            from_pairs(url::form_urlencoded::parse(&body))?
        };
        // Some apps send a write's parameters in the query string instead.
        if let (Some(query), Value::Object(fields)) = (query, &mut value)
            && let Value::Object(from_query) = from_pairs(url::form_urlencoded::parse(query.as_bytes()))?
        {
            for (key, field) in from_query {
                fields.entry(key).or_insert(field);
            }
        }
        Ok(Params(read(value)?))
    }
}

/// The request's media type, lowercased (empty when absent).
pub fn content_type(headers: &axum::http::HeaderMap) -> String {
    headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or_default().to_ascii_lowercase()
}

/// Parameters from the query string.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = MastodonError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        Ok(QueryParams(read(from_pairs(url::form_urlencoded::parse(query.as_bytes()))?)?))
    }
}

fn read<T: DeserializeOwned>(value: Value) -> Result<T, MastodonError> {
    serde_json::from_value(value).map_err(|e| MastodonError::unprocessable(format!("Invalid parameters: {e}")))
}

/// Form pairs as one JSON object: `a[b][]=x` is `{"a": {"b": ["x"]}}`.
pub fn from_pairs<'a>(
    pairs: impl Iterator<Item = (std::borrow::Cow<'a, str>, std::borrow::Cow<'a, str>)>,
) -> Result<Value, MastodonError> {
    let mut root = Value::Object(Map::new());
    for (count, (key, value)) in pairs.enumerate() {
        if count >= MAX_FIELDS {
            return Err(MastodonError::unprocessable("Too many parameters"));
        }
        let path = key_path(&key).ok_or_else(|| MastodonError::unprocessable("Malformed parameter name"))?;
        insert(&mut root, &path, Value::String(value.into_owned()))?;
    }
    Ok(root)
}

/// `a[b][]` as `["a", "b", ""]`.
fn key_path(key: &str) -> Option<Vec<&str>> {
    let (head, mut rest) = match key.find('[') {
        Some(at) => (&key[..at], &key[at..]),
        None => (key, ""),
    };
    let mut path = vec![head];
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let end = inner.find(']')?;
        path.push(&inner[..end]);
        rest = &inner[end + 1..];
    }
    (!head.is_empty() && path.len() <= MAX_DEPTH).then_some(path)
}

fn insert(node: &mut Value, path: &[&str], value: Value) -> Result<(), MastodonError> {
    let conflict = || MastodonError::unprocessable("Conflicting parameters");
    let (first, rest) = path.split_first().expect("a key path is never empty");
    if first.is_empty() {
        // `[]`: the next item of a list.
        let Value::Array(items) = node else { return Err(conflict()) };
        if rest.is_empty() {
            items.push(value);
            return Ok(());
        }
        // As Rails reads `a[][id]=1&a[][description]=x&a[][id]=2`: a field goes into the last
        // item until that item already has it, then a new item begins.
        let fits_last = matches!(items.last(), Some(Value::Object(last)) if !last.contains_key(rest[0]));
        if !fits_last {
            items.push(Value::Object(Map::new()));
        }
        let last = items.last_mut().expect("an item was just made or found");
        insert(last, rest, value)?;
        return Ok(());
    }
    let Value::Object(fields) = node else { return Err(conflict()) };
    match rest.first() {
        None => {
            fields.insert(first.to_string(), value);
        }
        Some(next) => {
            let empty = if next.is_empty() { Value::Array(Vec::new()) } else { Value::Object(Map::new()) };
            let child = fields.entry(first.to_string()).or_insert(empty);
            insert(child, rest, value)?;
        }
    }
    Ok(())
}

/// Readers for fields that arrive as JSON numbers and booleans, or as form strings.
pub mod lenient {
    use serde::{Deserialize, Deserializer, de::Error};
    use serde_json::Value;

    pub fn bool<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
        match Option::<Value>::deserialize(deserializer)? {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(Value::String(s)) => match s.as_str() {
                "true" | "1" | "on" => Ok(Some(true)),
                "false" | "0" | "off" | "" => Ok(Some(false)),
                _ => Err(D::Error::custom("expected true or false")),
            },
            Some(Value::Number(n)) => Ok(Some(n.as_i64() != Some(0))),
            Some(_) => Err(D::Error::custom("expected true or false")),
        }
    }

    pub fn i64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
        match Option::<Value>::deserialize(deserializer)? {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n.as_i64().map(Some).ok_or_else(|| D::Error::custom("expected a whole number")),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => s.parse().map(Some).map_err(|_| D::Error::custom("expected a whole number")),
            Some(_) => Err(D::Error::custom("expected a whole number")),
        }
    }

    /// An id: Mastodon's ids are strings; a number is taken too.
    pub fn id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
        i64(deserializer)
    }

    /// A list of ids (`media_ids[]`), as strings or numbers.
    pub fn ids<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<i64>, D::Error> {
        match Option::<Value>::deserialize(deserializer)? {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|item| match item {
                    Value::Number(n) => n.as_i64().ok_or_else(|| D::Error::custom("expected ids")),
                    Value::String(s) => s.parse().map_err(|_| D::Error::custom("expected ids")),
                    _ => Err(D::Error::custom("expected ids")),
                })
                .collect(),
            Some(Value::String(s)) => s.parse().map(|id| vec![id]).map_err(|_| D::Error::custom("expected ids")),
            Some(_) => Err(D::Error::custom("expected ids")),
        }
    }

    /// A list of strings (`types[]`), or one.
    pub fn strings<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
        match Option::<Value>::deserialize(deserializer)? {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(vec![s]),
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s),
                    _ => Err(D::Error::custom("expected strings")),
                })
                .collect(),
            Some(_) => Err(D::Error::custom("expected strings")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::from_pairs;
    use serde_json::json;

    fn parsed(query: &str) -> serde_json::Value {
        from_pairs(url::form_urlencoded::parse(query.as_bytes())).map_err(|e| e.0.to_string()).unwrap()
    }

    #[test]
    fn brackets_make_lists_and_objects() {
        assert_eq!(
            parsed("status=hi&media_ids[]=1&media_ids[]=2&poll[options][]=a&poll[options][]=b&poll[expires_in]=300"),
            json!({"status": "hi", "media_ids": ["1", "2"], "poll": {"options": ["a", "b"], "expires_in": "300"}})
        );
        assert_eq!(parsed("data[alerts][follow]=true"), json!({"data": {"alerts": {"follow": "true"}}}));
    }

    #[test]
    fn a_list_of_objects_starts_a_new_item_when_a_field_repeats() {
        assert_eq!(
            parsed("m[][id]=1&m[][description]=a&m[][id]=2&m[][description]=b&m[][id]=3"),
            json!({"m": [{"id": "1", "description": "a"}, {"id": "2", "description": "b"}, {"id": "3"}]})
        );
    }

    #[test]
    fn malformed_and_conflicting_names_are_refused() {
        for query in ["a[b=1", "[x]=1", "a=1&a[]=2", "a[]=1&a[b]=2", "a[b][c][d][e]=1"] {
            assert!(from_pairs(url::form_urlencoded::parse(query.as_bytes())).is_err(), "{query}");
        }
    }
}
