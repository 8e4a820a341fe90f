//! The `murmur` binary: parse the command line and hand over to the library.

/// mimalloc instead of glibc's malloc: every request allocates rows, values and JSON on
/// several threads (tokio's workers, SQLite's connection threads), and glibc's arenas showed as
/// ~12% of the server's time under the feed's load (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // No transparent huge pages: mimalloc's arenas are 2 MiB aligned, so the kernel made a
    // whole huge page resident at the first touch of each, and thousands of idle connections
    // (open live streams) cost half again the memory they use (docs/live.md).
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    murmur::cli::main()
}
