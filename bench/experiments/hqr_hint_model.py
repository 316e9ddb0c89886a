#!/usr/bin/env python3
"""Model of the real QR iteration (eigenvalues only) with shifts from a
cheaper first pass ("hints"): does knowing the eigenvalues roughly in
advance cut the double-precision sweeps enough to pay for that pass?

Per random n x n matrix (uniform in [-1, 1], reduced to Hessenberg form H):
- Francis: lahqr_real's shifts (the active block's trailing 2 x 2), in double;
- float pass: the same iteration on H rounded to single precision, with the
  deflation test's u set to `ftol` (the hints are its eigenvalues);
- hinted: double again, each Francis shift replaced by the nearest hint
  (a complex one by the nearest hint of its half-plane with its conjugate),
  unless the Francis shift is already within `keep` (relative) of it;
- exact: hints = numpy.linalg.eigvals(A), the best any first pass could give.

Prints, averaged over the matrices that converged: sweeps, chase steps,
the entries the steps' two updates touch, and the worst eigenvalue error of
the hinted runs in units of ||A||_1 u.

    python3 bench/experiments/hqr_hint_model.py [n] [count] [ftol] [keep]

Needs NumPy and SciPy (Debian: python3-numpy python3-scipy) and
hqr_tandem_model.py next to it. Results: docs/performance.md, "Session 84".
"""
import os
import sys

import numpy as np
import scipy.linalg as sl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hqr_tandem_model as tm  # noqa: E402


def nearest(s, pool):
    return None if len(pool) == 0 else pool[np.argmin(np.abs(pool - s))]


def hinted_pair(pair, hints, keep):
    """The Francis pair with each shift moved to its nearest hint."""
    s1, s2 = pair
    scale = max(abs(s1), abs(s2), np.finfo(float).tiny)
    if s1.imag != 0:
        c = nearest(s1 if s1.imag > 0 else s2, hints[hints.imag >= 0])
        if c is None or min(abs(c - s1), abs(c - s2)) <= keep * scale:
            return pair
        return (c, np.conj(c))
    c1 = nearest(s1, hints)
    if c1 is not None and abs(c1 - s1) <= keep * scale:
        c1 = s1
    if c1 is not None and c1.imag != 0:
        return (c1, np.conj(c1))
    c2 = nearest(s2, hints[hints.imag == 0])
    if c2 is not None and abs(c2 - s2) <= keep * scale:
        c2 = s2
    return (s1 if c1 is None else c1, s2 if c2 is None else c2)


def qr(h, u, hints=None, keep=0.0):
    """Eigenvalues of Hessenberg h (its dtype kept) with deflation unit u."""
    saved = tm.EPS, tm.SMLNUM
    tm.EPS, tm.SMLNUM = u, np.finfo(h.dtype).tiny * 30 / u
    try:
        h = h.copy()
        i, ev = h.shape[0] - 1, []
        counts = {"sweeps": 0, "steps": 0, "entries": 0}
        while i >= 0:
            its = 0
            while True:
                l = tm.split_point(h, i)
                if l > 0:
                    h[l, l - 1] = 0
                if l >= i - 1:
                    break
                its += 1
                pair = tm.shift_pairs(h.astype(float), l, i, its, 1, {"shift": 0})[0]
                if hints is not None and its not in (10, 20):
                    pair = hinted_pair(pair, hints, keep)
                counts["sweeps"] += 1
                for k in range(l, i):
                    nr = min(3, i - k + 1)
                    if k == l:
                        x = tm.first_column(h.astype(float), l, *pair)[:nr].astype(h.dtype)
                    else:
                        x = h[k:k + nr, k - 1].copy()
                    tm.chase_step(h, l, i, k, x)
                    counts["steps"] += 1
                    counts["entries"] += nr * ((i + 1 - max(k - 1, l)) + (min(k + 3, i) + 1 - l))
                if its > 30 * max(10, h.shape[0]):
                    raise RuntimeError("no convergence")
            if l == i:
                ev.append(complex(h[i, i]))
            else:
                ev += list(np.linalg.eigvals(h[i - 1:i + 1, i - 1:i + 1].astype(float)))
            i = l - 1
        return counts, np.array(ev)
    finally:
        tm.EPS, tm.SMLNUM = saved


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    ftol = float(sys.argv[3]) if len(sys.argv) > 3 else float(np.finfo(np.float32).eps)
    keep = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    rng = np.random.default_rng(5)
    totals, worst, failed = {}, 0.0, {}
    for _ in range(count):
        a = rng.uniform(-1, 1, (n, n))
        h = sl.hessenberg(a)
        ref = np.linalg.eigvals(a)
        runs = {"Francis (double)": qr(h, tm.EPS)}
        runs[f"float pass, u = {ftol:g}"] = qr(h.astype(np.float32), ftol)
        for name, hints in ((f"hinted by it, keep {keep:g}", runs[f"float pass, u = {ftol:g}"][1]),
                            ("hinted by the exact eigenvalues", ref)):
            try:
                runs[name] = qr(h, tm.EPS, hints, keep)
            except RuntimeError:
                failed[name] = failed.get(name, 0) + 1
        for name, (counts, ev) in runs.items():
            acc = totals.setdefault(name, dict.fromkeys(counts, 0))
            for key, value in counts.items():
                acc[key] += value
            if name.startswith("hinted"):
                err = max(np.min(np.abs(e - ref)) for e in ev) / (np.abs(a).sum(0).max() * tm.EPS)
                worst = max(worst, err)
    for name, acc in totals.items():
        done = count - failed.get(name, 0)
        print(f"n = {n}, {name}: " + ", ".join(f"{key} {value / done:.1f}" for key, value in acc.items())
              + (f" (over {done}; no convergence on {count - done})" if done < count else ""))
    print(f"worst eigenvalue error of the hinted runs: {worst:.1f} ||A||_1 u")


if __name__ == "__main__":
    main()
