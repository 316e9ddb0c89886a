#!/usr/bin/env python3
"""Model of the real QR iteration (eigenvalues only) with aggressive early
deflation (AED, as LAPACK's xLAQR3) at medium and large n.

Counts, per random n x n matrix (uniform in [-1, 1], reduced to Hessenberg
form), the double-shift sweeps and chase steps of lahqr_real
(src/core/hqr.hpp; the sweep logic of hqr_tandem_model.py), and the same
with a deflation window of w rows at the bottom of every active block of
at least nmin rows, tried before every `every`-th sweep:

- the window's real Schur form T = Z^T W Z (scipy.linalg.schur), whose
  cost is counted as the chase steps that this model's own double-shift QR
  takes on a copy of the window (one window step touches w-wide rows and
  columns of T and Z, so it is cheap beside a sweep's step at large n only
  on a backend that keeps the window close, e.g. in shared memory);
- the spike s Z(0, :), s = h(kw, kw-1), tested from the bottom as xLAQR3
  does (a 1 x 1 or 2 x 2 block whose spike entries are negligible against
  the block deflates; otherwise it is moved to the top of the undeflated
  part by xTREXC, scipy.linalg.lapack.dtrexc, counted as block swaps);
- the undeflated part with its spike back to Hessenberg form (a reflector
  for the spike, then xGEHRD), the window's orthogonal factor applied to
  the rows above the window.

The sweep after a window takes the Francis shifts of the new bottom 2 x 2
(`shifts=francis`), or (`shifts=window`) the pairs of the window's
undeflated eigenvalues nearest its bottom, one pair per sweep until the
next window (xLAQR0 takes them all in one multishift sweep).

Prints, averaged over the matrices: windows, eigenvalues deflated by
windows, sweeps, chase steps (a step's length summed too: the entries a
step updates, its flops / 6), window steps, swaps, and the worst eigenvalue
error against numpy.linalg.eigvals in units of ||A||_1 u.

    /usr/bin/python3 bench/experiments/hqr_aed_model.py N COUNT SPEC[,SPEC...]

SPEC: `plain`, or `w:nmin:every:shifts` (e.g. 16:40:1:francis). Needs NumPy
and SciPy (Debian: python3-numpy python3-scipy) and hqr_tandem_model.py next
to it. Results: docs/performance.md, "Session 89".
"""
import os
import sys

import numpy as np
import scipy.linalg as sl
from scipy.linalg import lapack

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hqr_tandem_model as tm  # noqa: E402


def window_steps(w):
    """Chase steps of this model's double-shift QR on the w x w window (its cost)."""
    c = {"steps": 0, "length": 0, "sweeps": 0}
    plain(sl.hessenberg(w), c)
    return c["steps"]


def blocks_of(t):
    """Start rows of the 1 x 1 and 2 x 2 diagonal blocks of quasi-triangular t."""
    out, j, n = [], 0, t.shape[0]
    while j < n:
        out.append(j)
        j += 2 if j + 1 < n and t[j + 1, j] != 0.0 else 1
    return out


def aed(h, l, i, w, counts):
    """One deflation window on rows kw..i of the active block [l, i].
    Returns the undeflated eigenvalues (bottom first) and the count deflated."""
    kw = i - w + 1
    s = h[kw, kw - 1]
    win = h[kw:i + 1, kw:i + 1].copy()
    counts["wsteps"] += window_steps(win)
    t, z = sl.schur(win, output="real")
    ns = w  # blocks [0, ns) undeflated so far, [ns, w) deflated
    ilst = 0  # where the next undeflatable block goes (0-based)
    while ilst < ns:
        starts = blocks_of(t[:ns, :ns])
        j = starts[-1]
        size = ns - j
        spike = s * z[0, j:ns]
        if size == 1:
            foo = abs(t[j, j]) if t[j, j] != 0 else abs(s)
            ok = abs(spike[0]) <= max(tm.SMLNUM, tm.EPS * foo)
        else:
            foo = abs(t[j + 1, j + 1]) + np.sqrt(abs(t[j + 1, j])) * np.sqrt(abs(t[j, j + 1]))
            if foo == 0:
                foo = abs(s)
            ok = max(abs(spike[0]), abs(spike[1])) <= max(tm.SMLNUM, tm.EPS * foo)
        if ok:
            ns = j
            continue
        if j == ilst:  # already in place: every block above is undeflatable
            break
        t, z, info = lapack.dtrexc(t, z, j + 1, ilst + 1)
        counts["swaps"] += len([b for b in starts if ilst <= b < j])
        ilst += 2 if ilst + 1 < ns and t[ilst + 1, ilst] != 0.0 else 1
    nd = w - ns
    spike = s * z[0, :].copy()
    spike[ns:] = 0.0
    u = z.copy()
    if ns > 1:
        # The spike to beta e1 with a reflector, then the undeflated part to Hessenberg form.
        v, tau = tm.reflector(spike[:ns].copy())
        p = np.eye(ns) - tau * np.outer(v, v)
        t11 = p @ t[:ns, :ns] @ p
        t11h, qg = sl.hessenberg(t11, calc_q=True)
        qh = p @ qg
        t[:ns, :ns] = t11h
        t[:ns, ns:] = qh.T @ t[:ns, ns:]
        u[:, :ns] = z[:, :ns] @ qh
        spike[:ns] = 0.0
        spike[0] = (qh.T @ (s * z[0, :ns]))[0]
    t[np.tril_indices(w, -2)] = 0.0
    h[l:kw, kw:i + 1] = h[l:kw, kw:i + 1] @ u
    h[kw:i + 1, kw:i + 1] = t
    h[kw:i + 1, kw - 1] = spike
    counts["windows"] += 1
    counts["wdefl"] += nd
    ev = np.linalg.eigvals(t[:ns, :ns]) if ns > 0 else np.array([])
    return ev, nd


def plain(h, counts, w=0, nmin=1 << 30, every=1, shifts="francis"):
    """Eigenvalues of Hessenberg h (in place), lahqr's sweeps, with windows when w > 0."""
    n = h.shape[0]
    i, its, ev = n - 1, 0, []
    since, pending = 0, []
    while i >= 0:
        l, top = tm.deflate_bottom(h, i, ev)
        if top < i:
            i, its, pending = top, 0, []
            continue
        if w > 0 and i - l + 1 >= max(nmin, w + 2) and since % every == 0:
            und, nd = aed(h, l, i, w, counts)
            since += 1
            pending = pair_up(und) if shifts == "window" else []
            if nd > 0:
                continue  # deflated at the bottom: the split test takes them next
        else:
            since += 1
        its += 1
        if shifts == "window" and pending and its not in (10, 20):
            pair = pending.pop(0)
        else:
            pair = tm.shift_pairs(h, l, i, its, 1, {"shift": 0})[0]
        counts["sweeps"] += 1
        tm.sweep(h, l, i, pair, counts)
        if its > 30 * max(10, n):
            raise RuntimeError("no convergence")
    return np.array(ev)


def pair_up(ev):
    """Shift pairs from eigenvalues listed top to bottom: bottom pairs first."""
    pairs, real = [], []
    for c in ev[::-1]:
        if c.imag > 0:
            pairs.append((c, np.conj(c)))
        elif c.imag == 0:
            real.append(complex(c.real))
    while len(real) >= 2:
        pairs.append((real.pop(0), real.pop(0)))
    return pairs


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    specs = sys.argv[3] if len(sys.argv) > 3 else "plain,16:40:1:francis"
    mats = tm.random_matrices(n, count)
    for spec in specs.split(","):
        keys = ("windows", "wdefl", "sweeps", "steps", "length", "wsteps", "swaps")
        tot = dict.fromkeys(keys, 0.0)
        worst = 0.0
        for a in mats:
            c = dict.fromkeys(keys, 0)
            if spec == "plain":
                ev = plain(sl.hessenberg(a), c)
            else:
                w, nmin, every, shifts = spec.split(":")
                ev = plain(sl.hessenberg(a), c, int(w), int(nmin), int(every), shifts)
            for k in keys:
                tot[k] += c[k]
            worst = max(worst, tm.eig_error(a, ev))
        avg = {k: v / count for k, v in tot.items()}
        print(f"n = {n}, {spec}: windows {avg['windows']:.1f} (deflating {avg['wdefl']:.1f}), "
              f"sweeps {avg['sweeps']:.1f}, chase steps {avg['steps']:.0f} (length {avg['length']:.0f}), "
              f"window steps {avg['wsteps']:.0f}, swaps {avg['swaps']:.0f}, worst error {worst:.1f} ||A||_1 u",
              flush=True)


if __name__ == "__main__":
    main()
