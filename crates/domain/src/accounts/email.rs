//! `Email`: an e-mail address that has been checked, trimmed and lower-cased.

use std::fmt;

use murmur_core::error::Error;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

pub const MAX_EMAIL_LEN: usize = 254;

impl Email {
    pub fn parse(input: &str) -> Result<Email, Error> {
        let value = input.trim().to_lowercase();
        if value.is_empty() {
            return Err(Error::bad_request("Please enter your email address."));
        }
        let invalid = || Error::bad_request("Please enter a valid email address.");
        if value.chars().count() > MAX_EMAIL_LEN {
            return Err(Error::bad_request("Email address is too long (at most 254 characters)."));
        }
        let (local, domain) = value.split_once('@').ok_or_else(invalid)?;
        let domain_ok = domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && domain.split('.').all(|label| {
                !label.is_empty()
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            });
        if local.is_empty() || local.len() > 64 || !domain_ok {
            return Err(invalid());
        }
        // lettre accepts RFC 5321 quoted local parts, which may hold tabs, spaces and other
        // characters no one types in a sign-up form (found by fuzzing); only dot-atoms pass.
        if local.contains('"') || value.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(invalid());
        }
        // lettre's parser applies the RFC 5321 rules to the local part.
        value.parse::<lettre::Address>().map_err(|_| invalid())?;
        Ok(Email(value))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part before the @.
    pub fn local_part(&self) -> &str {
        self.0.split('@').next().unwrap_or_default()
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Email;

    #[test]
    fn valid_addresses_are_trimmed_and_lowercased() {
        assert_eq!(Email::parse("  Ada@Example.COM ").unwrap().as_str(), "ada@example.com");
        assert_eq!(Email::parse("a.b+c@mail.example.org").unwrap().local_part(), "a.b+c");
    }

    #[test]
    fn invalid_addresses_are_refused() {
        for bad in [
            "",
            "   ",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "ada@exa mple.com",
            "ada@-x.com",
            "a\"b@example.com",
            "ada@example..com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?} should be refused");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert!(Email::parse(&long).is_err());
    }

    /// Found by fuzzing: lettre accepts quoted local parts, tabs and all.
    #[test]
    fn email_parser_handles_quoted_local_parts_with_tabs() {
        let found = "\"64LLLLLLLLLLLLLLLLLL\tLLLLLLLL~LLLLLLLLLLLLLLLLLLLLLL\"@0KK.K";
        assert!(Email::parse(found).is_err());
        assert!(Email::parse("\"ada lovelace\"@example.com").is_err());
        assert!(Email::parse("ada\u{0}@example.com").is_err());
    }
}
