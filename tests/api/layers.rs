//! The layering the code keeps (docs/architecture.md): route files hold HTTP only. Each write
//! is one function of its area, which owns its transaction; a route parses, calls and answers.

use std::path::{Path, PathBuf};

/// What only the database layer and the areas' stores and writes may name.
const DATABASE_WORK: [&str; 6] =
    ["sqlx::query", "query_as(", "query_scalar(", ".begin()", "Connection::begin", "AssertSqlSafe"];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn route_files_open_no_transaction_and_hold_no_sql() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    let routes: Vec<_> =
        files.iter().filter(|path| path.file_name().unwrap().to_string_lossy().ends_with("routes.rs")).collect();
    assert!(routes.len() >= 15, "the route files are found: {routes:?}");
    let mut offences = Vec::new();
    for path in routes {
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if let Some(word) = DATABASE_WORK.iter().find(|word| line.contains(**word)) {
                offences.push(format!("{}:{}: {word}", path.display(), n + 1));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "database work in route files (move it into the area's write):\n{}",
        offences.join("\n")
    );
}

#[test]
fn every_top_level_module_is_on_the_architecture_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let map = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod ").or_else(|| line.strip_prefix("mod ")))
        .filter_map(|rest| rest.strip_suffix(';'))
        .collect();
    assert!(modules.len() >= 30, "the modules are found: {modules:?}");
    let missing: Vec<_> = modules
        .iter()
        .filter(|name| {
            ![format!("`{name}`"), format!("{name}.rs`"), format!("{name}/`")].iter().any(|named| map.contains(named))
        })
        .collect();
    assert!(missing.is_empty(), "docs/architecture.md does not name these modules of src/lib.rs: {missing:?}");
}

#[test]
fn the_web_apps_limits_are_the_servers() {
    // The web app checks these while a member types (web/src/lib/types.ts reads the file).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/lib/limits.json");
    let served = murmur::web::limits::limits();
    if std::env::var_os("MURMUR_UPDATE_LIMITS").is_some() {
        std::fs::write(&path, format!("{}\n", serde_json::to_string_pretty(&served).unwrap())).unwrap();
    }
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("web/src/lib/limits.json")).expect("JSON");
    assert!(
        committed == served,
        "web/src/lib/limits.json is not the server's limits: run `MURMUR_UPDATE_LIMITS=1 cargo test --test api \
         the_web_apps_limits_are_the_servers`"
    );
}
