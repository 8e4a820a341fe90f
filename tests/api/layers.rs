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

#[test]
fn stores_are_private_to_their_areas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offences = Vec::new();
    // Each area's SQL is its own: the crate sees it, the interfaces call the area's functions.
    for area in std::fs::read_dir(root.join("crates/domain/src")).unwrap() {
        let area = area.unwrap().path();
        let mod_rs = area.join("mod.rs");
        if area.join("store.rs").exists() {
            let text = std::fs::read_to_string(&mod_rs).unwrap();
            if !text.lines().any(|line| line == "pub(crate) mod store;") {
                offences.push(format!("{}: its store is not `pub(crate) mod store;`", mod_rs.display()));
            }
        }
    }
    let mut interfaces = Vec::new();
    rust_files(&root.join("crates/server/src/routes"), &mut interfaces);
    rust_files(&root.join("crates/server/src/mastodon"), &mut interfaces);
    assert!(interfaces.len() >= 28, "the interfaces' files are found: {interfaces:?}");
    for path in &interfaces {
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.contains("store::") {
                offences.push(format!("{}:{}: names a store", path.display(), n + 1));
            }
        }
    }
    assert!(offences.is_empty(), "stores outside their areas:\n{}", offences.join("\n"));
}

/// The file of each module of a crate's `src`, by its path (`a::b`; "" for the crate's root).
fn module_files(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                parts.pop();
            }
            (parts.join("::"), file)
        })
        .collect()
}

/// The modules a file names through `crate::`, `super::` or `self::` paths (brace lists of a
/// `use` read one level deep), as module paths of its crate.
fn named_modules(module: &str, text: &str, modules: &BTreeMap<String, PathBuf>) -> BTreeSet<String> {
    let here: Vec<&str> = if module.is_empty() { Vec::new() } else { module.split("::").collect() };
    let mut paths = Vec::new();
    let text: String = text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let words =
        |s: &str| -> Vec<String> { s.split("::").map(|w| w.trim().to_string()).filter(|w| !w.is_empty()).collect() };
    let mut rest = text.as_str();
    while let Some(at) = rest.find(['c', 's']) {
        let tail = &rest[at..];
        let boundary = at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
        let start = ["crate::", "super::", "self::"].into_iter().find(|p| tail.starts_with(p));
        let Some(start) = start.filter(|_| boundary) else {
            rest = &tail[1..];
            continue;
        };
        let end = tail.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(tail.len());
        let path = &tail[..end];
        let base: Vec<String> = match start {
            "crate::" => Vec::new(),
            "super::" => here[..here.len().saturating_sub(1)].iter().map(|s| s.to_string()).collect(),
            _ => here.iter().map(|s| s.to_string()).collect(),
        };
        let mut full = base;
        for word in words(&path[start.len()..]) {
            if word == "super" {
                full.pop();
            } else {
                full.push(word);
            }
        }
        if tail[end..].starts_with('{') {
            let close = tail[end..].find('}').map_or(tail.len(), |i| end + i);
            for item in tail[end + 1..close].split(',') {
                let mut one = full.clone();
                one.extend(words(item.split_whitespace().next().unwrap_or("")));
                paths.push(one);
            }
        }
        paths.push(full);
        rest = &tail[end..];
    }
    let mut named = BTreeSet::new();
    for mut path in paths {
        while !path.is_empty() && !modules.contains_key(&path.join("::")) {
            path.pop();
        }
        let target = path.join("::");
        if !path.is_empty() && target != module {
            named.insert(target);
        }
    }
    named
}

/// The strongly connected groups of more than `max` modules (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>, max: usize) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(walk: &mut Walk<'a>, node: &'a str) {
        let n = walk.index.len();
        walk.index.insert(node, n);
        walk.low.insert(node, n);
        walk.stack.push(node);
        for next in walk.graph.get(node).into_iter().flatten() {
            if !walk.index.contains_key(next.as_str()) {
                visit(walk, next);
                let low = walk.low[next.as_str()].min(walk.low[node]);
                walk.low.insert(node, low);
            } else if walk.stack.contains(&next.as_str()) {
                let low = walk.index[next.as_str()].min(walk.low[node]);
                walk.low.insert(node, low);
            }
        }
        if walk.low[node] == walk.index[node] {
            let mut group = Vec::new();
            while let Some(top) = walk.stack.pop() {
                group.push(top.to_string());
                if top == node {
                    break;
                }
            }
            walk.found.push(group);
        }
    }
    let mut walk = Walk { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            visit(&mut walk, node);
        }
    }
    walk.found.into_iter().filter(|group| group.len() > max).collect()
}

#[test]
fn no_import_circle_holds_more_than_two_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for src in ["crates/core/src", "crates/domain/src", "crates/server/src", "src"] {
        let modules = module_files(&root.join(src));
        let graph: BTreeMap<String, BTreeSet<String>> = modules
            .iter()
            .map(|(module, file)| {
                let text = std::fs::read_to_string(file).unwrap();
                (module.clone(), named_modules(module, &text, &modules))
            })
            .collect();
        for circle in circles(&graph, 2) {
            found.push(format!("{src}: {}", circle.join(", ")));
        }
    }
    assert!(found.is_empty(), "import circles of more than two files:\n{}", found.join("\n"));
}
