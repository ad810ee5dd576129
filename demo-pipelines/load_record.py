"""The load record's summary of per-frame lags, as the live calls
(webrtc-call.py, octopus-call.py) write it in call.json and
eval/live-eval.py's load guard reads it."""
import numpy as np


def quantiles_ms(lags_ns):
    """count, p50, p99 and max (ms) of @lags_ns; numpy's percentiles
    (linear interpolation), as the guard's other figures."""
    if not lags_ns:
        return {"count": 0, "p50": None, "p99": None, "max": None}
    ms = np.array(lags_ns, dtype=float) / 1e6
    return {"count": len(ms), "p50": float(np.percentile(ms, 50)),
            "p99": float(np.percentile(ms, 99)), "max": float(ms.max())}
