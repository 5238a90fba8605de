#!/usr/bin/env python3
"""Measures what a visitor downloads: every file of the built page, raw and compressed.

The page is split (scripts/wasm_split.py): the first load is everything a
first visit downloads before Start works (index.html, the CSS, the glue and
the split loader, the main wasm, the favicon and the timer worker); the parts
(`split_*.wasm`, and `chunk_*.wasm` which two parts share) are fetched when
first opened. Both are reported, each against its budget.

The page weight budget (docs/size.md) is about the bytes on the wire, and
every static host worth using compresses text and wasm, so the figure that
counts is the compressed one. gzip -9 is what any server can do; brotli
(quality 11) is what GitHub Pages and most CDNs serve to current browsers.
Brotli comes from Python's `brotli` module when it is installed, else from
Node's built-in zlib (Node is already needed for the end-to-end tests), and is
left out when neither is there.

Usage: scripts/size.py [DIST_DIR] [--budget-kb 380] [--total-budget-kb 690] [--json]
Exit status 1 when the first load's gzip total is over its budget, or the
whole page's over its own, so it can gate a build (`make test` does).
Sizes are in bytes; kB means 1000 bytes.
"""
import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys

# Gzip total for everything the first visit downloads, in kB (1000 bytes).
DEFAULT_BUDGET_KB = 380
# Gzip total of every file, the parts included (docs/architecture.md, "Rules the layout keeps").
DEFAULT_TOTAL_BUDGET_KB = 690


def brotli_sizes(blobs: list[bytes]) -> list[int] | None:
    """Brotli quality-11 sizes of `blobs`, or None when no brotli encoder is available."""
    try:
        import brotli  # type: ignore[import-not-found]

        return [len(brotli.compress(b, quality=11)) for b in blobs]
    except ImportError:
        pass
    node = shutil.which("node")
    if node is None:
        return None
    # One node process for all files: read length-prefixed blobs from stdin.
    script = (
        "const z=require('zlib');const d=require('fs').readFileSync(0);const out=[];"
        "for(let i=0;i<d.length;){const n=d.readUInt32BE(i);i+=4;"
        "out.push(z.brotliCompressSync(d.subarray(i,i+n),{params:{"
        "[z.constants.BROTLI_PARAM_QUALITY]:11,[z.constants.BROTLI_PARAM_SIZE_HINT]:n}}).length);i+=n;}"
        "console.log(JSON.stringify(out));"
    )
    payload = b"".join(len(b).to_bytes(4, "big") + b for b in blobs)
    done = subprocess.run([node, "-e", script], input=payload, capture_output=True, check=False)
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)


def is_part(name: str) -> bool:
    """Whether `name` is a lazily loaded module (not part of the first load)."""
    base = os.path.basename(name)
    return base.endswith(".wasm") and not base.endswith("_bg.wasm")


def kind_of(name: str) -> str:
    """The kind of asset, by extension, for the per-kind subtotals."""
    ext = os.path.splitext(name)[1].lower()
    return {".wasm": "wasm", ".js": "js", ".css": "css", ".html": "html"}.get(ext, "other")


def measure(dist: str) -> dict:
    """Raw, gzip -9 and (when available) brotli sizes of every file under `dist`, in bytes."""
    names = sorted(
        os.path.relpath(os.path.join(root, f), dist)
        for root, _dirs, files in os.walk(dist)
        for f in files
    )
    blobs = []
    for name in names:
        with open(os.path.join(dist, name), "rb") as f:
            blobs.append(f.read())
    gz = [len(gzip.compress(b, compresslevel=9, mtime=0)) for b in blobs]
    br = brotli_sizes(blobs)
    files = [
        {
            "file": name,
            "kind": kind_of(name),
            "raw": len(blob),
            "gzip": gz[i],
            "brotli": br[i] if br is not None else None,
            "first_load": not is_part(name),
        }
        for i, (name, blob) in enumerate(zip(names, blobs))
    ]
    def sums(chosen: list[dict]) -> dict:
        return {
            "raw": sum(f["raw"] for f in chosen),
            "gzip": sum(f["gzip"] for f in chosen),
            "brotli": sum(f["brotli"] for f in chosen) if br is not None else None,
        }

    return {
        "dist": dist,
        "files": files,
        "first_load": sums([f for f in files if f["first_load"]]),
        "parts": sums([f for f in files if not f["first_load"]]),
        "total": sums(files),
    }


def table(result: dict, budget_kb: float, total_budget_kb: float) -> str:
    """A plain-text table of the sizes, in kB (1000 bytes)."""
    has_br = result["total"]["brotli"] is not None

    def kb(n: int | None) -> str:
        return "-" if n is None else f"{n / 1000:.1f}"

    def row(label: str, f: dict) -> str:
        return f"{label:<48} {kb(f['raw']):>9} {kb(f['gzip']):>9} {kb(f['brotli']):>9}"

    lines = [f"{'file':<48} {'raw kB':>9} {'gzip kB':>9} {'br kB':>9}"]
    for first in (True, False):
        for f in result["files"]:
            if f["first_load"] == first:
                lines.append(row(("  " if first else "  (later) ") + f["file"], f))
        lines.append(row("first load" if first else "loaded later", result["first_load" if first else "parts"]))
    t = result["total"]
    lines.append(row("total", t))
    first_gzip = result["first_load"]["gzip"]
    verdict = "within" if first_gzip <= budget_kb * 1000 else "OVER"
    lines.append(f"first load, gzip {kb(first_gzip)} kB: {verdict} the {budget_kb:g} kB budget")
    verdict = "within" if t["gzip"] <= total_budget_kb * 1000 else "OVER"
    lines.append(f"whole page, gzip {kb(t['gzip'])} kB: {verdict} the {total_budget_kb:g} kB budget")
    if not has_br:
        lines.append("(brotli: no encoder found; `pip install brotli` or install node)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", nargs="?", default="dist", help="the built page (default: dist)")
    parser.add_argument("--budget-kb", type=float, default=DEFAULT_BUDGET_KB, help="first load's gzip budget in kB")
    parser.add_argument(
        "--total-budget-kb", type=float, default=DEFAULT_TOTAL_BUDGET_KB, help="whole page's gzip budget in kB"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.dist, "index.html")):
        print(f"size: no index.html in {args.dist}: build the page first (make build)", file=sys.stderr)
        return 2
    result = measure(args.dist)
    result["budget_kb"] = args.budget_kb
    result["total_budget_kb"] = args.total_budget_kb
    print(json.dumps(result, indent=2) if args.json else table(result, args.budget_kb, args.total_budget_kb))
    within = (
        result["first_load"]["gzip"] <= args.budget_kb * 1000
        and result["total"]["gzip"] <= args.total_budget_kb * 1000
    )
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
