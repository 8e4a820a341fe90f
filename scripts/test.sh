#!/usr/bin/env bash
# Every test of Murmur: the web app's type check, lint and component tests, its production build
# (embedded in the binary), the Rust layout and lints, the Rust unit and API tests on SQLite and
# PostgreSQL, the files under deploy/ checked by the programs that read them, and the browser
# tests against the real server. `make test` runs this.
#
# PostgreSQL: the API tests also run on PostgreSQL when MURMUR_TEST_POSTGRES_URL is set
# (e.g. postgres://postgres@127.0.0.1:5432/test); MURMUR_REQUIRE_POSTGRES=1 makes its absence
# a failure instead of a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
# Kept outside the checkout so fresh clones (CI) reuse them.
SERVICES="${MURMUR_TEST_SERVICES:-$HOME/.cache/murmur/test-services}"

bash scripts/install-test-deps.sh

echo "== web: type check, lint and component tests"
npm --prefix web test

echo "== web: production build"
npm --prefix web run build

echo "== server: layout (rustfmt.toml) and lints"
cargo fmt --all --check
cargo clippy --all-targets -- -D warnings

echo "== server: unit and API tests"
export MURMUR_TEST_PYTHON="$SERVICES/venv/bin/python"
export MURMUR_TEST_S3S_FS="$SERVICES/bin/s3s-fs"
cargo test --all-targets

echo "== deploy files (systemd unit, Caddyfile, nginx server blocks)"
bash scripts/check-deploy.sh "$CARGO_TARGET_DIR/debug/murmur"

echo "== browser tests"
cargo build --bin murmur
MURMUR_BIN="$CARGO_TARGET_DIR/debug/murmur" npm --prefix web run test:e2e

echo "== API fuzzing (schemathesis against /api/openapi.json)"
"$SERVICES/venv/bin/python" scripts/fuzz_api.py "$CARGO_TARGET_DIR/debug/murmur" "${MURMUR_FUZZ_EXAMPLES:-15}"
