//! The limits the web app checks while a member types, made from the constants the server
//! enforces. The web app reads them from `web/src/lib/limits.json`, which an API test keeps
//! equal to `limits()` (`MURMUR_UPDATE_LIMITS=1` rewrites it).

use serde_json::{Value, json};

pub fn limits() -> Value {
    use murmur_domain::posts::domain as posts;
    json!({
        "pageSize": murmur_domain::feeds::PAGE_SIZE,
        "postMaxLength": posts::POST_MAX_CHARS,
        "maxImages": murmur_domain::media::MAX_IMAGES,
        "imageDescriptionMaxLength": posts::IMAGE_DESCRIPTION_MAX_CHARS,
        "contentWarningMaxLength": posts::CONTENT_WARNING_MAX_CHARS,
        "listTitleMaxLength": murmur_domain::lists::MAX_TITLE,
        "maxPollOptions": posts::POLL_MAX_OPTIONS,
        "pollOptionMaxLength": posts::POLL_OPTION_MAX_CHARS,
        "reportCommentMaxLength": murmur_domain::moderation::domain::TEXT_MAX_CHARS,
        "moderationReasonMaxLength": murmur_domain::moderation::domain::TEXT_MAX_CHARS,
        "displayNameMaxLength": murmur_domain::users::model::DISPLAY_NAME_MAX,
        "bioMaxLength": murmur_domain::users::model::BIO_MAX,
        "websiteMaxLength": murmur_domain::users::model::WEBSITE_MAX,
        "threadReplies": murmur_domain::posts::MAX_REPLIES,
        "maxUploadBytes": murmur_domain::media::MAX_BYTES,
        "searchPrefixMinLength": murmur_domain::discovery::search::PREFIX_MIN_CHARS,
        "muteHours": murmur_domain::safety::MUTE_HOURS,
        "messageMaxLength": murmur_domain::messages::MESSAGE_MAX_CHARS,
        "maxConversationMembers": murmur_domain::messages::MAX_MEMBERS,
        "maxReportedMessages": murmur_domain::messages::MAX_REPORTED,
    })
}
