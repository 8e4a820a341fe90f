// `sqlx::migrate!` reads the migrations when this crate compiles; a new migration file must
// rebuild it (as sqlx's documentation recommends), or a binary would lack that migration.
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
