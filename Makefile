# Murmur's two commands: `make run` builds and runs Murmur on the embedded default (SQLite in
# ./data, mail to ./data/outbox); `make test` runs every test. See README.md.

CARGO_TARGET_DIR ?= target
export CARGO_TARGET_DIR

.PHONY: run test web build clean

run: web
	cargo run --release -- serve

build: web
	cargo build --release

web: web/node_modules/.package-lock.json
	npm --prefix web run build

web/node_modules/.package-lock.json: web/package-lock.json
	npm --prefix web ci --no-audit --no-fund

test:
	bash scripts/test.sh

clean:
	rm -rf target web/dist web/node_modules
