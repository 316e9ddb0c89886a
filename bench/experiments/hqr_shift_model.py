#!/usr/bin/env python3
"""Model of the real QR iteration (eigenvalues only) with look-ahead shifts.

Counts, per random n x n matrix (uniform in [-1, 1], reduced to Hessenberg
form), the double-shift sweeps and chase steps of lahqr_real
(src/core/hqr.hpp) with two kinds of shifts:

- Francis: the eigenvalues of the active block's trailing 2 x 2 (xLAHQR);
- look-ahead k:s: the trailing k x k of the active block, copied, gets s
  double-shift sweeps of its own (each with the Francis shifts of its own
  trailing 2 x 2); the shifts are then the eigenvalues of the copy's
  trailing 2 x 2. Used when the active block has at least min(k, 4) rows
  and the iteration is not an exceptional one. k = 4, s = 1 was built into
  lahqr_real and measured on an H200: the steps fell as modelled, but
  each look-ahead cost about three chase steps there, so the library keeps
  the Francis shifts (docs/performance.md, "Session 65").

Prints, averaged over the matrices: sweeps, chase steps, and the worst
eigenvalue error against numpy.linalg.eigvals in units of ||A||_1 u.

    python3 bench/experiments/hqr_shift_model.py [n] [count] [k:s,...]

Needs NumPy and SciPy (Debian: python3-numpy python3-scipy) and
hqr_tandem_model.py next to it. Results: docs/performance.md, "Session 65".
"""
import os
import sys

import numpy as np
import scipy.linalg as sl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hqr_tandem_model as tm  # noqa: E402


def qr(h, k, s):
    """Eigenvalues of Hessenberg h; look-ahead window k with s sweeps (k = 2: Francis)."""
    h = h.copy()
    i, its, ev = h.shape[0] - 1, 0, []
    counts = {"sweeps": 0, "steps": 0}
    while i >= 0:
        l, top = tm.deflate_bottom(h, i, ev)
        if top < i:
            i, its = top, 0
            continue
        its += 1
        pair = tm.shift_pairs(h, l, i, its, 1, {"shift": 0})[0]
        kk = min(k, i - l + 1)
        if k > 2 and its not in (10, 20) and kk >= min(k, 4):
            w = h[i - kk + 1:i + 1, i - kk + 1:i + 1].copy()
            for _ in range(s):
                tm.sweep(w, 0, kk - 1, np.linalg.eigvals(w[-2:, -2:]))
            pair = np.linalg.eigvals(w[-2:, -2:])
        counts["sweeps"] += 1
        tm.sweep(h, l, i, pair, counts)
        if its > 30 * max(10, h.shape[0]):
            raise RuntimeError("no convergence")
    return counts, np.array(ev)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    specs = sys.argv[3] if len(sys.argv) > 3 else "2:0,3:1,4:1,4:2,6:1,6:2"
    mats = tm.random_matrices(n, count)
    for spec in specs.split(","):
        k, s = map(int, spec.split(":"))
        sweeps = steps = worst = 0.0
        for a in mats:
            counts, ev = qr(sl.hessenberg(a), k, s)
            sweeps += counts["sweeps"]
            steps += counts["steps"]
            worst = max(worst, tm.eig_error(a, ev))
        name = "Francis" if k == 2 else f"look-ahead {k}x{k}, {s} sweep(s)"
        print(f"n = {n}, {name}: sweeps {sweeps / count:.1f}, chase steps {steps / count:.0f}, "
              f"worst eigenvalue error {worst:.1f} ||A||_1 u")


if __name__ == "__main__":
    main()
