//! Members: profiles, search and suggestions.

pub mod model;
pub mod routes;
pub mod store;

pub use model::{User, UserRow};
pub use routes::router;
