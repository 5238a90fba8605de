#!/usr/bin/env bash
# The release, checked without releasing:
# - `dist plan` (dist-workspace.toml) names the five archives of
#   `firsttoken` (Linux x86_64 and aarch64 static, macOS x86_64 and arm64,
#   Windows), each with its checksum, and the shell and PowerShell
#   installers, at the runner crate's version;
# - the core crate and the runner package (`cargo package`, without the
#   verifying build: the workspace's own tests build them);
# - the binstall metadata names the archives dist makes.
# The release workflow itself is linted with the others by `make lint`.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^version = "\(.*\)"/\1/p' cli/Cargo.toml | head -1)
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
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

cargo package -p firsttoken -p firsttoken-cli --no-verify --allow-dirty --quiet
for crate in firsttoken firsttoken-cli; do
  test -s "target/package/$crate-$version.crate" || { echo "release: $crate did not package" >&2; exit 1; }
done
echo "release: firsttoken and firsttoken-cli $version package"
