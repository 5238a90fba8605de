#!/usr/bin/env python3
"""Shrinks the release wasm with binaryen's wasm-opt, after Trunk has staged it.

Why a hook and not Trunk's own `data-wasm-opt`: Trunk wants a wasm-opt binary
of a version it knows on PATH, and Debian's binaryen is too old for the
features rustc emits (bulk memory, non-trapping float-to-int, reference
types). The npm `binaryen` package (pinned in tools/package.json, installed by
scripts/setup.sh) is current and runs on Node.

Why `-O1` and not `-Oz`: measured on this module (docs/size.md), -Oz and -Os
make the raw file smaller but the gzip and brotli transfer *larger* (their
inlining and code reordering compress worse); -O1 plus stripping the name and
producers sections is the smallest on the wire. `--converge` repeats -O1
until it stops shrinking the module: on the split page (seven modules) that
took 906 bytes gzip off the wasm in all (355.8 → 355.1 kB for the main
module), measured on the dist of the merged build. `--dae-optimizing`
(parameters every caller passes the same, or no caller reads, removed) and
`--code-folding` (identical tails of branches merged) take about 0.6-1.2 kB
gzip off each lazily loaded part (docs/size.md, 2026-12-05 (later)); unlike
-Oz's inlining they leave the code's repetitions for the compressor.

Trunk has already written Subresource Integrity hashes into index.html, so
this rewrites the wasm's `integrity` attribute to match the new bytes. The
split page's hook (scripts/wasm_split.py) calls `optimise` on every module it
writes and fixes the hashes itself; run on its own, this optimises the one
`*_bg.wasm` of an unsplit page. Only for release builds; skipped with a
warning when wasm-opt is not installed.
"""
import base64
import glob
import hashlib
import os
import re
import subprocess
import sys

# Features rustc 1.95 enables for wasm32-unknown-unknown by default; wasm-opt
# refuses a module that uses a feature it was not told about.
FEATURES = [
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
]
PASSES = [
    "-O1",
    "--converge",
    "--dae-optimizing",
    "--code-folding",
    "--strip-debug",
    "--strip-producers",
]


def rewrite_integrity(html: str, file_name: str, data: bytes) -> tuple[str, int]:
    """Replaces the integrity hash of every tag naming `file_name`; returns the html and the count."""
    tag = re.compile(r"<link\b[^>]*>")

    def fix(match: re.Match) -> str:
        text = match.group(0)
        if not re.search(r'href="[^"]*' + re.escape(file_name) + '"', text):
            return text
        found = re.search(r'integrity="(sha256|sha384|sha512)-[^"]*"', text)
        if not found:
            return text
        algorithm = found.group(1)
        digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
        return text.replace(found.group(0), f'integrity="{algorithm}-{digest}"')

    count = 0

    def counted(match: re.Match) -> str:
        nonlocal count
        fixed = fix(match)
        count += fixed != match.group(0)
        return fixed

    return tag.sub(counted, html), count


def optimise(source: str, path: str) -> bytes | None:
    """Runs wasm-opt on the module at `path` in place; returns its new bytes,
    or None (with a warning) when wasm-opt is not installed under `source`."""
    wasm_opt = os.path.join(source, "tools", "node_modules", ".bin", "wasm-opt")
    if not os.path.exists(wasm_opt):
        print("wasm-opt: not installed (bash scripts/setup.sh); the wasm is left unoptimised", file=sys.stderr)
        return None
    before = os.path.getsize(path)
    optimised = path + ".opt"
    subprocess.run([wasm_opt, *PASSES, *FEATURES, path, "-o", optimised], check=True)
    os.replace(optimised, path)
    with open(path, "rb") as f:
        data = f.read()
    print(f"wasm-opt: {os.path.basename(path)} {before} -> {len(data)} bytes")
    return data


def main() -> int:
    """Optimises the staged page's `*_bg.wasm` and rewrites its integrity hash
    (for a page built without split points; scripts/wasm_split.py calls
    `optimise` on every module of a split page itself)."""
    if os.environ.get("TRUNK_PROFILE", "release") != "release":
        return 0
    staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
    source = os.environ.get("TRUNK_SOURCE_DIR", os.getcwd())
    index_path = os.path.join(staging, "index.html")
    with open(index_path, encoding="utf-8") as f:
        html = f.read()
    for path in glob.glob(os.path.join(staging, "*_bg.wasm")):
        data = optimise(source, path)
        if data is None:
            return 0
        html, count = rewrite_integrity(html, os.path.basename(path), data)
        print(f"wasm-opt: {os.path.basename(path)}: {count} integrity hash(es) updated")
    with open(index_path, "w", encoding="utf-8") as f:
        f.write(html)
    return 0


if __name__ == "__main__":
    sys.exit(main())
