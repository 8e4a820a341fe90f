//! SQL text helpers shared by the areas' queries.

/// `$start, $start+1, …` for an `IN (...)` list of `n` values, padded to `padded(n)`
/// placeholders (bind the values with `padded_values`). Only placeholders are built
/// dynamically; values are always bound.
pub fn in_list(start: usize, n: usize) -> String {
    (start..start + padded(n)).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// How many values an `IN` list of `n` is sent with: the next power of two. Every distinct
/// statement text is parsed and planned again and takes a slot in each connection's statement
/// cache; padding keeps a handful of texts per query (1, 2, 4 … 64 values), so pages of any
/// composition reuse prepared statements (parsing showed in the feed's profile).
pub fn padded(n: usize) -> usize {
    n.next_power_of_two()
}

/// `values`, then the last one repeated up to `padded(len)` (a value twice in `IN` matches the
/// same rows once).
pub fn padded_values<T: Clone>(values: &[T]) -> impl Iterator<Item = T> + '_ {
    let pad = padded(values.len()) - values.len();
    values.iter().cloned().chain(values.last().cloned().into_iter().cycle().take(pad))
}
