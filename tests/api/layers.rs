//! The layering the code keeps (docs/architecture.md). The crates' order is the compiler's to
//! keep; these check what it cannot: the crates' graph is the documented one, the product's
//! crates depend on no HTTP crate, the domain's areas name only earlier ones, and route files
//! hold HTTP only (each write is one function of its area, which owns its transaction).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What only the database layer and the areas' stores and writes may name.
const DATABASE_WORK: [&str; 6] =
    ["sqlx::query", "query_as(", "query_scalar(", ".begin()", "Connection::begin", "AssertSqlSafe"];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the folder is readable") {
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut routes = Vec::new();
    rust_files(&root.join("crates/server/src/routes"), &mut routes);
    rust_files(&root.join("crates/server/src/extract"), &mut routes);
    rust_files(&root.join("crates/server/src/mastodon"), &mut routes);
    assert!(routes.len() >= 28, "the route files are found: {routes:?}");
    let mut offences = Vec::new();
    for path in &routes {
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

/// Each of the workspace's crates with its normal (not dev or build) dependencies, as `cargo
/// metadata` reads them from the manifests.
fn crate_dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&output.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| {
            let deps = package["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|dep| dep["kind"].is_null())
                .map(|dep| dep["name"].as_str().unwrap().to_string())
                .collect();
            (package["name"].as_str().unwrap().to_string(), deps)
        })
        .collect()
}

/// The crates' dependencies on each other.
fn crate_graph() -> BTreeMap<String, BTreeSet<String>> {
    let all = crate_dependencies();
    let ours: BTreeSet<String> = all.keys().cloned().collect();
    all.into_iter().map(|(name, deps)| (name, deps.intersection(&ours).cloned().collect())).collect()
}

/// The first column of the table that follows `heading` in docs/architecture.md, with the
/// second, in order: rows `| `name` | ... |`.
fn documented_table(heading: &str) -> Vec<(String, String)> {
    let map = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md")).unwrap();
    let section = map.split(heading).nth(1).unwrap_or_else(|| panic!("docs/architecture.md has `{heading}`"));
    section
        .lines()
        .take_while(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((name.to_string(), cells.get(2)?.to_string()))
        })
        .collect()
}

/// The crate table of docs/architecture.md: rows `| `crate` | `dep`, `dep` |`.
fn documented_crate_graph() -> BTreeMap<String, BTreeSet<String>> {
    documented_table("## The crates")
        .into_iter()
        .map(|(name, deps)| {
            let deps = deps.split(',').filter_map(|d| d.trim().strip_prefix('`')?.strip_suffix('`')).map(String::from);
            (name, deps.collect())
        })
        .collect()
}

#[test]
fn the_crates_depend_on_each_other_as_documented() {
    let built = crate_graph();
    assert!(built.len() >= 4, "the workspace's crates are found: {built:?}");
    assert_eq!(built, documented_crate_graph(), "the crates' dependencies (left) differ from docs/architecture.md");
}

#[test]
fn the_product_speaks_no_http() {
    // Below the HTTP layer no crate may even depend on an HTTP crate: routes cannot creep down.
    const HTTP: [&str; 8] = ["axum", "axum-core", "http", "hyper", "hyper-util", "tower", "tower-http", "utoipa-axum"];
    for (name, deps) in crate_dependencies() {
        if name != "murmur-core" && name != "murmur-domain" {
            continue;
        }
        let http: Vec<&String> = deps.iter().filter(|dep| HTTP.contains(&dep.as_str())).collect();
        assert!(http.is_empty(), "{name} depends on HTTP crates: {http:?}");
    }
}

/// The `pub mod` lines of a crate root, in order.
fn modules_of(lib: &Path) -> Vec<String> {
    std::fs::read_to_string(lib)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod ").or_else(|| line.strip_prefix("mod ")))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(String::from)
        .collect()
}

#[test]
fn each_domain_area_names_only_the_areas_before_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/domain/src");
    let order: Vec<String> =
        documented_table("### `murmur-domain`: the areas").into_iter().map(|(area, _)| area).collect();
    let mut areas = modules_of(&src.join("lib.rs"));
    areas.sort();
    let mut documented = order.clone();
    documented.sort();
    assert_eq!(areas, documented, "the areas of crates/domain/src/lib.rs (left) and docs/architecture.md's order");
    let mut offences = Vec::new();
    for (rank, area) in order.iter().enumerate() {
        let mut files = Vec::new();
        if src.join(area).is_dir() {
            rust_files(&src.join(area), &mut files);
        } else {
            files.push(src.join(format!("{area}.rs")));
        }
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            // Unit tests may set up whatever they need.
            let code = text.split("#[cfg(test)]").next().unwrap();
            for later in &order[rank + 1..] {
                if code.contains(&format!("crate::{later}::")) || code.contains(&format!("crate::{later};")) {
                    offences.push(format!("{} names `{later}`, which comes after `{area}`", path.display()));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "an area names a later one in docs/architecture.md's order (move the shared notion down, or \
         reorder the table):\n{}",
        offences.join("\n")
    );
}

#[test]
fn every_crate_and_top_level_module_is_on_the_architecture_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let mut missing = Vec::new();
    for (krate, lib) in [
        ("murmur", "src/lib.rs"),
        ("murmur-core", "crates/core/src/lib.rs"),
        ("murmur-domain", "crates/domain/src/lib.rs"),
        ("murmur-server", "crates/server/src/lib.rs"),
    ] {
        if !map.contains(&format!("`{krate}`")) {
            missing.push(krate.to_string());
        }
        for name in modules_of(&root.join(lib)) {
            if ![format!("`{name}`"), format!("{name}.rs`"), format!("{name}/`")]
                .iter()
                .any(|named| map.contains(named))
            {
                missing.push(format!("{krate}::{name}"));
            }
        }
    }
    assert!(missing.is_empty(), "docs/architecture.md does not name these crates or modules: {missing:?}");
}

#[test]
fn only_the_database_layer_names_a_database() {
    // Dialect differences are asked of `murmur_core::db` by what differs
    // (`Backend::writes_run_at_once`, `db::full_text`, …), never by which database it is.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("crates/domain/src"), &mut files);
    rust_files(&root.join("crates/server/src"), &mut files);
    assert!(files.len() >= 80, "the areas' and the server's files are found: {}", files.len());
    let offences: Vec<String> = files
        .iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            ["Backend::Sqlite", "Backend::Postgres", "backend == ", "backend != "]
                .iter()
                .any(|word| text.contains(word))
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(offences.is_empty(), "area code branching on the database (ask murmur_core::db instead): {offences:?}");
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
