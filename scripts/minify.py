#!/usr/bin/env python3
"""Minifies the staged page's style sheet (rcssmin) and scripts (terser), after
the splitter has written them.

Why a hook and not Trunk's `minify = "on_release"`: Trunk minifies the HTML
with the CSS, and its HTML minifier drops the CSP placeholder comment and
unquotes the attributes the other hook steps rewrite (scripts/wasm_split.py's
integrity hashes, scripts/csp.py's policy); and the wasm-bindgen glue and the
parts' loader are written by the splitter after Trunk's minifiers ran. So the
style sheet and every script in the staging directory are minified here:
comments and layout whitespace out of the sheet, and the scripts compressed
and their local names shortened (an ES module's exports keep their names;
property names, the wasm imports among them, are never touched). What it
saves is in docs/size.md. rcssmin and terser are pinned (scripts/setup.sh,
tools/package.json). Only for release builds; a tool not installed is said
and its files are left as written, as wasm-opt's are.

Trunk (or the splitter) has already written each file's Subresource Integrity
hash into index.html; this rewrites it to match the new bytes. Each file keeps
its name (a hash of what it was built from, so a change still gets a new name).
"""
import glob
import os
import subprocess
import sys

import wasm_opt  # noqa: E402  (the sibling script, for its integrity rewrite)


def css(text: str) -> bytes | None:
    try:
        import rcssmin
    except ImportError:
        print("minify: rcssmin not installed (bash scripts/setup.sh); the CSS is left as written", file=sys.stderr)
        return None
    return rcssmin.cssmin(text).encode("utf-8")


def js(source_dir: str, path: str) -> bytes | None:
    terser = os.path.join(source_dir, "tools", "node_modules", ".bin", "terser")
    if not os.path.exists(terser):
        print("minify: terser not installed (bash scripts/setup.sh); the scripts are left as written", file=sys.stderr)
        return None
    # A worker script is a classic script, not a module.
    module = [] if path.endswith("-worker.js") else ["--module"]
    done = subprocess.run(
        [terser, path, *module, "--compress", "--mangle"],
        check=True,
        capture_output=True,
    )
    return done.stdout


def main() -> int:
    if os.environ.get("TRUNK_PROFILE", "release") != "release":
        return 0
    staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
    source = os.environ.get("TRUNK_SOURCE_DIR", os.getcwd())
    index_path = os.path.join(staging, "index.html")
    with open(index_path, encoding="utf-8") as f:
        html = f.read()
    files = sorted(glob.glob(os.path.join(staging, "*.css")) + glob.glob(os.path.join(staging, "*.js")))
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        data = css(text) if path.endswith(".css") else js(source, path)
        if data is None:
            continue
        with open(path, "wb") as f:
            f.write(data)
        name = os.path.basename(path)
        html, count = wasm_opt.rewrite_integrity(html, name, data)
        print(f"minify: {name} {len(text.encode('utf-8'))} -> {len(data)} bytes, {count} integrity hash(es) updated")
    with open(index_path, "w", encoding="utf-8") as f:
        f.write(html)
    return 0


if __name__ == "__main__":
    sys.exit(main())
