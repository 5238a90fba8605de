# FirstToken: one command to serve the page, one to run every test.
# Each target installs what it needs first (scripts/setup.sh is idempotent
# and pinned), so both work on a fresh machine.

SHELL := /bin/bash
export CHROMEDRIVER ?= /usr/bin/chromedriver
export CHROMIUM ?= /usr/bin/chromium

.PHONY: serve build test test-deep setup setup-build fetch test-native test-browser test-e2e e2e-deps mock cli lint bench bench-accuracy bench-accuracy-cli bench-size bench-render bench-first-render bench-phone bench-dashboard screenshots

## Serve the page at http://127.0.0.1:8080 (opens on the built-in demo provider: no key needed).
serve: setup-build fetch
	trunk serve

## Run every test layer: native, browser (headless Chromium), end-to-end.
test: setup fetch lint test-native test-browser test-e2e

setup:
	bash scripts/setup.sh

# Serving needs no browser: skip Chromium for `make serve`.
setup-build:
	bash scripts/setup.sh --no-browser

# Trunk runs cargo with --offline (see Trunk.toml), so fetch crates first.
fetch:
	cargo fetch --quiet

build: setup-build fetch
	trunk build --release

lint:
	node scripts/lint-workflows.mjs
	zizmor --offline .github/workflows/
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --lib -- -D warnings

test-native:
	@echo "== native tests (cargo test)"
	cargo test --workspace
	@echo "== LiteLLM loads the exported router config (offline)"
	bash scripts/test-litellm.sh
	@echo "== the release: dist's plan, the crates' packages, a local dist build of the static Linux x86_64 archive"
	bash scripts/test-release.sh

# Browser tests of the `browser` layer: wasm-bindgen-test in headless
# Chromium through chromedriver (flags in webdriver.json), against a mock
# provider on loopback whose address is compiled into the test.
test-browser:
	@echo "== browser tests (wasm-bindgen-test, headless Chromium)"
	bash scripts/test-browser.sh

## The generated suite of core with ten times the cases of `make test`
## (100 000 edits over random plans and runs; about a minute in release).
test-deep:
	FIRSTTOKEN_GENERATED_CASES=100000 cargo test -p firsttoken-core --release --lib generated -- --nocapture

mock:
	cargo build --release -p firsttoken-mock

# The native runner, for the end-to-end test that opens its results in the page.
# The test profile (target/debug/firsttoken) is the one `cargo test` already
# built, so this costs nothing after test-native; the test compares figures,
# not timings, so it needs no release build.
cli:
	cargo build --profile test -p firsttoken-cli

e2e-deps:
	cd e2e && npm ci --no-audit --no-fund --silent

# End-to-end: build the page with Trunk (at the root, and a second copy for
# a /firsttoken/ sub-path as GitHub Pages serves it), check its weight
# (scripts/size.py fails the run over budget), serve it and the mock
# provider on loopback, drive it in headless Chromium with Playwright.
# tests/ship.test.mjs also lints the Pages workflow with actionlint.
test-e2e: mock cli e2e-deps
	@echo "== end-to-end tests (headless Chromium, Playwright)"
	trunk build --release
	@echo "== page weight: the first load within 380 kB gzip, the whole page within 690 kB"
	python3 scripts/size.py dist
	trunk build --release --public-url /firsttoken/ --dist dist-subpath
	cd e2e && node --test --test-concurrency=1 tests/

bench: bench-sse bench-report bench-accuracy bench-accuracy-cli bench-size bench-render bench-first-render bench-phone bench-dashboard

bench-sse:
	cargo bench --bench sse

bench-report:
	cargo bench --bench report

bench-accuracy: mock e2e-deps build
	cd e2e && node bench/accuracy.mjs

# The native runner's TTFT against the mock's ground truth (its section of docs/accuracy.md).
bench-accuracy-cli:
	cargo run --release -p firsttoken-cli --example accuracy -- --n 300

# Page weight: raw, gzip -9 and brotli sizes of every file in dist/ (docs/size.md).
bench-size: build
	python3 scripts/size.py dist

# Results view re-render with 10 000 samples.
bench-render: mock e2e-deps build
	cd e2e && node bench/render.mjs

# Time to first render in headless Chromium from a local server (docs/size.md).
bench-first-render: mock e2e-deps build
	cd e2e && node bench/first-render.mjs

# A phone's wait until Start can be pressed: DevTools mobile throttling, gzip.
bench-phone: e2e-deps build
	cd e2e && node bench/phone.mjs

# The dashboard with 500 000 published requests: load, first draw, re-render, memory (docs/render.md).
bench-dashboard: mock e2e-deps build
	cd e2e && node bench/dashboard.mjs

## docs/screenshots/: setup, run and results at 1280 and 400 px, from a demo run; the dashboard in English and Chinese.
screenshots: mock cli e2e-deps build
	cd e2e && node bench/screenshots.mjs
	cd e2e && node bench/dashboard-screenshots.mjs
	cd e2e && node bench/settings-screenshots.mjs
	cd e2e && node bench/fidelity-screenshots.mjs
