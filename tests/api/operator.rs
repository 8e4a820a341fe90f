//! The operator's commands run as an operator runs them: the real binary, its output and exit
//! code. `murmur check` before a restart, `murmur migrate --dry-run` before an upgrade.

use std::path::Path;
use std::process::Output;

fn murmur(data_dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_murmur"));
    command.args(args).arg("--data-dir").arg(data_dir).env_remove("DATABASE_URL").env_remove("SMTP_URL");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the murmur binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn migrate_dry_run_lists_what_would_run_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let before = murmur(dir.path(), &["migrate", "--dry-run"], &[]);
    assert!(before.status.success());
    let listed: Vec<String> = stdout(&before).lines().map(str::to_string).collect();
    assert!(listed.len() >= 5 && listed.iter().all(|l| l.starts_with("would run ")), "{listed:?}");
    assert!(listed[0].starts_with("would run 0001 "), "{listed:?}");
    // Nothing was applied: a second dry run lists the same.
    assert_eq!(stdout(&murmur(dir.path(), &["migrate", "--dry-run"], &[])).lines().count(), listed.len());
    assert!(murmur(dir.path(), &["migrate"], &[]).status.success());
    assert_eq!(stdout(&murmur(dir.path(), &["migrate", "--dry-run"], &[])).trim(), "no migrations to run");
}

#[test]
fn check_says_everything_answers_and_names_a_mail_server_that_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let fine = murmur(dir.path(), &["check"], &[]);
    assert!(fine.status.success(), "{}", stdout(&fine));
    assert!(stdout(&fine).contains("ok         database"), "{}", stdout(&fine));
    assert!(stdout(&fine).contains("everything answers"));

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let smtp = format!("smtp://127.0.0.1:{closed}");
    let broken = murmur(dir.path(), &["check"], &[("SMTP_URL", &smtp)]);
    assert!(!broken.status.success());
    let out = stdout(&broken);
    assert!(out.contains("PROBLEM    mail: The mail server cannot be reached"), "{out}");
    assert!(out.contains("ok         database"), "{out}");
    assert!(String::from_utf8_lossy(&broken.stderr).contains("1 problem(s) found"));
}
