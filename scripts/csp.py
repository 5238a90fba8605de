#!/usr/bin/env python3
"""Writes the page's Content-Security-Policy meta tag after Trunk has built it.

Trunk writes one inline <script type="module"> that loads the wasm. Instead
of allowing inline scripts, the policy names that script by its SHA-256 hash,
so only the exact script Trunk wrote can run. Runs as Trunk's post_build hook
(on $TRUNK_STAGING_DIR/index.html) or by hand on a built index.html.

The policy: scripts only from the page itself (+ the hashed loader and
'wasm-unsafe-eval' to compile the module), no plugins, no <base>, no forms,
styles, fonts, images and workers only from the page. connect-src allows any
http(s) endpoint because the providers are the person's own choice (a cloud
API, or a vLLM box on the LAN); keys are sent only to the target they belong to.
"""
import base64
import hashlib
import os
import re
import sys

MARKER = re.compile(r"<!-- CSP_PLACEHOLDER:.*?-->", re.S)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S)


def policy(html: str) -> str:
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in INLINE_SCRIPT.findall(html)
    ]
    directives = [
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval' " + " ".join(hashes),
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "worker-src 'self'",
        "connect-src 'self' http: https:",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
    ]
    return "; ".join(d.strip() for d in directives)


def main() -> int:
    if len(sys.argv) > 1:
        path = sys.argv[1]
    else:
        path = os.path.join(os.environ["TRUNK_STAGING_DIR"], "index.html")
    with open(path, encoding="utf-8") as f:
        html = f.read()
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(html)}" />'
    if MARKER.search(html):
        html = MARKER.sub(meta, html, count=1)
    elif 'http-equiv="Content-Security-Policy"' in html:
        html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', meta, html, count=1)
    else:
        print(f"csp: no placeholder in {path}", file=sys.stderr)
        return 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    print(f"csp: policy written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
