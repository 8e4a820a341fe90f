//! The `murmur` binary: parse the command line and hand over to the library.

/// mimalloc instead of glibc's malloc: every request allocates rows, values and JSON on
/// several threads (tokio's workers, SQLite's connection threads), and glibc's arenas showed as
/// ~12% of the server's time under the feed's load (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    murmur::cli::main()
}
