#!/usr/bin/env python3
"""Minifies the staged page's style sheet with rcssmin, after Trunk has staged it.

Why a hook and not Trunk's `minify = "on_release"`: Trunk minifies the HTML
with the CSS, and its HTML minifier drops the CSP placeholder comment and
unquotes the attributes the other hook steps rewrite (scripts/wasm_split.py's
integrity hashes, scripts/csp.py's policy). Only the CSS is minified here:
comments and layout whitespace out, 1.6 kB gzip of the page (docs/size.md).
rcssmin is pinned in scripts/setup.sh. Only for release builds; skipped with
a warning when rcssmin is not installed, as wasm-opt is.

Trunk has already written the sheet's Subresource Integrity hash into
index.html; this rewrites it to match the new bytes. The file keeps Trunk's
name (a hash of the source sheet, so a changed sheet still gets a new name).
"""
import glob
import os
import sys

import wasm_opt  # noqa: E402  (the sibling script, for its integrity rewrite)


def main() -> int:
    if os.environ.get("TRUNK_PROFILE", "release") != "release":
        return 0
    try:
        import rcssmin
    except ImportError:
        print("css-min: rcssmin not installed (bash scripts/setup.sh); the CSS is left as written", file=sys.stderr)
        return 0
    staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
    index_path = os.path.join(staging, "index.html")
    with open(index_path, encoding="utf-8") as f:
        html = f.read()
    for path in glob.glob(os.path.join(staging, "*.css")):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        data = rcssmin.cssmin(text).encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)
        html, count = wasm_opt.rewrite_integrity(html, os.path.basename(path), data)
        if count == 0:
            print(f"css-min: no integrity hash for {os.path.basename(path)} in index.html", file=sys.stderr)
            return 1
        print(f"css-min: {os.path.basename(path)} {len(text.encode('utf-8'))} -> {len(data)} bytes")
    with open(index_path, "w", encoding="utf-8") as f:
        f.write(html)
    return 0


if __name__ == "__main__":
    sys.exit(main())
