"""Write tests/data/stats_reference.json: descriptive statistics computed by
numpy, which the Rust tests in crates/core/src/statistics/stats.rs compare against.

Run from the repository root with `python3 tests/data/make_reference.py`
(numpy 2.x; produced with numpy 2.4.6). The exact calls:

    np.percentile(x, p)                 # method="linear", numpy's default
    np.mean(x)
    np.std(x, ddof=1)                   # 0.0 written by hand when n == 1
    np.std(x, ddof=1) / np.mean(x) * 100
    np.percentile(x, 75) - np.percentile(x, 25)
"""
import json

import numpy as np

rng = np.random.default_rng(20240611)

datasets = {
    "single": [412.5],
    "two": [380.0, 1620.25],
    "small_integers": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
    "ties_and_unsorted": [500.0, 120.0, 120.0, 980.5, 500.0, 77.25, 120.0, 3000.0, 500.0],
    "warm_lognormal_75": list(np.round(rng.lognormal(np.log(390.0), 0.2, 75), 3)),
    "cold_tail_75": list(np.round(np.concatenate([
        rng.lognormal(np.log(550.0), 0.25, 71),
        rng.lognormal(np.log(6000.0), 0.1, 4),
    ]), 3)),
    "heavy_1000": list(np.round(rng.lognormal(np.log(800.0), 1.2, 1000), 6)),
}

out = []
for name, values in datasets.items():
    x = np.array(values, dtype=np.float64)
    n = len(x)
    std = float(np.std(x, ddof=1)) if n > 1 else 0.0
    ps = [0, 1, 2.5, 10, 25, 33.3, 50, 66.6, 75, 90, 95, 97.5, 99, 99.9, 100]
    out.append({
        "name": name,
        "values": [float(v) for v in x],
        "percentiles": [[p, float(np.percentile(x, p))] for p in ps],
        "n": n,
        "min": float(np.min(x)),
        "max": float(np.max(x)),
        "mean": float(np.mean(x)),
        "median": float(np.percentile(x, 50)),
        "p90": float(np.percentile(x, 90)),
        "p95": float(np.percentile(x, 95)),
        "p99": float(np.percentile(x, 99)),
        "iqr": float(np.percentile(x, 75) - np.percentile(x, 25)),
        "stddev": std,
        "cv_pct": std / float(np.mean(x)) * 100.0,
    })

with open("tests/data/stats_reference.json", "w") as f:
    json.dump({
        "note": "produced by tests/data/make_reference.py with numpy " + np.__version__,
        "datasets": out,
    }, f, indent=1)
