#!/usr/bin/env bash
# Loads the LiteLLM router config FirstToken exports (tests/golden/
# litellm-router.yaml, and the same config written by `firsttoken report
# --config litellm` from the results file of the golden test's routing
# fixture) into LiteLLM's own Router, offline, with the LiteLLM that
# scripts/setup.sh pins in tools/.venv-litellm.
set -euo pipefail
cd "$(dirname "$0")/.."
python=tools/.venv-litellm/bin/python
if [[ ! -x $python ]]; then
  echo "test-litellm: $python is missing; run scripts/setup.sh" >&2
  exit 1
fi
"$python" tests/litellm/load_router_config.py tests/golden/litellm-router.yaml
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --quiet -p firsttoken-core --example routing_results >"$out/routing-results.json"
cargo run --quiet -p firsttoken-cli -- report --config litellm "$out/routing-results.json" >"$out/router.yaml"
cmp tests/golden/litellm-router.yaml "$out/router.yaml"
"$python" tests/litellm/load_router_config.py "$out/router.yaml"
