//! Murmur's Mastodon API driven by real clients written by others: Mastodon.py (PyPI) and
//! masto.js (npm), each signing two members in through the consent calls and then using the
//! API as an app does (tests/mastodon/). Without the clients installed the tests are skipped
//! with a printed reason, unless MURMUR_REQUIRE_SERVICES=1 (CI) makes that a failure.

use std::path::Path;
use std::process::Command;

use crate::both_databases_with;
use crate::common::{Member, TestApp};

fn cookie(app: &TestApp, member: &Member, token: &str) -> String {
    let _ = member;
    format!("{}={token}", murmur::session_cookie::name(&app.state.config))
}

/// Runs a client's script against `app` with two members' session cookies; None when the
/// client is not installed (and not required).
fn run(
    app: &TestApp,
    program: &Path,
    script: &str,
    check: &[&str],
    tokens: (&Member, &str, &Member, &str),
) -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let installed = Command::new(program).args(check).current_dir(root).output().is_ok_and(|o| o.status.success());
    if !installed {
        let reason = format!("{} cannot run {}", program.display(), check.join(" "));
        if std::env::var("MURMUR_REQUIRE_SERVICES").as_deref() == Ok("1") {
            panic!("MURMUR_REQUIRE_SERVICES=1 but {reason}; run scripts/install-test-deps.sh");
        }
        eprintln!("skipped: {reason}; run scripts/install-test-deps.sh");
        return None;
    }
    let (ada, ada_token, bob, bob_token) = tokens;
    let output = Command::new(program)
        .arg(root.join(script))
        .current_dir(root)
        .env("MURMUR_BASE", &app.base)
        .env("MURMUR_ADA_COOKIE", cookie(app, ada, ada_token))
        .env("MURMUR_BOB_COOKIE", cookie(app, bob, bob_token))
        // Nothing listens there: the subscription is kept, and its pushes fail and are retried.
        .env("MURMUR_PUSH_ENDPOINT", "http://127.0.0.1:9/mastodon-py")
        .output()
        .expect("the client's script runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{script} failed:\n{stdout}\n{stderr}");
    Some(stdout)
}

async fn two_members(app: &TestApp) -> (Member, String, Member, String) {
    let (ada_id, ada_token) = crate::common::insert_member(&app.state.db, app.clock.now(), "ada").await;
    let (bob_id, bob_token) = crate::common::insert_member(&app.state.db, app.clock.now(), "bob").await;
    let member = |id, name: &str| Member {
        id,
        username: name.to_string(),
        email: format!("{name}@example.com"),
        client: reqwest::Client::new(),
    };
    (member(ada_id, "ada"), ada_token, member(bob_id, "bob"), bob_token)
}

async fn mastodon_py_signs_in_and_uses_the_api(app: TestApp) {
    let (ada, ada_token, bob, bob_token) = two_members(&app).await;
    let python = crate::smtp::python_path();
    let args = ["-c", "import mastodon"];
    if let Some(out) = run(&app, &python, "tests/mastodon/mastodon_py.py", &args, (&ada, &ada_token, &bob, &bob_token))
    {
        assert!(out.contains("every check passed"), "{out}");
    }
}

async fn masto_js_signs_in_with_pkce_and_uses_the_api(app: TestApp) {
    let (ada, ada_token, bob, bob_token) = two_members(&app).await;
    let node = Path::new("node");
    let args = ["-e", "import('./web/node_modules/masto/dist/index.js')"];
    if let Some(out) = run(&app, node, "tests/mastodon/masto.mjs", &args, (&ada, &ada_token, &bob, &bob_token)) {
        assert!(out.contains("every check passed"), "{out}");
    }
}

both_databases_with!(mastodon_py_signs_in_and_uses_the_api, crate::push::allow_loopback);
both_databases_with!(masto_js_signs_in_with_pkce_and_uses_the_api, |_: &mut murmur::Config| {});
