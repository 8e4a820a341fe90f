//! The messages Murmur sends. Each has a subject that says what it is, a plain-text part and
//! an HTML part, and the link written out in full (some mail clients show no buttons). Text
//! is ASCII so parts stay readable in any client.

use super::Email;
use murmur_core::html::escape;

/// A sign-up link: following it creates the account.
pub fn sign_up_link(to: &str, link: &str) -> Email {
    link_message(
        to,
        "Finish signing up for Murmur",
        "Welcome to Murmur! Follow this link to create your account and log in:",
        "Create my account",
        link,
    )
}

/// A login link for a member.
pub fn login_link(to: &str, link: &str) -> Email {
    link_message(to, "Your Murmur login link", "Follow this link to log in to Murmur:", "Log in to Murmur", link)
}

/// A link a signed-in member asked for to confirm it is them (before adding a passkey).
pub fn reauthentication_link(to: &str, link: &str) -> Email {
    link_message(
        to,
        "Confirm it's you on Murmur",
        "You asked to confirm it's you, to add a passkey to your Murmur account. Open this link in \
         the browser where you asked:",
        "Confirm it's me",
        link,
    )
}

/// A link that makes this address a member's new address.
pub fn email_change_link(to: &str, link: &str) -> Email {
    link_message(
        to,
        "Confirm your new Murmur e-mail address",
        "Follow this link to make this your Murmur e-mail address. Your login links will come here from then on:",
        "Confirm my new address",
        link,
    )
}

/// The link that confirms deleting an account: it opens a screen that asks once more.
pub fn delete_account_link(to: &str, link: &str) -> Email {
    link_message(
        to,
        "Confirm deleting your Murmur account",
        "You asked to delete your Murmur account. Follow this link to confirm; the page it opens \
         asks once more before anything is deleted. Deleting removes your posts, replies, likes, \
         follows and images, and cannot be undone:",
        "Delete my account",
        link,
    )
}

/// Sent to a member's old address once their address changed: if they did not ask for it,
/// this is how they learn of it.
pub fn email_changed_notice(to: &str, new_email: &str) -> Email {
    let subject = "Your Murmur e-mail address was changed";
    let lead = format!("The e-mail address of your Murmur account was changed to {new_email}.");
    let after = "Login links now go to the new address; this address gets none any more.";
    let footer = "If you did not change it, someone may have had access to your account: \
                  please contact the people who run this Murmur instance.";
    let text = format!("Hi,\n\n{lead}\n\n{after}\n\n{footer}\n\n-- Murmur\n");
    let html = html_page(
        subject,
        &format!(
            "<p>Hi,</p>\n<p>{lead}</p>\n<p>{after}</p>\n<p>{footer}</p>",
            lead = escape(&lead),
            after = escape(after),
            footer = escape(footer),
        ),
    );
    Email { to: to.to_string(), subject: subject.to_string(), text, html }
}

/// Sent when a passkey is added to an account: if the member did not add it, this is how they
/// learn of it. Names the passkey and the browser it was added from (`device`, as the list of
/// sessions names it), and links to Settings, where both can be removed.
pub fn passkey_added_notice(to: &str, name: &str, device: &str, settings: &str) -> Email {
    let subject = "A passkey was added to your account";
    let lead = format!(
        "A passkey named \"{name}\" was added to your Murmur account from {device}. It can sign in to your account."
    );
    let after = "You can see and remove your passkeys, and log out your sessions, in Settings:";
    let footer = "If you did not add it, remove it there, choose \"Log out everywhere else\" with \
                  \"Also remove all passkeys\", and contact the people who run this Murmur instance.";
    let text = format!("Hi,\n\n{lead}\n\n{after}\n{settings}\n\n{footer}\n\n-- Murmur\n");
    let html = html_page(
        subject,
        &format!(
            "<p>Hi,</p>\n<p>{lead}</p>\n<p>{after}<br><a href=\"{href}\">{link}</a></p>\n<p>{footer}</p>",
            lead = escape(&lead),
            after = escape(after),
            href = escape(settings),
            link = escape(settings),
            footer = escape(footer),
        ),
    );
    Email { to: to.to_string(), subject: subject.to_string(), text, html }
}

fn link_message(to: &str, subject: &str, lead: &str, button: &str, link: &str) -> Email {
    let footer = "The link works once and expires in 15 minutes. If you did not ask for it, \
                  ignore this e-mail: nothing happens without the link.";
    let text = format!("Hi,\n\n{lead}\n\n{link}\n\n{footer}\n\n-- Murmur\n");
    let html = html_page(
        subject,
        &format!(
            "<p>Hi,</p>\n<p>{lead}</p>\n{button_html}\n\
             <p>Or copy this address into your browser:<br>{link_text}</p>\n<p>{footer}</p>",
            lead = escape(lead),
            button_html = button_html(link, button),
            link_text = escape(link),
            footer = escape(footer),
        ),
    );
    Email { to: to.to_string(), subject: subject.to_string(), text, html }
}

/// An invite from the operator to an address on the waitlist.
pub fn waitlist_invite(to: &str, code: &str, link: &str) -> Email {
    let subject = "Your invite to Murmur";
    let lead = "It's your turn: you're invited to Murmur, the human network.";
    let how = "Open Murmur, choose Login, and sign up with this invite code and this e-mail address:";
    let footer = "The code works once and is valid for 7 days.";
    let text = format!("Hi,\n\n{lead}\n\n{how}\n\n    {code}\n\n{link}\n\n{footer}\n\n-- Murmur\n");
    let html = html_page(
        subject,
        &format!(
            "<p>Hi,</p>\n<p>{lead}</p>\n<p>{how}</p>\n\
             <p style=\"font-size:22px;font-family:monospace;letter-spacing:2px\"><strong>{code}</strong></p>\n\
             {button_html}\n<p>{link_text}</p>\n<p>{footer}</p>",
            lead = escape(lead),
            how = escape(how),
            code = escape(code),
            button_html = button_html(link, "Open Murmur"),
            link_text = escape(link),
            footer = escape(footer),
        ),
    );
    Email { to: to.to_string(), subject: subject.to_string(), text, html }
}

/// The member's data archive is ready: where to download it, and until when.
pub fn export_ready(to: &str, link: &str, expires: &str) -> Email {
    let subject = "Your Murmur data is ready to download";
    let lead = "The archive of your Murmur data you asked for is ready: your profile, posts with their images, \
                likes, follows, followers and invites.";
    let how = "Download it from your settings (you need to be logged in):";
    let footer = format!("The archive is kept until {expires}, then removed. You can ask for a new one at any time.");
    let text = format!("Hi,\n\n{lead}\n\n{how}\n\n{link}\n\n{footer}\n\n-- Murmur\n");
    let html = html_page(
        subject,
        &format!(
            "<p>Hi,</p>\n<p>{lead}</p>\n<p>{how}</p>\n{button_html}\n<p>{link_text}</p>\n<p>{footer}</p>",
            lead = escape(lead),
            how = escape(how),
            button_html = button_html(link, "Open my settings"),
            link_text = escape(link),
            footer = escape(&footer),
        ),
    );
    Email { to: to.to_string(), subject: subject.to_string(), text, html }
}

fn button_html(link: &str, label: &str) -> String {
    format!(
        "<p><a href=\"{href}\" style=\"display:inline-block;padding:10px 18px;border-radius:6px;\
         background:#111;color:#fff;text-decoration:none\">{label}</a></p>",
        href = escape(link),
        label = escape(label),
    )
}

fn html_page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n\
         <body style=\"font-family:sans-serif;line-height:1.5;color:#111\">\n{body}\n\
         <p>&mdash; Murmur</p>\n</body></html>\n",
        title = escape(title),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINK: &str = "https://murmur.example/auth/verify?token=abc_-123&invite=ABCD1234EFGH";

    #[test]
    fn link_messages_carry_the_link_in_both_parts() {
        for email in [sign_up_link("ada@example.com", LINK), login_link("ada@example.com", LINK)] {
            assert!(email.text.contains(LINK));
            assert!(email.html.contains(&LINK.replace('&', "&amp;")));
            assert!(!email.html.contains("&invite"), "the & must be escaped in HTML");
            assert!(email.subject.contains("Murmur"));
            assert!(email.text.is_ascii() && email.html.is_ascii());
        }
        assert_ne!(sign_up_link("a@b.co", LINK).subject, login_link("a@b.co", LINK).subject);
    }

    #[test]
    fn an_address_change_asks_the_new_address_and_tells_the_old_one() {
        let link = "https://murmur.example/auth/confirm-email?token=abc_-123";
        let ask = email_change_link("new@example.com", link);
        assert!(ask.text.contains(link) && ask.html.contains(link));
        assert_eq!(ask.to, "new@example.com");
        let notice = email_changed_notice("old@example.com", "new@example.com");
        assert_eq!(notice.to, "old@example.com");
        assert!(notice.text.contains("new@example.com") && notice.html.contains("new@example.com"));
        assert!(!notice.text.contains("http"), "the notice carries no link");
        assert!(notice.text.is_ascii() && notice.html.is_ascii());
    }

    #[test]
    fn the_export_ready_message_links_to_the_settings() {
        let email = export_ready("ada@example.com", "https://murmur.example/settings", "2026-12-03 10:00 UTC");
        assert!(email.text.contains("https://murmur.example/settings") && email.html.contains("/settings"));
        assert!(email.text.contains("2026-12-03 10:00 UTC"));
        assert!(email.text.is_ascii() && email.html.is_ascii());
    }

    #[test]
    fn the_waitlist_invite_names_the_code() {
        let email = waitlist_invite("ada@example.com", "ABCD1234EFGH", "https://murmur.example/?login=1");
        assert!(email.text.contains("ABCD1234EFGH") && email.html.contains("ABCD1234EFGH"));
        assert!(email.text.contains("https://murmur.example/?login=1"));
    }
}
