#!/usr/bin/env bash
# Every test of Murmur: the web app's type check, lint and component tests, its production build
# (embedded in the binary), the Rust layout and lints, the Rust unit and API tests on SQLite and
# PostgreSQL, the files under deploy/ checked by the programs that read them, the browser tests
# against the real server, and the API fuzzing. `make test` runs this; it prints each phase's
# wall time and the slowest tests (README, "Testing").
#
# PostgreSQL: the API tests also run on PostgreSQL when MURMUR_TEST_POSTGRES_URL is set
# (e.g. postgres://postgres@127.0.0.1:5432/test); MURMUR_REQUIRE_POSTGRES=1 makes its absence
# a failure instead of a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
# Kept outside the checkout so fresh clones (CI) reuse them.
SERVICES="${MURMUR_TEST_SERVICES:-$HOME/.cache/murmur/test-services}"
TIMES="$(mktemp -d)"

PHASES=()
STARTED=$SECONDS
# Runs one phase (`phase NAME command...`), noting its wall time.
phase() {
    local name=$1 start=$SECONDS
    shift
    echo "== $name"
    "$@"
    PHASES+=("$(printf '%5d s  %s' $((SECONDS - start)) "$name")")
}
# Printed however the run ends, so a failed run still says where its time went.
summary() {
    local status=$?
    echo "== phase times"
    printf '%s\n' "${PHASES[@]}"
    printf '%5d s  total (exit %d)\n' $((SECONDS - STARTED)) "$status"
    rm -rf "$TIMES"
}
trap summary EXIT

# The web app's checks and build need no Rust, and the Rust lints need no web app: they run
# side by side (each on a core), the web's output kept until it is done.
web_checks() {
    npm --prefix web test && npm --prefix web run build
}
web_beside_lints() {
    web_checks >"$TIMES/web.log" 2>&1 &
    local web=$!
    local lints=0
    cargo fmt --all --check && cargo clippy --all-targets -- -D warnings || lints=$?
    local checks=0
    wait "$web" || checks=$?
    echo "-- web: type check, lint, component tests and production build"
    if [ "$checks" -ne 0 ]; then
        cat "$TIMES/web.log"
    else
        grep -E "Test Files|Tests |built in" "$TIMES/web.log" || true
    fi
    [ "$lints" -eq 0 ] && [ "$checks" -eq 0 ]
}

# The slowest tests of a run: one "seconds<TAB>name" line per test in $1.
slowest() {
    echo "-- the 20 slowest $2"
    # awk reads all of sort's output: `head` would stop early, and sort's broken pipe fail the run.
    sort -rn "$1" | awk -F '\t' 'NR <= 20 { printf "%7.1f s  %s\n", $1, $2 }'
}

api_tests() {
    export MURMUR_TEST_PYTHON="$SERVICES/venv/bin/python"
    export MURMUR_TEST_S3S_FS="$SERVICES/bin/s3s-fs"
    MURMUR_TEST_TIMES="$TIMES/api.tsv" cargo test --all-targets
    slowest "$TIMES/api.tsv" "API tests"
}

browser_tests() {
    # `cargo test --all-targets` built the server with the tests' features; building it alone
    # would compile the dependencies a second time for nothing.
    test -x "$CARGO_TARGET_DIR/debug/murmur"
    MURMUR_BIN="$CARGO_TARGET_DIR/debug/murmur" npm --prefix web run test:e2e -- \
        --reporter=default --reporter=json --outputFile.json="$TIMES/e2e.json"
    node -e '
        const run = require(process.argv[1])
        for (const file of run.testResults)
            for (const test of file.assertionResults)
                console.log(`${(test.duration ?? 0) / 1000}\t${test.fullName}`)
    ' "$TIMES/e2e.json" >"$TIMES/e2e.tsv"
    slowest "$TIMES/e2e.tsv" "browser tests"
}

phase "dependencies" bash scripts/install-test-deps.sh
phase "web checks and build, beside Rust layout and lints" web_beside_lints
phase "Rust build and unit and API tests (SQLite and PostgreSQL)" api_tests
phase "deploy files (systemd unit, Caddyfile, nginx server blocks)" \
    bash scripts/check-deploy.sh "$CARGO_TARGET_DIR/debug/murmur"
phase "browser tests" browser_tests
phase "API fuzzing (schemathesis against /api/openapi.json)" \
    "$SERVICES/venv/bin/python" scripts/fuzz_api.py "$CARGO_TARGET_DIR/debug/murmur" "${MURMUR_FUZZ_EXAMPLES:-15}"
