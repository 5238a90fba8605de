#!/usr/bin/env bash
# Runs the wasm browser tests in headless Chromium against a mock provider.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; then
  echo "error: chromium and chromedriver are needed for browser tests; install them with: bash scripts/setup.sh (apt-get install chromium chromium-driver)" >&2
  exit 1
fi
cargo build --quiet --release -p firsttoken-mock
log=$(mktemp)
./target/release/firsttoken-mock --port 0 >"$log" &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q listening "$log" && break; sleep 0.05; done
FIRSTTOKEN_MOCK_URL=$(grep -o 'http://[0-9.:]*' "$log" | head -1)
export FIRSTTOKEN_MOCK_URL
echo "mock provider at $FIRSTTOKEN_MOCK_URL"
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
export WASM_BINDGEN_TEST_TIMEOUT=120
# --features unsplit: this wasm is not split, so the page's split points
# must not import the splitter's loader (Cargo.toml, src/ui/run/lazy.rs).
cargo test --target wasm32-unknown-unknown --test browser --features unsplit
