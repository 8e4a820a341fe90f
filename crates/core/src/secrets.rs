//! Secrets: random values from the operating system's CSPRNG, and the hashes we store instead
//! of them (a leaked database must not yield working links or sessions).

use base64::Engine;
use rand::TryRngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};

/// `N` bytes from the OS CSPRNG.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    OsRng.try_fill_bytes(&mut buf).expect("the operating system's random number generator failed");
    buf
}

/// A 256-bit random token, URL-safe base64 (43 characters).
pub fn random_token() -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>())
}

/// Whether `token` could be one `random_token` made (43 characters of base64url): anything else
/// is refused before it is hashed and looked up.
pub fn is_token(token: &str) -> bool {
    token.len() == 43 && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// SHA-256 of a token, hex: what the database keeps.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A code of `len` characters from `alphabet`, uniformly (rejection sampling, no modulo bias).
pub fn random_code(len: usize, alphabet: &[u8]) -> String {
    assert!(!alphabet.is_empty() && alphabet.len() <= 256);
    let limit = 256 - (256 % alphabet.len());
    let mut out = String::with_capacity(len);
    while out.len() < len {
        for b in random_bytes::<32>() {
            if (b as usize) < limit && out.len() < len {
                out.push(alphabet[b as usize % alphabet.len()] as char);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_hash_stably() {
        let a = random_token();
        let b = random_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        assert_eq!(hash_token(&a), hash_token(&a));
        assert_ne!(hash_token(&a), hash_token(&b));
        assert_eq!(hash_token(&a).len(), 64);
    }

    #[test]
    fn codes_use_only_the_alphabet() {
        let code = random_code(12, b"ABC123");
        assert_eq!(code.len(), 12);
        assert!(code.bytes().all(|c| b"ABC123".contains(&c)));
    }
}
