//! A member as stored and as the API shows them.

use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::{Millis, to_rfc3339};

/// Columns selected for a user; keep in sync with `user_columns!`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: i64,
    pub email: String,
    pub username: String,
    pub display_name: String,
    pub bio: String,
    pub website: String,
    pub profile_image_url: Option<String>,
    pub header_image_url: Option<String>,
    pub created_at: Millis,
    pub follower_count: i64,
    pub following_count: i64,
    pub invites_available: i64,
}

/// The columns of `UserRow`, for `concat!` into static SQL (sqlx refuses unaudited dynamic SQL).
#[macro_export]
macro_rules! user_columns {
    () => {
        "id, email, username, display_name, bio, website, profile_image_url, header_image_url, \
         created_at, follower_count, following_count, invites_available"
    };
}

/// A member as the API answers them. `email` only on the member's own record.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub bio: String,
    pub website: String,
    pub profile_image_url: Option<String>,
    pub header_image_url: Option<String>,
    pub created_at: String,
    pub follower_count: i64,
    pub following_count: i64,
    pub invites_available: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

impl UserRow {
    /// The public view: no e-mail, and invitesAvailable only matters to its owner.
    pub fn public(self) -> User {
        User {
            id: self.id,
            username: self.username,
            display_name: self.display_name,
            bio: self.bio,
            website: self.website,
            profile_image_url: self.profile_image_url,
            header_image_url: self.header_image_url,
            created_at: to_rfc3339(self.created_at),
            follower_count: self.follower_count,
            following_count: self.following_count,
            invites_available: 0,
            email: None,
        }
    }

    /// The member's own view, with e-mail and invite allowance.
    pub fn own(self) -> User {
        let email = Some(self.email.clone());
        let invites = self.invites_available;
        User { email, invites_available: invites, ..self.public() }
    }
}
