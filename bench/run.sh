#!/usr/bin/env bash
# Murmur's benchmark: seed a network, serve it, load it, print a table. See docs/performance.md.
#
# Usage: bench/run.sh [options]
#   --quick               small and short: 1,000 members / 20,000 posts, 3 s per run, concurrency 8 and 32
#   --members N           members to seed (default 10000)
#   --posts N             posts to seed (default 1000000)
#   --seed S              generator seed (default 1)
#   --duration D          wrk duration per run, e.g. 10s (default 10s)
#   --warmup D            an unmeasured wrk run of each read row first (default 3s; 0s: none)
#   --concurrency "A B"   connection counts (default "8 32 64")
#   --endpoints "a b"     only these rows (names as in bench/murmur.lua: healthz me feed feed-heavy
#                         feed-deep list for-you thread profile notifications notifications-grouped search blocks
#                         moderation-queue post-search-common post-search-rare post-search-phrase
#                         tag-page trending post like follow masto-home masto-notifications
#                         masto-post (the Mastodon API, bearer tokens) conversations conversation message
#                         (direct messages) mixed mixed-writes; also mixed-like
#                         mixed-follow mixed-post, profile-replies profile-media thread-replies
#                         followers following, not in the default set)
#   --postgres URL        use PostgreSQL: URL of a server database we may CREATE DATABASE from
#                         (e.g. postgres://postgres@127.0.0.1:5432/test); a fresh database
#                         murmur_bench_<pid> is created there and dropped afterwards
#   --binary PATH         use this murmur binary instead of building `cargo build --release`
#   --sessions K          sessions to start (default: the member count, at most 5000): writes are
#                         spread over them so that the per-member rate limits (30 posts, 120
#                         likes, 60 follows a minute) do not turn the write rows into 429s
#   --blocks-per-session N  each session's member blocks N other members (default 100) ...
#   --mutes-per-session N   ... and mutes N others (default 100): every row runs with them
#   --followed-tags-per-session N  each session's member follows the N most used tags (default 0;
#                         at most 100), their timelines holding those tags' posts as the fan-out
#                         would have (docs/feeds.md, "Followed tags"): measure Friends with 20
#   --muted-words-per-session N  each session's member mutes N words until removed (default 0; at most 100;
#                         50 measures the feeds as a member who mutes much would read them): the
#                         seeded tags (but those followed) and rare words first, so some posts are hidden, then words
#                         no post holds (docs/feeds.md, "Muted words")
#   --open-reports N      open reports waiting in the moderators' queue (default 2000)
#   --live N              hold N live event streams (GET /api/events, one per session's member:
#                         give --sessions N too) open through every row, with bench/live.py,
#                         which measures how fast a like's notification reaches its author's
#                         stream; its figures are printed under the table (docs/live.md)
#   --push N              hold N Web Push subscriptions (one per session's member: give --sessions
#                         N too) to a local push service through every row, with bench/push.py,
#                         which measures how fast a like's push reaches the push service; its
#                         figures are printed under the table (docs/push.md)
#   --keep                keep the temporary directory (database, server log, raw results)
#   --reuse DIR           seed into DIR once and reuse it on later runs with the same DIR (the
#                         SQLite database or the PostgreSQL database's name, the sessions); for
#                         trying changes without seeding again. Writes of earlier runs stay in it
#                         (on a PostgreSQL server with autovacuum off, each run vacuums first):
#                         their posts, none with the search rows' words, come first in search, so
#                         compare a change against the same reused network, not earlier figures.
#
# What it does:
#   1. builds the release binary (unless --binary), installs wrk with apt-get if it is missing;
#   2. seeds a database in a temporary directory (or a fresh PostgreSQL database) with
#      `murmur seed` (a tenth of the posts and replies with images), which also starts
#      sessions: a quarter for the members who follow the most, a quarter for those who follow
#      the fewest, the rest spread over everyone (feed-heavy uses the 10 who follow the most);
#      each session's member blocks 100 and mutes 100 others drawn from everyone (blocks never
#      between members who follow each other, as a block ends those follows), so the feeds are
#      measured with hidden members in place, and likes and follows meet some refusals across
#      a block (403, in their non-2xx share); 2,000 open reports wait in the moderators' queue,
#      and the first session (who follows the most) is an admin, the one moderation-queue uses;
#      each session's member has one list of up to 50 people they follow (the list row reads it);
#      a fifth as many direct messages as posts fill conversations: the Nth session's member
#      started conversation N (conversation and message read and write there), and the first 100
#      sessions' members are in many (conversations reads their lists);
#   3. starts `murmur serve` on 127.0.0.1 and a free port, records its idle memory (VmRSS);
#   4. probes every endpoint once: a 404 means "not built yet", and that row is skipped (marked);
#      a read answering anything else but 2xx (a 403: not a moderator), or any row answering
#      401 or 5xx, is a failure, skipped and marked too, never measured as if it were served;
#   5. runs wrk (2 threads) for each endpoint and concurrency, each request as a random member;
#      a read row is first run unmeasured for --warmup, so its figures are of the pages it
#      reads held in memory, as on a server that serves them all the time (some hosts page out
#      a file cache untouched for a minute, which the previous rows leave behind);
#      "mixed" is one wrk whose requests are 80% reads and 20% writes (its figures are both);
#      "mixed-writes" is two wrk processes at once, a fifth of the connections writing (like,
#      follow, post) and the rest reading (feed, thread, profile), and its figures are the
#      writers' alone: the issue's "writes with reads going on"; "mixed-like", "mixed-follow"
#      and "mixed-post" are the same with writers of that one kind, to see which kind makes
#      the writers' tail;
#      /healthz runs at the same concurrency levels as the machine's ceiling, so each row also
#      reads as a ratio that survives a noisy machine;
#   6. restarts the server with sqlx's statement log on and counts the statements 10 sequential
#      requests of each endpoint execute (queries per request; no server changes needed);
#   7. prints the table and the server's memory (VmRSS idle, VmHWM peak), cleans up.
# Each row also gives the share of non-2xx answers (429s included) and the machine's 1-minute
# load average when it started: other work on the machine depresses absolute figures.
# Output: a Markdown table on stdout (progress on stderr); raw wrk output in the temp dir.
set -euo pipefail

MEMBERS=10000 POSTS=1000000 SEED=1 DURATION=10s WARMUP=3s CONCURRENCY="8 32 64"
ENDPOINTS="healthz me feed feed-heavy feed-deep list for-you thread profile notifications notifications-grouped search blocks moderation-queue post-search-common post-search-rare post-search-phrase tag-page trending post like follow masto-home masto-notifications masto-post conversations conversation message mixed mixed-writes"
PG_URL="" BINARY="" KEEP=0 SESSIONS="" LIVE=0 PUSH=0 REUSE="" BLOCKS=100 MUTES=100 FOLLOWED_TAGS=0 MUTED_WORDS=0 OPEN_REPORTS=2000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) MEMBERS=1000 POSTS=20000 DURATION=3s CONCURRENCY="8 32"; shift ;;
    --members) MEMBERS="$2"; shift 2 ;;
    --posts) POSTS="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --concurrency) CONCURRENCY="$2"; shift 2 ;;
    --endpoints) ENDPOINTS="$2"; shift 2 ;;
    --postgres) PG_URL="$2"; shift 2 ;;
    --binary) BINARY="$2"; shift 2 ;;
    --sessions) SESSIONS="$2"; shift 2 ;;
    --live) LIVE="$2"; shift 2 ;;
    --push) PUSH="$2"; shift 2 ;;
    --blocks-per-session) BLOCKS="$2"; shift 2 ;;
    --followed-tags-per-session) FOLLOWED_TAGS="$2"; shift 2 ;;
    --mutes-per-session) MUTES="$2"; shift 2 ;;
    --muted-words-per-session) MUTED_WORDS="$2"; shift 2 ;;
    --open-reports) OPEN_REPORTS="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    --reuse) REUSE="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done

[[ -z "$SESSIONS" ]] && SESSIONS=$(( MEMBERS < 5000 ? MEMBERS : 5000 ))
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LUA="$ROOT/bench/murmur.lua"
log() { echo "bench: $*" >&2; }

if ! command -v wrk >/dev/null; then
  log "installing wrk"
  if [[ $(id -u) -eq 0 ]]; then apt-get install -y wrk >&2; else sudo apt-get install -y wrk >&2; fi
fi
if [[ -z "$BINARY" ]]; then
  log "building the release binary"
  (cd "$ROOT" && cargo build --release --bin murmur >&2)
  BINARY="${CARGO_TARGET_DIR:-$ROOT/target}/release/murmur"
fi
[[ -x "$BINARY" ]] || { echo "no murmur binary at $BINARY" >&2; exit 1; }

if [[ -n "$REUSE" ]]; then
  mkdir -p "$REUSE"; WORK="$(cd "$REUSE" && pwd)"; KEEP=1
else
  WORK="$(mktemp -d /tmp/murmur-bench.XXXXXX)"
fi
SERVER_PID="" PG_DB=""
cleanup() {
  [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  if [[ -n "$PG_DB" && -z "$REUSE" ]]; then psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true; fi
  if [[ $KEEP -eq 1 ]]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

export MURMUR_DATA_DIR="$WORK/data"
mkdir -p "$MURMUR_DATA_DIR"
SEEDED=0
[[ -n "$REUSE" && -s "$WORK/sessions.tsv" && -s "$WORK/seed.txt" ]] && SEEDED=1
if [[ -n "$PG_URL" ]]; then
  if [[ $SEEDED -eq 1 && -s "$WORK/pg_database" ]]; then
    PG_DB="$(cat "$WORK/pg_database")"
  else
    SEEDED=0
    PG_DB="murmur_bench_$$"
    psql -q "$PG_URL" -c "CREATE DATABASE $PG_DB" >/dev/null
    [[ -n "$REUSE" ]] && echo "$PG_DB" >"$WORK/pg_database"
  fi
  export DATABASE_URL="${PG_URL%/*}/$PG_DB"
  DB_NAME="PostgreSQL"
else
  unset DATABASE_URL
  DB_NAME="SQLite"
fi

if [[ $SEEDED -eq 1 ]]; then
  log "reusing the network seeded in $WORK"
  # Earlier runs' writes left dead rows (timelines, counters, rate limits). A server with
  # autovacuum on (PostgreSQL's default) clears them as it goes; one with it off, as the test
  # server in CI, would let every later run read through more of them.
  if [[ -n "$PG_URL" && "$(psql -tA "$DATABASE_URL" -c "SHOW autovacuum")" == off ]]; then
    log "autovacuum is off on this server: VACUUM (ANALYZE) before the run"
    psql -q "$DATABASE_URL" -c "VACUUM (ANALYZE)" >&2
  fi
  SEED_SECONDS="$(cat "$WORK/seed_seconds" 2>/dev/null || echo 0)"
else
  log "seeding $MEMBERS members / $POSTS posts on $DB_NAME"
  SEED_START=$(date +%s.%N)
  "$BINARY" seed --members "$MEMBERS" --posts "$POSTS" --seed "$SEED" --image-fraction 0.1 \
    --sessions "$SESSIONS" --sessions-out "$WORK/sessions.tsv" \
    --blocks-per-session "$BLOCKS" --mutes-per-session "$MUTES" --followed-tags-per-session "$FOLLOWED_TAGS" \
    --muted-words-per-session "$MUTED_WORDS" \
    --open-reports "$OPEN_REPORTS" --messages "$(( POSTS / 5 ))" \
    | tee "$WORK/seed.txt" >&2
  SEED_SECONDS=$(echo "$(date +%s.%N) - $SEED_START" | bc)
  echo "$SEED_SECONDS" >"$WORK/seed_seconds"
fi
DB_SIZE="n/a"
[[ -z "$PG_URL" ]] && DB_SIZE="$(du -sh "$MURMUR_DATA_DIR" | cut -f1)"
[[ -n "$PG_URL" ]] && DB_SIZE="$(psql -tA "$DATABASE_URL" -c "SELECT pg_size_pretty(pg_database_size(current_database()))")"
# What post search's index takes of that (docs/discovery.md): the FTS5 table's shadow tables on
# SQLite, the GIN index on PostgreSQL.
if [[ -n "$PG_URL" ]]; then
  SEARCH_SIZE="$(psql -tA "$DATABASE_URL" -c "SELECT pg_size_pretty(pg_relation_size('posts_search_idx'))")"
else
  SEARCH_SIZE="$(python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print("%.0f MB" % (c.execute("SELECT SUM(pgsize) FROM dbstat WHERE name LIKE ?", ("post_search%",)).fetchone()[0] / 1e6))' "$MURMUR_DATA_DIR/murmur.db" 2>/dev/null || echo "n/a")"
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start_server() { # $1: RUST_LOG
  PORT="$(free_port)"
  # The local push service of --push is on the loopback address.
  RUST_LOG="$1" MURMUR_OUTBOUND_ALLOW="$( (( PUSH > 0 )) && echo 127.0.0.1 )" "$BINARY" serve --addr "127.0.0.1:$PORT" --public-url "http://127.0.0.1:$PORT" \
    >"$WORK/server.out" 2>>"$WORK/server.log" &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "the server did not start; see $WORK/server.log" >&2; exit 1
}
stop_server() { kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }
mem_kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$SERVER_PID/status"; }

TOKEN="$(head -1 "$WORK/sessions.tsv" | cut -f1)"
path_of() { # a representative request of each row, for the probe and the query count
  case "$1" in
    healthz) echo "GET /healthz" ;;
    me) echo "GET /api/auth/me" ;;
    feed|feed-heavy) echo "GET /api/posts/feed?limit=20&offset=0" ;;
    feed-deep) echo "GET /api/posts/feed?limit=20&offset=200" ;;
    list) echo "GET /api/lists/1/posts?limit=20&offset=0" ;;  # the first session's list (murmur seed)
    for-you) echo "GET /api/posts/for-you?limit=20&offset=0" ;;
    thread) echo "GET /api/posts/$(( (RANDOM % POSTS) + 1 ))/thread" ;;
    profile) echo "GET /api/users/member$(( (RANDOM % MEMBERS) + 1 ))/posts" ;;
    profile-replies) echo "GET /api/users/member$(( (RANDOM % MEMBERS) + 1 ))/replies" ;;
    profile-media) echo "GET /api/users/member$(( (RANDOM % MEMBERS) + 1 ))/media" ;;
    followers) echo "GET /api/users/member$(( (RANDOM % MEMBERS) + 1 ))/followers?limit=20&offset=0" ;;
    following) echo "GET /api/users/member$(( (RANDOM % MEMBERS) + 1 ))/following?limit=20&offset=0" ;;
    thread-replies) echo "GET /api/posts/$(( (RANDOM % POSTS) + 1 ))/replies?limit=20&offset=0" ;;
    notifications) echo "GET /api/notifications?limit=50" ;;
    notifications-grouped) echo "GET /api/notifications?grouped=true&limit=50" ;;
    search) echo "GET /api/users/search?q=mem&limit=20" ;;
    blocks) echo "GET /api/blocks?limit=20&offset=0" ;;
    moderation-queue) echo "GET /api/moderation/reports?limit=20&offset=0" ;;
    post-search-common) echo "GET /api/posts/search?q=coffee&limit=20" ;;
    post-search-rare) echo "GET /api/posts/search?q=zeppelin&limit=20" ;;
    post-search-phrase) echo "GET /api/posts/search?q=%22morning%20coffee%22&limit=20" ;;
    tag-page) echo "GET /api/tags/Coffee/posts?limit=20&offset=0" ;;
    trending) echo "GET /api/trending?limit=20" ;;
    post) echo "POST /api/posts {\"content\":\"Probe $RANDOM\"}" ;;
    conversations) echo "GET /api/conversations?box=inbox&limit=20" ;;
    conversation) echo "GET /api/conversations/1/messages?limit=20" ;;  # the first session's (murmur seed)
    message) echo "POST /api/conversations/1/messages {\"content\":\"Probe $RANDOM\"}" ;;
    like) echo "POST /api/posts/$(( (RANDOM % POSTS) + 1 ))/like" ;;
    follow) echo "POST /api/follows {\"followingId\":$(( (RANDOM % MEMBERS) + 1 ))}" ;;
    masto-home) echo "GET /api/v1/timelines/home?limit=20" ;;
    masto-notifications) echo "GET /api/v1/notifications?limit=40" ;;
    masto-post) echo "POST /api/v1/statuses {\"status\":\"Probe $RANDOM\"}" ;;
    mixed) echo "GET /api/posts/feed?limit=20&offset=0" ;;
    mixed-writes) echo "POST /api/posts/$(( (RANDOM % POSTS) + 1 ))/like" ;;
    mixed-like|mixed-follow|mixed-post) path_of "${1#mixed-}" ;;
  esac
}
load() { # $1: wrk threads, $2: connections, $3: the mode of bench/murmur.lua; prints wrk's output
  wrk -t"$1" -c"$2" -d"${4:-$DURATION}" --timeout 5s -s "$LUA" "http://127.0.0.1:$PORT" -- \
    "$3" "$WORK/sessions.tsv" "$MEMBERS" "$POSTS"
}
request() { # $1: row name; prints the HTTP status
  local line method path body
  line="$(path_of "$1")"; method="${line%% *}"; line="${line#* }"; path="${line%% *}"; body="${line#"$path"}"; body="${body# }"
  if [[ "$1" == masto-* ]]; then
    curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" -X "$method" \
      ${body:+-H 'Content-Type: application/json' --data "$body"} "http://127.0.0.1:$PORT$path"
  elif [[ "$method" == GET ]]; then
    curl -s -o /dev/null -w '%{http_code}' -b "murmur_session=$TOKEN" "http://127.0.0.1:$PORT$path"
  else
    curl -s -o /dev/null -w '%{http_code}' -b "murmur_session=$TOKEN" -H 'X-Requested-With: murmur' \
      -H 'Content-Type: application/json' -X POST ${body:+--data "$body"} "http://127.0.0.1:$PORT$path"
  fi
}

start_server "murmur=warn,tower_http=warn"
sleep 1
RSS_IDLE=$(mem_kb VmRSS)

declare -A STATUS MISSING FAILED
for e in $ENDPOINTS; do
  STATUS[$e]="$(request "$e")"
  # Probes use members and posts that exist, so a 404 means the route is not built yet. A read
  # must answer 2xx: its figures would otherwise be those of a refusal. A write's random target
  # may be refused (403 across a block; its row gives the share), but not the session (401),
  # and nothing may fail (5xx).
  if [[ "${STATUS[$e]}" == 404 ]]; then
    MISSING[$e]=1
    log "probe $e: 404 (not built yet: skipped)"
  elif [[ "${STATUS[$e]}" == 401 || "${STATUS[$e]}" == 5?? || ( "$(path_of "$e")" == GET* && "${STATUS[$e]}" != 2?? ) ]]; then
    FAILED[$e]="${STATUS[$e]}"
    log "probe $e: ${STATUS[$e]} (FAILED: skipped)"
  else
    log "probe $e: ${STATUS[$e]}"
  fi
done
skipped() { [[ -n "${MISSING[$1]:-}" || -n "${FAILED[$1]:-}" ]]; }

declare -A RPS P50 P99 ERR LOAD
loadavg() { cut -d' ' -f1 /proc/loadavg; }
if (( LIVE > 0 )); then
  # Long enough to outlast every row; stopped after them.
  python3 "$(dirname "$0")/live.py" "http://127.0.0.1:$PORT" "$WORK/sessions.tsv" "$LIVE" 100000 20 \
    >"$WORK/live.json" 2>"$WORK/live.err" &
  LIVE_PID=$!
  for _ in $(seq 1 120); do
    grep -q '^opened' "$WORK/live.err" 2>/dev/null && break
    kill -0 "$LIVE_PID" 2>/dev/null || { log "live: bench/live.py stopped: $(cat "$WORK/live.err")"; exit 1; }
    sleep 1
  done
  RSS_LIVE_IDLE=$(mem_kb VmRSS)
  log "live: $LIVE streams opening; server VmRSS $((RSS_LIVE_IDLE / 1024)) MB, open files $(ls /proc/$SERVER_PID/fd | wc -l)"
fi
if (( PUSH > 0 )); then
  python3 "$(dirname "$0")/push.py" "http://127.0.0.1:$PORT" "$WORK/sessions.tsv" "$PUSH" 100000 20 \
    >"$WORK/push.json" 2>"$WORK/push.err" &
  PUSH_PID=$!
  for _ in $(seq 1 300); do
    grep -q '^subscribed' "$WORK/push.err" 2>/dev/null && break
    kill -0 "$PUSH_PID" 2>/dev/null || { log "push: bench/push.py stopped: $(cat "$WORK/push.err")"; exit 1; }
    sleep 1
  done
  log "push: $(grep '^subscribed' "$WORK/push.err") subscriptions"
fi
for c in $CONCURRENCY; do
  for e in $ENDPOINTS; do
    skipped "$e" && continue
    if [[ "$WARMUP" != 0* && "$e" != mixed* && "$(path_of "$e")" == GET* ]]; then
      load 2 "$c" "$e" "$WARMUP" >/dev/null 2>&1 || true
    fi
    LOAD[$e,$c]=$(loadavg)
    if [[ "$e" == mixed-* && "$e" != mixed ]]; then
      # The writers' mode of bench/murmur.lua: writes (likes, follows, posts), like, follow or post.
      writer_mode="${e#mixed-}"
      writers=$(( c / 5 > 0 ? c / 5 : 1 )); readers=$(( c - writers ))
      load 1 "$readers" reads >>"$WORK/wrk.txt" 2>&1 &
      readers_pid=$!
      out="$(load 1 "$writers" "$writer_mode" 2>&1 | tee -a "$WORK/wrk.txt")" || true
      wait "$readers_pid" || true
    else
      out="$(load 2 "$c" "$e" 2>&1 | tee -a "$WORK/wrk.txt")" || true
    fi
    read -r _ requests duration p50 p99 non2xx sockerr <<<"$(grep '^RESULT' <<<"$out" || echo "RESULT 0 1 0 0 0 0")"
    RPS[$e,$c]=$(echo "scale=0; $requests * 1000000 / $duration" | bc)
    P50[$e,$c]=$(echo "scale=2; $p50 / 1000" | bc)
    P99[$e,$c]=$(echo "scale=2; $p99 / 1000" | bc)
    # wrk's status errors are answers above 399: "non-2xx" here (the app sends no 3xx to these).
    ERR[$e,$c]="$(awk -v n="$non2xx" -v r="$requests" 'BEGIN { printf "%.1f%%", r ? 100 * n / r : 0 }')"
    [[ "$sockerr" != 0 ]] && ERR[$e,$c]+=" +$sockerr socket"
    log "$e c=$c (load ${LOAD[$e,$c]}): ${RPS[$e,$c]} req/s, p50 ${P50[$e,$c]} ms, p99 ${P99[$e,$c]} ms, non-2xx ${ERR[$e,$c]}"
  done
done
RSS_PEAK=$(mem_kb VmHWM)
if (( PUSH > 0 )); then
  kill -INT "$PUSH_PID" 2>/dev/null || true
  wait "$PUSH_PID" 2>/dev/null || true
fi
if (( LIVE > 0 )); then
  LIVE_FDS=$(ls "/proc/$SERVER_PID/fd" | wc -l)
  kill -INT "$LIVE_PID" 2>/dev/null || true
  wait "$LIVE_PID" 2>/dev/null || true
fi
stop_server

# Queries per request: sqlx logs every statement it executes at DEBUG (target sqlx::query).
declare -A QUERIES
start_server "sqlx::query=debug,murmur=warn,tower_http=warn"
count_statements() { grep -c 'sqlx::query' "$WORK/server.log" || true; }
for e in $ENDPOINTS; do
  { skipped "$e" || [[ "$e" == healthz ]]; } && { QUERIES[$e]="-"; continue; }
  for _ in 1 2 3; do request "$e" >/dev/null; done   # warm: connections and prepared statements
  sleep 0.2; before=$(count_statements)
  for _ in $(seq 1 10); do request "$e" >/dev/null; done
  sleep 0.2; after=$(count_statements)
  QUERIES[$e]=$(echo "scale=1; ($after - $before) / 10" | bc)
done
stop_server

ratio() { [[ -n "${RPS[healthz,$2]:-}" && "${RPS[healthz,$2]}" != 0 ]] && awk -v a="${RPS[$1,$2]}" -v b="${RPS[healthz,$2]}" 'BEGIN { printf "%.3f", a / b }' || echo "-"; }
echo
echo "## Murmur benchmark: $DB_NAME, $MEMBERS members, $POSTS posts ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ))"
echo
echo "Seed: $(printf "%.1f" "$SEED_SECONDS") s wall, database ${DB_SIZE} (post search's index ${SEARCH_SIZE}). $(cat "$WORK/seed.txt")"
echo "wrk -t2, $DURATION per run. Server memory: VmRSS idle $((RSS_IDLE / 1024)) MB, VmHWM (peak) $((RSS_PEAK / 1024)) MB."
if (( LIVE > 0 )); then
  echo "Live: $(cat "$WORK/live.err" | grep '^opened' || echo 'opened ?') of $LIVE streams; server VmRSS with them open before the rows $((RSS_LIVE_IDLE / 1024)) MB; open files at the end $LIVE_FDS; delivery (like answered → notification event): $(cat "$WORK/live.json")"
fi
if (( PUSH > 0 )); then
  echo "Push: $(grep '^subscribed' "$WORK/push.err" || echo 'subscribed ?') of $PUSH; delay (like answered → push received by the push service): $(cat "$WORK/push.json")"
fi
echo
echo "| endpoint | conns | req/s | p50 ms | p99 ms | × /healthz | non-2xx | queries/req | load avg |"
echo "|---|---|---|---|---|---|---|---|---|"
for e in $ENDPOINTS; do
  if [[ -n "${MISSING[$e]:-}" ]]; then
    echo "| $e | - | not built yet (404) | | | | | | |"
    continue
  fi
  if [[ -n "${FAILED[$e]:-}" ]]; then
    echo "| $e | - | FAILED: the probe answered ${FAILED[$e]} | | | | | | |"
    continue
  fi
  for c in $CONCURRENCY; do
    echo "| $e | $c | ${RPS[$e,$c]} | ${P50[$e,$c]} | ${P99[$e,$c]} | $(ratio "$e" "$c") | ${ERR[$e,$c]} | ${QUERIES[$e]} | ${LOAD[$e,$c]} |"
  done
done
