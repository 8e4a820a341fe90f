//! The limits the web app checks while a member types, made from the constants the server
//! enforces. The web app reads them from `web/src/lib/limits.json`, which an API test keeps
//! equal to `limits()` (`MURMUR_UPDATE_LIMITS=1` rewrites it).

use serde_json::{Value, json};

pub fn limits() -> Value {
    use crate::posts::domain as posts;
    json!({
        "pageSize": crate::feeds::PAGE_SIZE,
        "postMaxLength": posts::POST_MAX_CHARS,
        "maxImages": crate::media::MAX_IMAGES,
        "imageDescriptionMaxLength": posts::IMAGE_DESCRIPTION_MAX_CHARS,
        "maxPollOptions": posts::POLL_MAX_OPTIONS,
        "pollOptionMaxLength": posts::POLL_OPTION_MAX_CHARS,
        "reportCommentMaxLength": crate::moderation::domain::TEXT_MAX_CHARS,
        "moderationReasonMaxLength": crate::moderation::domain::TEXT_MAX_CHARS,
        "displayNameMaxLength": crate::users::model::DISPLAY_NAME_MAX,
        "bioMaxLength": crate::users::model::BIO_MAX,
        "websiteMaxLength": crate::users::model::WEBSITE_MAX,
        "threadReplies": crate::posts::store::MAX_REPLIES,
        "maxUploadBytes": crate::media::MAX_BYTES,
    })
}
