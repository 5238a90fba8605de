#!/usr/bin/env python3
"""Splits the page's wasm into a first load and lazily loaded parts, after Trunk has staged it.

The page's functions marked `#[wasm_split(part, fallible)]` (src/ui/run/lazy.rs)
are split points: `wasm-split-cli` (crate wasm_split_cli_support, pinned and
installed by scripts/setup.sh) reads rustc's own wasm (linked with
`--emit-relocs`, .cargo/config.toml, and not stripped, Cargo.toml) and moves
each split point, and what only it reaches, into a module of its own; code two
parts share goes into a `chunk_N` module both load. It also writes a small
loader, `__wasm_split.js`, which fetches and instantiates a part's modules on
its first call. Trunk cannot do this itself (trunk-rs/trunk#1022), hence this
post_build hook, which then:

1. runs wasm-bindgen (`--keep-lld-exports`: the parts import the main
   module's functions by their linker names) on the split main module, under
   the name Trunk gave the page's wasm and glue, and puts both in place of
   Trunk's own;
2. shrinks every module with wasm-opt (scripts/wasm_opt.py, release only);
3. names each part's module and the loader by their content hash
   (`split_run-<hash>.wasm`, `__wasm_split-<hash>.js`): the splitter writes
   fixed names, and a fixed name could mix two deploys in a cache;
4. gives every fetch of a part's module its Subresource Integrity hash, adds
   a `modulepreload` link with the loader's hash to index.html (the glue
   imports the loader), and rewrites the integrity of the glue and the wasm.

Paths inside the loader are relative to its own URL (`import.meta.url`), so
the page works from a sub-path (`--public-url /firsttoken/`) unchanged.
scripts/csp.py runs after this and hashes the inline loader Trunk wrote.
"""
import base64
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wasm_opt  # noqa: E402  (the sibling script, for its optimiser and integrity rewrite)

LOADER = "__wasm_split.js"
# A part's fetch, as the splitter writes it for its web target.
FETCH = re.compile(r'fetch\(new URL\("\./([A-Za-z0-9_]+)\.wasm", import\.meta\.url\)\)')


def content_hash(data: bytes) -> str:
    """The first 16 hex digits of the SHA-256 of `data`, as Trunk names its files."""
    return hashlib.sha256(data).hexdigest()[:16]


def integrity(data: bytes) -> str:
    """A Subresource Integrity value for `data`."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        sys.exit(f"wasm-split: {name} is not installed (bash scripts/setup.sh)")
    return found


def main() -> int:
    staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
    source = os.environ.get("TRUNK_SOURCE_DIR", os.getcwd())
    release = os.environ.get("TRUNK_PROFILE", "release") == "release"
    staged = glob.glob(os.path.join(staging, "*_bg.wasm"))
    if len(staged) != 1:
        print(f"wasm-split: expected one *_bg.wasm in {staging}, found {len(staged)}", file=sys.stderr)
        return 1
    stem = os.path.basename(staged[0])[: -len("_bg.wasm")]  # e.g. firsttoken-0123456789abcdef
    crate = stem.rsplit("-", 1)[0].replace("-", "_")
    target_dir = os.environ.get("CARGO_TARGET_DIR", os.path.join(source, "target"))
    rustc_wasm = os.path.join(
        target_dir, "wasm32-unknown-unknown", "release" if release else "debug", f"{crate}.wasm"
    )
    if not os.path.isfile(rustc_wasm):
        print(f"wasm-split: no {rustc_wasm}", file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory(prefix="wasm-split-") as work:
        split_dir = os.path.join(work, "split")
        bindgen_dir = os.path.join(work, "bindgen")
        subprocess.run([tool("wasm-split-cli"), rustc_wasm, split_dir, "--out-name", stem], check=True)
        subprocess.run(
            [
                tool("wasm-bindgen"),
                "--target", "web",
                "--no-typescript",
                "--keep-lld-exports",
                "--out-dir", bindgen_dir,
                "--out-name", stem,
                os.path.join(split_dir, f"{stem}.wasm"),
            ],
            check=True,
        )
        for name in os.listdir(bindgen_dir):
            target = os.path.join(staging, name)
            if os.path.isdir(os.path.join(bindgen_dir, name)):
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(os.path.join(bindgen_dir, name), target)
            else:
                shutil.copyfile(os.path.join(bindgen_dir, name), target)
        parts = sorted(
            name for name in os.listdir(split_dir) if name.endswith(".wasm") and name != f"{stem}.wasm"
        )
        for name in parts:
            shutil.copyfile(os.path.join(split_dir, name), os.path.join(staging, name))
        with open(os.path.join(split_dir, LOADER), encoding="utf-8") as f:
            loader = f.read()

    main_wasm = os.path.join(staging, f"{stem}_bg.wasm")
    if release:
        for path in [main_wasm, *(os.path.join(staging, name) for name in parts)]:
            wasm_opt.optimise(source, path)

    # Name each part by its bytes, and fetch it with their integrity hash.
    hashed = {}
    for name in parts:
        path = os.path.join(staging, name)
        with open(path, "rb") as f:
            data = f.read()
        part = name[: -len(".wasm")]
        final = f"{part}-{content_hash(data)}.wasm"
        os.replace(path, os.path.join(staging, final))
        hashed[part] = (final, integrity(data))
        print(f"wasm-split: {final} {len(data)} bytes")

    seen = set()

    def sealed_fetch(match: re.Match) -> str:
        part = match.group(1)
        if part not in hashed:
            sys.exit(f"wasm-split: the loader fetches {part}.wasm, which the splitter did not write")
        seen.add(part)
        final, sri = hashed[part]
        return f'fetch(new URL("./{final}", import.meta.url), {{ integrity: "{sri}" }})'

    loader = FETCH.sub(sealed_fetch, loader)
    if seen != set(hashed):
        sys.exit(f"wasm-split: the loader does not fetch {sorted(set(hashed) - seen)}")
    loader_bytes = loader.encode()
    loader_name = f"__wasm_split-{content_hash(loader_bytes)}.js"
    with open(os.path.join(staging, loader_name), "wb") as f:
        f.write(loader_bytes)

    glue_path = os.path.join(staging, f"{stem}.js")
    with open(glue_path, encoding="utf-8") as f:
        glue = f.read()
    # Only the `import … from "./__wasm_split.js"` statements: the same string
    # is also the key the wasm's imports are looked up by, which stays.
    import_statement = re.compile(r"""(\bfrom\s*)(['"])\./__wasm_split\.js\2""")
    if not import_statement.search(glue):
        print(f"wasm-split: the glue does not import {LOADER}", file=sys.stderr)
        return 1
    glue = import_statement.sub(rf"\g<1>\g<2>./{loader_name}\g<2>", glue)
    with open(glue_path, "w", encoding="utf-8") as f:
        f.write(glue)

    index_path = os.path.join(staging, "index.html")
    with open(index_path, encoding="utf-8") as f:
        html = f.read()
    for path in (main_wasm, glue_path):
        with open(path, "rb") as f:
            html, count = wasm_opt.rewrite_integrity(html, os.path.basename(path), f.read())
        if count == 0:
            print(f"wasm-split: no integrity hash for {os.path.basename(path)} in index.html", file=sys.stderr)
            return 1
    # The glue imports the loader: preload it, with its integrity, beside the glue.
    glue_link = re.search(r'<link\b[^>]*href="([^"]*)' + re.escape(f"{stem}.js") + r'"[^>]*>', html)
    if glue_link is None:
        print("wasm-split: no link to the glue in index.html", file=sys.stderr)
        return 1
    prefix = glue_link.group(1)
    preload = (
        f'<link rel="modulepreload" href="{prefix}{loader_name}" '
        f'crossorigin="anonymous" integrity="{integrity(loader_bytes)}">'
    )
    html = html.replace(glue_link.group(0), glue_link.group(0) + preload, 1)
    with open(index_path, "w", encoding="utf-8") as f:
        f.write(html)
    print(f"wasm-split: {len(parts)} lazily loaded module(s), loader {loader_name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
