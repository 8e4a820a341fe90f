#!/usr/bin/env bash
# Installs what the tests need and a fresh machine lacks; each step is skipped when its result is
# already there. Used by scripts/test.sh (so `make test` works on a fresh machine) and .ci/run.
#   - npm packages of the web app (npm ci)
#   - Debian's chromium, for the browser tests (browsers cannot be downloaded by npm here)
#   - a Python virtualenv with aiosmtpd (a real SMTP server) and schemathesis (API fuzzing)
#   - s3s-fs, a real S3-compatible server that checks signatures
set -euo pipefail
cd "$(dirname "$0")/.."
# Kept outside the checkout so fresh clones (CI) reuse them.
SERVICES="${MURMUR_TEST_SERVICES:-$HOME/.cache/murmur/test-services}"
mkdir -p "$SERVICES"

if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  echo "== npm ci (web)"
  npm --prefix web ci --no-audit --no-fund
fi

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

if [ ! -x "$SERVICES/venv/bin/python" ] || ! "$SERVICES/venv/bin/python" -c 'import aiosmtpd, schemathesis' 2>/dev/null; then
  echo "== Python test tools (aiosmtpd, schemathesis) in $SERVICES/venv"
  python3 -m venv "$SERVICES/venv"
  "$SERVICES/venv/bin/pip" install -q --disable-pip-version-check 'aiosmtpd==1.4.6' 'schemathesis==4.32.5'
fi

if [ ! -x "$SERVICES/bin/s3s-fs" ]; then
  echo "== s3s-fs (S3-compatible test server)"
  cargo install --locked --root "$SERVICES" s3s-fs@0.14.1 --features binary -q
fi
