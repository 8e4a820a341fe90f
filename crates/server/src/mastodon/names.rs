//! Mastodon's names of Murmur's notification kinds and push alerts: one table, from which the
//! notifications' `type`, the `types[]` filters and the push alerts are all read.

use murmur_domain::notifications::{Kind, Kinds};
use murmur_domain::push::Alert;

/// Each Mastodon name with the Murmur kinds and alerts it stands for ("mention" is also a
/// reply; "poll" is an alert only: a poll's end is no notification in Murmur). Murmur's
/// `message` alert has no Mastodon name: apps are not pushed messages.
const NAMES: [(&str, &[Kind], &[Alert]); 6] = [
    ("mention", &[Kind::Reply, Kind::Mention], &[Alert::Reply, Alert::Mention]),
    ("reblog", &[Kind::Repost], &[Alert::Repost]),
    ("favourite", &[Kind::Like], &[Alert::Like]),
    ("follow", &[Kind::Follow], &[Alert::Follow]),
    ("poll", &[], &[Alert::Poll]),
    ("quote", &[Kind::Quote], &[Alert::Quote]),
];

/// Mastodon's push alert names Murmur never sends, accepted and always off.
pub const ALWAYS_OFF: [&str; 6] =
    ["status", "update", "follow_request", "admin.sign_up", "admin.report", "quoted_update"];

/// Mastodon's type of a notification kind (stored as `Kind::as_str`); None for Murmur's own
/// kinds that apps cannot show (a removal, an archive ready).
pub fn notification_type(kind: &str) -> Option<&'static str> {
    let kind = Kind::parse(kind)?;
    NAMES.iter().find(|(_, kinds, _)| kinds.contains(&kind)).map(|(name, _, _)| *name)
}

/// The kinds behind a Mastodon type (an unknown type names none).
pub fn kinds_of(name: &str) -> &'static [Kind] {
    NAMES.iter().find(|(known, _, _)| *known == name).map_or(&[], |(_, kinds, _)| kinds)
}

/// Every kind apps are shown.
pub fn shown_kinds() -> Kinds {
    NAMES.iter().flat_map(|(_, kinds, _)| kinds.iter()).fold(Kinds::NONE, |kinds, kind| kinds.with(*kind))
}

/// Mastodon's alert names with the alerts each stands for.
pub fn alerts() -> impl Iterator<Item = (&'static str, &'static [Alert])> {
    NAMES.iter().map(|(name, _, alerts)| (*name, *alerts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_an_app_is_shown_has_one_name_and_every_alert_one() {
        for kind in Kind::ALL {
            let named = NAMES.iter().filter(|(_, kinds, _)| kinds.contains(&kind)).count();
            let expected = usize::from(!matches!(kind, Kind::Removed | Kind::ExportReady));
            assert_eq!(named, expected, "{kind:?}");
        }
        // A message is pushed to web sessions alone: apps have no alert for it.
        for alert in Alert::ALL {
            let expected = usize::from(alert != Alert::Message);
            assert_eq!(NAMES.iter().filter(|(_, _, alerts)| alerts.contains(&alert)).count(), expected, "{alert:?}");
        }
        assert_eq!(notification_type("like"), Some("favourite"));
        assert_eq!(notification_type("reply"), Some("mention"));
        assert_eq!(notification_type("removed"), None);
        assert_eq!(kinds_of("mention"), [Kind::Reply, Kind::Mention]);
        assert!(kinds_of("poll").is_empty() && kinds_of("unknown").is_empty());
    }
}
