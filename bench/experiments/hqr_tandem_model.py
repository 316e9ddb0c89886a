#!/usr/bin/env python3
"""Model of the real QR iteration (eigenvalues only) with bulges in tandem.

Counts, per random n x n matrix (uniform in [-1, 1], reduced to Hessenberg
form), what bounds the GPU's QR launch on the band (lahqr_real in
src/core/hqr.hpp): the serial chain of chase steps. With b bulges of two
shifts each chased in tandem (as LAPACK's xLAQR5, spaced three rows apart,
without aggressive early deflation), one "slot" advances every bulge in
flight by one row; the members of a team could do a slot's reflections in
one pass over the rows and one over the columns, as they do one step now.
b = 1 is lahqr_real's double-shift sweep. The 2b shifts are the
eigenvalues of the active block's trailing 2b x 2b block, found by the
same double-shift QR (its chase steps are reported as "shift steps").

Prints, averaged over the matrices: sweeps, chase steps (work), serial
slots (chain) and the shift problems' chase steps, with the worst
eigenvalue error against numpy.linalg.eigvals in units of ||A||_1 u.

    python3 bench/experiments/hqr_tandem_model.py [n] [count]

Needs NumPy and SciPy (Debian: python3-numpy python3-scipy). Results:
docs/performance.md, "Session 59".
"""
import sys

import numpy as np
import scipy.linalg as sl

EPS = np.finfo(float).eps
SMLNUM = np.finfo(float).tiny * 30 / EPS


def reflector(x):
    """v (v[0] = 1) and tau with (I - tau v v^T) x = beta e1."""
    a, s = x[0], np.linalg.norm(x[1:])
    if s == 0:
        return np.r_[1.0, np.zeros(len(x) - 1)], 0.0
    beta = -np.copysign(np.hypot(a, s), a)
    v = x / (a - beta)
    v[0] = 1.0
    return v, (beta - a) / beta


def first_column(h, k, s1, s2):
    """Rows k..k+2 of (H - s1)(H - s2) e_k for a real or conjugate pair."""
    sr, sp = (s1 + s2).real, (s1 * s2).real
    return np.array([h[k, k] * h[k, k] + h[k, k + 1] * h[k + 1, k] - sr * h[k, k] + sp,
                     h[k + 1, k] * (h[k, k] + h[k + 1, k + 1] - sr),
                     h[k + 1, k] * h[k + 2, k + 1]])


def chase_step(h, l, i, k, x):
    """The chase step at row k of a sweep on rows and columns l..i: the
    reflector of x (rows k..k+len(x)-1) applied from both sides."""
    nr = len(x)
    v, tau = reflector(x)
    rows, c0 = slice(k, k + nr), max(k - 1, l)
    h[rows, c0:i + 1] -= tau * np.outer(v, v @ h[rows, c0:i + 1])
    r1 = slice(l, min(k + 3, i) + 1)
    h[r1, rows] -= tau * np.outer(h[r1, rows] @ v, v)
    if k > l:
        h[k + 1:k + nr, k - 1] = 0.0


def split_point(h, i):
    """The largest k in (0, i] with h(k, k-1) negligible (xLAHQR's test), else 0."""
    for k in range(i, 0, -1):
        hk = abs(h[k, k - 1])
        if hk <= SMLNUM:
            return k
        tst = abs(h[k - 1, k - 1]) + abs(h[k, k])
        if tst == 0:
            if k >= 2:
                tst += abs(h[k - 1, k - 2])
            if k + 1 <= i:
                tst += abs(h[k + 1, k])
        if hk <= EPS * tst:
            ab, ba = max(hk, abs(h[k - 1, k])), min(hk, abs(h[k - 1, k]))
            d = abs(h[k - 1, k - 1] - h[k, k])
            aa, bb = max(abs(h[k, k]), d), min(abs(h[k, k]), d)
            s = aa + ab
            if ba * (ab / s) <= max(SMLNUM, EPS * (bb * (aa / s))):
                return k
    return 0


def sweep(h, l, i, pair, counts=None):
    """One double-shift sweep (one bulge) on rows and columns l..i of h with
    the shift pair; counts (optional): "steps" and, where present, "length"
    (the entries the steps update) are added to."""
    for k in range(l, i):
        nr = min(3, i - k + 1)
        x = first_column(h, l, *pair)[:nr] if k == l else h[k:k + nr, k - 1].copy()
        chase_step(h, l, i, k, x)
        if counts is not None:
            counts["steps"] += 1
            if "length" in counts:
                counts["length"] += (i - max(k - 1, l) + 1) + (min(k + 3, i) - l + 1)


def random_matrices(n, count, seed=5):
    """The models' test matrices: count n x n, uniform in [-1, 1]."""
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, (n, n)) for _ in range(count)]


def eig_error(a, ev):
    """The worst distance of ev to a's eigenvalues (numpy.linalg.eigvals), in units of ||A||_1 u."""
    ref = np.linalg.eigvals(a)
    return max(np.min(np.abs(e - ref)) for e in ev) / (np.abs(a).sum(0).max() * EPS)


def deflate_bottom(h, i, ev):
    """xLAHQR's split test on the block ending at row i: (l, i) with l the
    block's first row; when a 1 x 1 or 2 x 2 block split off at the bottom,
    its eigenvalues are appended to ev and i becomes l - 1."""
    l = split_point(h, i)
    if l > 0:
        h[l, l - 1] = 0.0
    if l >= i - 1:
        ev += [h[i, i]] if l == i else list(np.linalg.eigvals(h[i - 1:i + 1, i - 1:i + 1]))
        return l, l - 1
    return l, i


def shift_pairs(h, l, i, its, bulges, counts):
    if its in (10, 20):  # exceptional shifts, as xLAHQR
        s = abs(h[i, i - 1]) + (abs(h[i - 1, i - 2]) if i - 2 >= l else 0.0)
        ev = np.linalg.eigvals(np.array([[0.75 * s + h[i, i], -0.4375 * s], [s, 0.75 * s + h[i, i]]]))
        return [(ev[0], ev[1])] * bulges
    if bulges == 1:
        ev = np.linalg.eigvals(h[i - 1:i + 1, i - 1:i + 1])
        return [(ev[0], ev[1])]
    m = 2 * bulges
    block = h[i - m + 1:i + 1, i - m + 1:i + 1].copy()
    for r in range(2, m):
        block[r:, r - 2] = 0.0
    _, sub_steps, _, ev = qr(block, 1, {"shift": 0})
    counts["shift"] += sub_steps
    pairs = [(c, np.conj(c)) for c in ev if c.imag > 0]
    real = sorted((c.real for c in ev if c.imag == 0), key=abs)
    while len(real) >= 2:
        pairs.append((complex(real.pop()), complex(real.pop())))
    return pairs[:bulges]


def qr(h, bulges, counts, trace=None):
    """Eigenvalues of Hessenberg h with up to `bulges` bulges per sweep.
    trace (optional): called as trace("block", h, i, None) whenever the
    active block ends at a new row i (i = -1 at the end) and as
    trace("sweep", h, i, l) after each sweep on the block [l, i]."""
    h = h.copy()
    n = h.shape[0]
    i, sweeps, steps, slots = n - 1, 0, 0, 0
    while i >= 0:
        if trace:
            trace("block", h, i, None)
        its = 0
        while True:
            l = split_point(h, i)
            if l > 0:
                h[l, l - 1] = 0.0
            if l >= i - 1:
                break
            its += 1
            b = bulges if i - l + 1 >= 3 * bulges + 2 else 1
            pairs = shift_pairs(h, l, i, its, b, counts)
            sweeps += 1
            finished, t = 0, 0
            while finished < len(pairs):
                # Slot t: bulge q at row l + t - 3q; the lower bulge first (its
                # reflector reads the entry the upper one's column pass changes).
                for q in range(len(pairs)):
                    k = l + t - 3 * q
                    if k < l or k > i - 1:
                        continue
                    nr = min(3, i - k + 1)
                    x = first_column(h, k, *pairs[q])[:nr] if k == l else h[k:k + nr, k - 1].copy()
                    chase_step(h, l, i, k, x)
                    steps += 1
                    finished += k == i - 1
                t += 1
                slots += 1
            if trace:
                trace("sweep", h, i, l)
            if its > 30 * (i - l + 1):
                raise RuntimeError("no convergence")
        i = l - 1
    if trace:
        trace("block", h, -1, None)
    ev, j = [], n - 1
    while j >= 0:
        if j > 0 and h[j, j - 1] != 0:
            ev += list(np.linalg.eigvals(h[j - 1:j + 1, j - 1:j + 1]))
            j -= 2
        else:
            ev.append(complex(h[j, j]))
            j -= 1
    return sweeps, steps, slots, np.array(ev)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    rng = np.random.default_rng(1)
    totals = {b: np.zeros(4) for b in (1, 2, 3)}
    worst = dict.fromkeys(totals, 0.0)
    for _ in range(count):
        a = rng.uniform(-1, 1, (n, n))
        ref = np.linalg.eigvals(a)
        hess = sl.hessenberg(a)
        for b in totals:
            counts = {"shift": 0}
            sweeps, steps, slots, ev = qr(hess, b, counts)
            totals[b] += (sweeps, steps, slots, counts["shift"])
            err = max(np.min(np.abs(e - ref)) for e in ev) / (np.abs(a).sum(0).max() * EPS)
            worst[b] = max(worst[b], err)
    for b, t in totals.items():
        s = t / count
        print(f"n = {n}, {b} bulge(s) per sweep: sweeps {s[0]:.1f}, chase steps {s[1]:.0f}, "
              f"serial slots {s[2]:.0f}, shift steps {s[3]:.0f}, worst eigenvalue error {worst[b]:.1f} ||A||_1 u")


if __name__ == "__main__":
    main()
