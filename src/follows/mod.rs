//! Follows: who reads whom. The Friends feed and suggestions are built on them.

pub mod routes;
pub mod store;
pub mod writes;

pub use routes::router;
