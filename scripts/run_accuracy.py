#!/usr/bin/env python3
"""The runner's TTFT through its whole `run` (schedule, loop, journal) against
the mock's ground truth, for one or more `firsttoken` binaries in one sitting.

Each binary runs the same plan in turn, round after round (A, B, A, B, ...), so
a busy moment of the machine falls on both alike: one target, the mock's
`fixed@50` script, `--spacing 0.1`, no warm-up. After each run the mock's
ground truth (`GET /ground-truth`: when each request was read and when the
chunk completing its first token was written) is paired with the run's
samples in order, and `TTFT - (first token - received)` is the runner's
overhead on that request: the time to write the request and to read the
token back, positive by construction.

    python3 scripts/run_accuracy.py --mock target/release/firsttoken-mock \
        --binary before=/path/to/old/firsttoken --binary after=target/release/firsttoken \
        [--rounds 3] [--n 100]

Prints, per binary, the median, p95, min and max of the overhead over every
request of every round (ms). Not a test: run it on a quiet machine.
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, method="GET"):
    request = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.read()


def quantile(values, q):
    ordered = sorted(values)
    at = (len(ordered) - 1) * q
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def one_run(binary, base, n, out):
    get(f"{base}/reset", "POST")
    subprocess.run(
        [binary, "run", "--target", f"openai:fixed@50@{base}/v1", "-n", str(n),
         "--warmup", "0", "--spacing", "0.1", "--jitter", "0", "-o", out],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "OPENAI_API_KEY": "sk-bench-not-a-real-key"},
    )
    # The last reply's end may still be on its way.
    time.sleep(0.3)
    truth = json.loads(get(f"{base}/ground-truth"))["requests"]
    with open(out, encoding="utf-8") as f:
        samples = [s for s in json.load(f)["samples"] if not s.get("warmup")]
    samples.sort(key=lambda s: s["seq"])
    if len(truth) != len(samples):
        sys.exit(f"{binary}: {len(samples)} samples, the mock saw {len(truth)} requests")
    return [
        s["ttft_ms"] - (t["first_token_ms"] - t["received_ms"])
        for s, t in zip(samples, truth)
        if s.get("ttft_ms") is not None and t.get("first_token_ms") is not None
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mock", required=True)
    parser.add_argument("--binary", action="append", required=True, help="NAME=PATH")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--n", type=int, default=100)
    args = parser.parse_args()
    binaries = [b.split("=", 1) for b in args.binary]
    port = free_port()
    mock = subprocess.Popen([args.mock, "--port", str(port)], stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(50):
            try:
                get(f"{base}/ground-truth")
                break
            except OSError:
                time.sleep(0.1)
        overheads = {name: [] for name, _ in binaries}
        with tempfile.TemporaryDirectory() as tmp:
            for round_ in range(args.rounds):
                for name, path in binaries:
                    out = os.path.join(tmp, f"{name}-{round_}.json")
                    overheads[name] += one_run(path, base, args.n, out)
        print(f"load average {os.getloadavg()[0]:.2f}; {args.rounds} rounds of {args.n} requests")
        print("binary   requests  median ms  p95 ms  min ms  max ms")
        for name, values in overheads.items():
            print(f"{name:8} {len(values):8}  {statistics.median(values):9.3f} "
                  f"{quantile(values, 0.95):7.3f} {min(values):7.3f} {max(values):7.3f}")
    finally:
        mock.terminate()
        mock.wait()


if __name__ == "__main__":
    main()
