//! Members: profiles, search and suggestions.

pub mod model;
pub mod store;

pub use model::{User, UserRow};
