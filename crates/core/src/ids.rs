//! The ids a request names: a list's members, a conversation's people, a report's messages.

use crate::error::{Error, Result};

/// `ids` each once, ascending (a request may repeat one); 400 naming `what` when one is below 1.
pub fn distinct(ids: &[i64], what: &str) -> Result<Vec<i64>> {
    if ids.iter().any(|id| *id < 1) {
        return Err(Error::bad_request(format!("{what} are named by their ids (1 or more)")));
    }
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::distinct;

    #[test]
    fn ids_are_taken_once_each_in_order_and_none_below_one() {
        assert_eq!(distinct(&[9, 3, 9, 1], "Members").unwrap(), [1, 3, 9]);
        assert!(distinct(&[], "Members").unwrap().is_empty());
        let refused = distinct(&[4, 0], "Messages").unwrap_err().to_string();
        assert!(refused.contains("Messages are named by their ids"), "{refused}");
    }
}
