#!/usr/bin/env bash
# Checks the files under deploy/ with the programs that will read them (docs/deploy.md):
#   - deploy/murmur.service: systemd-analyze verify, with ExecStart at the built binary
#   - deploy/Caddyfile: caddy validate
#   - deploy/nginx.conf: nginx -t inside a minimal nginx.conf, a self-signed certificate in
#     place of certbot's
#   - docs/deploy.md: shows the three as they are
# Any complaint fails. A missing program is skipped, saying so, unless MURMUR_REQUIRE_SERVICES=1.
# Usage: scripts/check-deploy.sh [murmur binary]   (scripts/test.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY="$(realpath -m "${1:-${CARGO_TARGET_DIR:-target}/debug/murmur}")"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failed=0

# Runs a check: its output, less the lines matching $2 (the program's chatter), is a complaint
# even when the program exits 0 (systemd only warns about unknown keys).
check() {
  local what="$1" chatter="$2" output
  shift 2
  if output="$("$@" 2>&1)" && ! grep -Evq "^$|$chatter" <<<"$output"; then
    echo "ok: $what"
  else
    echo "FAILED: $what"
    echo "$output" | sed 's/^/    /'
    failed=1
  fi
}

have() {
  if command -v "$1" >/dev/null; then
    return 0
  fi
  if [ "${MURMUR_REQUIRE_SERVICES:-}" = 1 ]; then
    echo "FAILED: MURMUR_REQUIRE_SERVICES=1 but $1 is missing (scripts/install-test-deps.sh installs it)"
    failed=1
  else
    echo "skipped: $2 ($1 is missing; scripts/install-test-deps.sh installs it)"
  fi
  return 1
}

# systemd-analyze wants ExecStart's program to exist.
if have systemd-analyze "the systemd unit"; then
  [ -x "$BINARY" ] || { echo "FAILED: no murmur binary at $BINARY (cargo build)"; exit 1; }
  sed "s|^ExecStart=/usr/local/bin/murmur |ExecStart=$BINARY |" deploy/murmur.service >"$WORK/murmur.service"
  grep -q "^ExecStart=$BINARY " "$WORK/murmur.service" || { echo "FAILED: deploy/murmur.service has no ExecStart=/usr/local/bin/murmur"; exit 1; }
  check "deploy/murmur.service (systemd-analyze verify)" '^$' systemd-analyze verify "$WORK/murmur.service"
fi

# Caddy keeps its state under HOME and XDG_*: here, in the work directory.
if have caddy "the Caddyfile"; then
  check "deploy/Caddyfile (caddy validate)" '"level":"info"|^Valid configuration$' env HOME="$WORK" XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" \
    caddy validate --adapter caddyfile --config deploy/Caddyfile
fi

if have nginx "the nginx server blocks" && have openssl "the nginx server blocks"; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=murmur.example \
    -keyout "$WORK/privkey.pem" -out "$WORK/fullchain.pem" 2>/dev/null
  sed "s|/etc/letsencrypt/live/murmur.example/|$WORK/|" deploy/nginx.conf >"$WORK/murmur-site.conf"
  cat >"$WORK/nginx.conf" <<EOF
pid $WORK/nginx.pid;
events {}
http {
    access_log off;
    client_body_temp_path $WORK/body;
    proxy_temp_path $WORK/proxy;
    fastcgi_temp_path $WORK/fastcgi;
    uwsgi_temp_path $WORK/uwsgi;
    scgi_temp_path $WORK/scgi;
    include $WORK/murmur-site.conf;
}
EOF
  check "deploy/nginx.conf (nginx -t)" '^$' nginx -q -t -p "$WORK" -e stderr -c "$WORK/nginx.conf"
fi

# docs/deploy.md shows each file as it is: the fenced block after its `<!-- deploy/… -->` line.
shown() {
  awk -v marker="<!-- $1 -->" '$0 == marker { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' docs/deploy.md
}
for file in deploy/murmur.service deploy/Caddyfile deploy/nginx.conf; do
  check "docs/deploy.md shows $file as it is" '^$' diff -u --label docs/deploy.md <(shown "$file") --label "$file" "$file"
done

exit "$failed"
