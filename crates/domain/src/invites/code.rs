//! `InviteCode`: 12 characters of A–Z and 0–9, as a person types it (trimmed, upper-cased).

use std::fmt;

use super::store::{CODE_ALPHABET, CODE_LEN};
use murmur_core::error::Error;

pub const INVALID: &str = "Invalid or expired invite code";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InviteCode(String);

impl InviteCode {
    /// Empty: "Please enter your invite code." Anything that cannot be a code answers the same
    /// as an unknown one, so the message does not teach the format to someone guessing.
    pub fn parse(input: &str) -> Result<InviteCode, Error> {
        let value = input.trim().to_ascii_uppercase();
        if value.is_empty() {
            return Err(Error::bad_request("Please enter your invite code."));
        }
        if value.len() != CODE_LEN || !value.bytes().all(|b| CODE_ALPHABET.contains(&b)) {
            return Err(Error::bad_request(INVALID));
        }
        Ok(InviteCode(value))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for InviteCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_trimmed_and_upper_cased() {
        assert_eq!(InviteCode::parse("  abcd1234efgh \n").unwrap().as_str(), "ABCD1234EFGH");
        assert_eq!(InviteCode::parse("ABCD1234EFGH").unwrap().as_str(), "ABCD1234EFGH");
    }

    #[test]
    fn an_empty_code_asks_for_one() {
        for empty in ["", "   "] {
            let err = InviteCode::parse(empty).unwrap_err();
            assert_eq!(err.to_string(), "Please enter your invite code.");
        }
    }

    #[test]
    fn malformed_codes_read_as_invalid() {
        for bad in ["ABCD1234EFG", "ABCD1234EFGHI", "ABCD-1234-EFG", "ABCD1234EFGÄ", "ABCD 1234EFG"] {
            let err = InviteCode::parse(bad).unwrap_err();
            assert_eq!(err.to_string(), INVALID, "{bad:?}");
        }
    }

    #[test]
    fn generated_codes_parse() {
        let code = murmur_core::secrets::random_code(CODE_LEN, CODE_ALPHABET);
        assert_eq!(InviteCode::parse(&code).unwrap().as_str(), code);
    }
}
