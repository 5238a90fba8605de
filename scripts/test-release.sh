#!/usr/bin/env bash
# The release, checked without releasing:
# - `dist plan` (dist-workspace.toml) names the five archives of
#   `firsttoken` (Linux x86_64 and aarch64 static, macOS x86_64 and arm64,
#   Windows), each with its checksum, and the shell and PowerShell
#   installers, at the runner crate's version;
# - the core, chart, page and runner crates package (`cargo package`, without the
#   verifying build: the workspace's own tests build them);
# - the binstall metadata names the archives dist makes;
# - a real local release build of the one target this machine can build,
#   x86_64-unknown-linux-musl (`dist build --artifacts=local`, the same
#   command the release workflow runs per target): its tar.xz must hold the
#   `firsttoken` binary, statically linked, whose `--version` is the runner
#   crate's. The build goes to target/x86_64-unknown-linux-musl/dist and
#   target/distrib/; it needs the musl target and musl-gcc (ring's C code),
#   which scripts/setup.sh installs. Measured on a 2-core machine shared
#   with other builds: 5 min 50 s from nothing, seconds once built.
# The release workflow itself is linted with the others by `make lint`.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^version = "\(.*\)"/\1/p' cli/Cargo.toml | head -1)
plan=$(mktemp)
unpacked=$(mktemp -d)
build_log=$(mktemp)
trap 'rm -rf "$plan" "$unpacked" "$build_log"' EXIT
dist plan --output-format=json > "$plan"

node - "$plan" "$version" <<'JS'
const [plan, version] = process.argv.slice(2);
const doc = JSON.parse(require("fs").readFileSync(plan, "utf8"));
const fail = (message) => { console.error(`release plan: ${message}`); process.exit(1); };
const archives = Object.entries(doc.artifacts).filter(([, a]) => a.kind === "executable-zip");
const targets = archives.flatMap(([, a]) => a.target_triples).sort();
const wanted = ["aarch64-apple-darwin", "aarch64-unknown-linux-musl", "x86_64-apple-darwin",
  "x86_64-pc-windows-msvc", "x86_64-unknown-linux-musl"];
if (JSON.stringify(targets) !== JSON.stringify(wanted)) fail(`archives for ${targets}, not ${wanted}`);
for (const [name, archive] of archives) {
  const bin = (archive.assets || []).find((a) => a.kind === "executable");
  if (!bin || !/^firsttoken(\.exe)?$/.test(bin.name)) fail(`${name} holds no firsttoken binary`);
  if (!archive.checksum) fail(`${name} has no checksum`);
  const expected = `firsttoken-cli-${archive.target_triples[0]}${name.endsWith(".zip") ? ".zip" : ".tar.xz"}`;
  if (name !== expected) fail(`${name} is not named as binstall expects (${expected})`);
}
const installers = Object.values(doc.artifacts).filter((a) => /installer$/.test(a.kind)).map((a) => a.name).sort();
if (JSON.stringify(installers) !== JSON.stringify(["firsttoken-cli-installer.ps1", "firsttoken-cli-installer.sh"])) {
  fail(`installers ${installers}`);
}
const release = (doc.releases || []).find((r) => r.app_name === "firsttoken-cli");
if (!release || release.app_version !== version) fail(`no release of firsttoken-cli ${version}`);
console.log(`release plan: firsttoken-cli ${version}: ${targets.length} archives with checksums, ${installers.join(" and ")}`);
JS

crates=(firsttoken-core firsttoken-chart firsttoken firsttoken-cli)
cargo package "${crates[@]/#/-p}" --no-verify --allow-dirty --quiet
for crate in "${crates[@]}"; do
  test -s "target/package/$crate-$version.crate" || { echo "release: $crate did not package" >&2; exit 1; }
done
echo "release: ${crates[*]} $version package"

target=x86_64-unknown-linux-musl
archive="target/distrib/firsttoken-cli-$target.tar.xz"
rm -f "$archive"
dist build --artifacts=local --target "$target" > "$build_log" 2>&1 || {
  cat "$build_log" >&2; echo "release: dist build for $target failed" >&2; exit 1
}
test -s "$archive" || { echo "release: dist build made no $archive" >&2; exit 1; }
tar -xJf "$archive" -C "$unpacked"
binary="$unpacked/firsttoken-cli-$target/firsttoken"
test -x "$binary" || { echo "release: $archive holds no firsttoken binary" >&2; exit 1; }
linkage=$(file -b "$binary")
[[ $linkage == *"static"* && $linkage != *"dynamically linked"* ]] || {
  echo "release: firsttoken in $archive is not statically linked: $linkage" >&2; exit 1
}
reported=$("$binary" --version)
[[ $reported == "firsttoken $version" ]] || {
  echo "release: firsttoken in $archive says \"$reported\", not \"firsttoken $version\"" >&2; exit 1
}
echo "release: dist build $target: $(basename "$archive") holds firsttoken, statically linked, \"$reported\""
