#!/usr/bin/env bash
# Installs what the tests need and a fresh machine lacks; each step is skipped when its result is
# already there. Used by scripts/test.sh (so `make test` works on a fresh machine) and .ci/run.
#   - npm packages of the web app (npm ci)
#   - Debian's chromium, for the browser tests (browsers cannot be downloaded by npm here)
#   - Debian's caddy (the real reverse proxy of tests/api/proxy.rs), nginx and systemd-analyze
#     (scripts/check-deploy.sh checks the files under deploy/ with them)
#   - Debian's sqlite3 (a browser test writes rows a fresh server cannot make yet)
#   - a Python virtualenv with aiosmtpd (a real SMTP server), schemathesis (API fuzzing),
#     Mastodon.py (a Mastodon API client written by others, tests/mastodon/), toot (the Mastodon
#     command-line client, web/e2e/toot.e2e.ts) and http-ece (an independent decryption of Web
#     Push messages, tests/push/)
#   - s3s-fs, a real S3-compatible server that checks signatures
set -euo pipefail
cd "$(dirname "$0")/.."
# Kept outside the checkout so fresh clones (CI) reuse them.
SERVICES="${MURMUR_TEST_SERVICES:-$HOME/.cache/murmur/test-services}"
mkdir -p "$SERVICES"

# rustfmt and clippy (`make test` checks the layout and the lints); rustup's default profile has them.
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    echo "== rustup component add $component"
    rustup component add "$component"
  fi
done

if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  echo "== npm ci (web)"
  npm --prefix web ci --no-audit --no-fund
fi

# Debian packages, installed together when one is missing (as root, or with sudo).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)         # browsers cannot be downloaded by npm here
[ -x /usr/bin/caddy ] || missing+=(caddy)               # tests/api/proxy.rs, deploy/Caddyfile
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)      # tests/api/poolers.rs
[ -x /usr/sbin/nginx ] || missing+=(nginx)              # deploy/nginx.conf
[ -x /usr/bin/systemd-analyze ] || missing+=(systemd)   # deploy/murmur.service
[ -x /usr/bin/sqlite3 ] || missing+=(sqlite3)           # web/e2e/everyday.e2e.ts writes Trending rows
[ -f /usr/include/openssl/ssl.h ] || missing+=(libssl-dev) # webauthn-rs (passkeys) builds on OpenSSL
command -v pkg-config >/dev/null || missing+=(pkg-config) # ... and finds it with pkg-config
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing Debian's ${missing[*]}"
  root=()
  [ "$(id -u)" = 0 ] || root=(sudo)
  # The tools are wanted, not their services: while installing, a policy-rc.d refuses every
  # start (nginx's package would start a server on port 80), and afterwards neither the new
  # caddy, nginx nor pgbouncer is left enabled at boot.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${root[@]}" tee "$policy" >/dev/null
    "${root[@]}" chmod +x "$policy"
    trap '"${root[@]}" rm -f "$policy"' EXIT
  fi
  "${root[@]}" apt-get update -qq
  "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  if [ -d /run/systemd/system ]; then
    for service in caddy nginx pgbouncer; do
      if [[ " ${missing[*]} " == *" $service "* ]]; then
        "${root[@]}" systemctl disable --quiet "$service.service" || true
      fi
    done
  fi
fi

if [ ! -x "$SERVICES/venv/bin/python" ] || [ ! -x "$SERVICES/venv/bin/toot" ] \
  || ! "$SERVICES/venv/bin/python" -c 'import aiosmtpd, schemathesis, mastodon, http_ece, toot' 2>/dev/null; then
  echo "== Python test tools (aiosmtpd, schemathesis, Mastodon.py, toot, http-ece) in $SERVICES/venv"
  python3 -m venv "$SERVICES/venv"
  "$SERVICES/venv/bin/pip" install -q --disable-pip-version-check 'aiosmtpd==1.4.6' 'schemathesis==4.32.5' \
    'Mastodon.py==2.3.3' 'toot==0.52.*' 'http-ece==1.2.1'
fi

if [ ! -x "$SERVICES/bin/s3s-fs" ]; then
  echo "== s3s-fs (S3-compatible test server)"
  cargo install --locked --root "$SERVICES" s3s-fs@0.14.1 --features binary -q
fi
