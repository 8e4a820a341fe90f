#!/usr/bin/env bash
# Lighthouse on a freshly seeded Murmur: the landing page (logged out) and Home (logged in).
# See --help. A benchmark run by hand, not part of CI.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bench/lighthouse/run.sh [--bin PATH] [--runs N] [--image-posts N] [--port PORT] [--out DIR]
                               [--desktop] [--keep]

Seeds a fresh temporary data directory (murmur seed --members 200 --posts 2000 --seed 1),
starts `murmur serve` on 127.0.0.1, has two seeded members write 20 posts with images that
the audited member follows, then runs Lighthouse (npm, pinned in package.json) with Debian's
chromium N times on each page:
  - the landing page, /, logged out
  - Home, /, logged in as one of the members who follow the most (session cookie sent
    through Lighthouse's extraHeaders)
Prints every run and the medians of the category scores (performance, accessibility,
best practices, SEO) and of CLS, LCP and TBT. Exits 1 if a median misses its target:
performance >= 95, accessibility = 100, best practices >= 95 (2 on any other failure).

The web app is whatever the binary serves: a debug binary reads web/dist at run time, so
run `npm --prefix web run build` first; a release binary serves the web app built into it.

Options:
  --bin PATH    murmur binary (default: $MURMUR_BIN, else target/release/murmur, else
                target/debug/murmur)
  --runs N      Lighthouse runs per page; medians are reported (default 3)
  --image-posts N
                posts with images written for Home before the audits (default 20)
  --port PORT   port to serve on (default: a free one)
  --out DIR     where the HTML reports go (default: bench/lighthouse/reports)
  --desktop     Lighthouse's desktop preset instead of its default mobile emulation
  --keep        keep the temporary data directory (its path is printed)
  -h, --help    this text

Environment: CHROME_PATH (default /usr/bin/chromium). Needs Node.js 20+ and npm; installs
its npm packages into bench/lighthouse/node_modules on first use. Lighthouse's performance
score moves with the machine's load: run it on an otherwise idle machine.
EOF
}

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BIN="${MURMUR_BIN:-}"
RUNS=3
IMAGE_POSTS=20
PORT=""
OUT="$HERE/reports"
DESKTOP=()
KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN="$2"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --image-posts) IMAGE_POSTS="$2"; shift 2 ;;
    --port) PORT="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --desktop) DESKTOP=(--desktop); shift ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [ -z "$BIN" ]; then
  for candidate in "$ROOT/target/release/murmur" "$ROOT/target/debug/murmur"; do
    if [ -x "$candidate" ]; then BIN="$candidate"; break; fi
  done
fi
[ -n "$BIN" ] && [ -x "$BIN" ] || { echo "no murmur binary: build one or pass --bin (see --help)" >&2; exit 2; }
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
[ -x "$CHROME_PATH" ] || { echo "no chromium at $CHROME_PATH (apt-get install chromium)" >&2; exit 2; }

if [ ! -d "$HERE/node_modules/lighthouse" ] || [ "$HERE/package-lock.json" -nt "$HERE/node_modules/.package-lock.json" ]; then
  echo "== npm ci (bench/lighthouse)"
  # Lighthouse drives the chromium above; nothing may download a browser of its own.
  PUPPETEER_SKIP_DOWNLOAD=1 npm --prefix "$HERE" ci --no-audit --no-fund
fi

if [ -z "$PORT" ]; then
  PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
fi
URL="http://127.0.0.1:$PORT"
DATA="$(mktemp -d "${TMPDIR:-/tmp}/murmur-lighthouse-XXXXXX")"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "$KEEP" = 1 ]; then echo "data directory kept: $DATA"; else rm -rf "$DATA"; fi
}
trap cleanup EXIT

echo "== seeding $DATA"
# Sessions: the first is for a member who follows the most (the audited Home), two more write
# the posts with images.
"$BIN" seed --quiet --data-dir "$DATA" --members 200 --posts 2000 --seed 1 \
  --sessions 4 --sessions-out "$DATA/sessions.tsv" | tail -n 1

echo "== serving $URL"
RUST_LOG="${RUST_LOG:-murmur=warn}" "$BIN" serve --data-dir "$DATA" --addr "127.0.0.1:$PORT" \
  --public-url "$URL" >"$DATA/serve.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 120); do
  if curl -fs "$URL/readyz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then cat "$DATA/serve.log" >&2; exit 2; fi
  sleep 0.25
done
curl -fs "$URL/readyz" >/dev/null || { echo "murmur serve did not get ready" >&2; cat "$DATA/serve.log" >&2; exit 2; }

echo "== Lighthouse, $RUNS run(s) per page"
set +e
node "$HERE/audit.mjs" --url "$URL" --sessions "$DATA/sessions.tsv" --runs "$RUNS" \
  --image-posts "$IMAGE_POSTS" --out "$OUT" "${DESKTOP[@]}"
status=$?
set -e
exit "$status"
