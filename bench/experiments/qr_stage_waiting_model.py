#!/usr/bin/env python3
"""Model of what the teams of a warp lose waiting for each other in the
eigenvalue-only QR stages on the band (double n = 30: stages 30 -> 22 with
16 lanes, 22 -> 14 with 8, 14 -> done with 4; 2, 4 and 8 teams per warp).

Each random matrix (uniform in [-1, 1], reduced to Hessenberg form) runs
lahqr_real's one-bulge iteration (hqr_tandem_model.qr, traced); a sweep
costs its chase steps plus C step-times for its deflation search and
shifts. A warp's teams run their sweeps in lockstep, one per loop pass,
so a pass costs the longest of its teams' sweeps. Per stage, printed as
the warps' time over the teams' work (ideal = 0 %):
  - one matrix per team (the grid's teams each take one matrix);
  - a counter (each team takes its next matrix when done with one);
  - the matrices sorted by their true number of sweeps in the stage (an
    oracle) and by a few features of the block at the stage's start (the
    subdiagonal entries, the block's size, the previous stage's sweeps):
    what grouping similar matrices could win.

    python3 bench/experiments/qr_stage_waiting_model.py [count] [C]

Needs NumPy and SciPy. Results: docs/performance.md, "Session 78".
"""
import sys

import numpy as np
import scipy.linalg as sl

import hqr_tandem_model as M

STAGES = [(30, 22, 2), (22, 14, 4), (14, 0, 8)]  # (columns, pause, teams per warp)


def run(h, pauses):
    """Sweeps [(i, l, steps)] of lahqr_real's one-bulge iteration
    (hqr_tandem_model.qr) and, per pause, (h, i, sweeps so far) when the
    block first ends below it."""
    out, snaps = [], {}

    def trace(event, hh, i, l):
        if event == "sweep":
            out.append((i, l, i - l))
            return
        for p in pauses:
            if i < p and p not in snaps:
                snaps[p] = (hh.copy(), i, len(out))

    M.qr(h, 1, {"shift": 0}, trace)
    return out, snaps


def grouped(per, order, teams):
    """Warps of `teams` consecutive matrices of `order`, one matrix per team."""
    cost, usable = 0.0, len(order) - len(order) % teams
    for w in range(0, usable, teams):
        grp = [per[j] for j in order[w:w + teams]]
        passes = max((len(g) for g in grp), default=0)
        cost += sum(max((g[it] if it < len(g) else 0.0) for g in grp) for it in range(passes))
    return cost * len(order) / usable


def counter(per, order, teams):
    """Each team takes its next matrix from a shared counter."""
    queue, cur, cost = list(order), [None] * teams, 0.0
    def take(t):
        cur[t] = list(per[queue.pop(0)]) if queue else None
    for t in range(teams):
        take(t)
    while any(c is not None for c in cur):
        longest = 0.0
        for t in range(teams):
            while cur[t] is not None and not cur[t]:
                take(t)
            if cur[t] is not None:
                longest = max(longest, cur[t].pop(0))
        cost += longest
    return cost


def feature(snap, kind):
    h, i, before = snap
    if kind == "sweeps before the stage":
        return -before
    if i < 1:
        return 0.0
    l = i
    while l > 0 and h[l, l - 1] != 0:
        l -= 1
    sub = np.array([abs(h[k, k - 1]) / (abs(h[k - 1, k - 1]) + abs(h[k, k]) + 1e-300) for k in range(l + 1, i + 1)])
    if kind == "size" or not len(sub):
        return i - l
    logs = np.log(sub + 1e-300)
    return {"sum of log subdiagonals": logs.sum(), "smallest of the last 4": logs[-4:].min(),
            "smallest": logs.min()}[kind]


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    c = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    rng = np.random.default_rng(11)
    data = [run(sl.hessenberg(rng.uniform(-1, 1, (30, 30))), [22, 14]) for _ in range(count)]
    for (m, pause, teams) in STAGES:
        per = [[c + s for (i, l, s) in sq if pause <= i < m] for sq, _ in data]
        ideal = sum(map(sum, per)) / teams
        pct = lambda cost: f"+{100 * (cost / ideal - 1):.1f} %"
        order = list(rng.permutation(count))
        res = {"one matrix per team": pct(grouped(per, order, teams)),
               "counter": pct(counter(per, order, teams)),
               "sorted by sweeps (oracle)": pct(grouped(per, sorted(range(count), key=lambda j: len(per[j])), teams))}
        if m < 30:
            for kind in ["sum of log subdiagonals", "smallest of the last 4", "smallest", "size",
                         "sweeps before the stage"]:
                keys = [feature(sn[m], kind) for _, sn in data]
                res["sorted by " + kind] = pct(grouped(per, sorted(range(count), key=lambda j: keys[j]), teams))
        print(f"stage {m} -> {pause}, {teams} teams per warp: " + "; ".join(f"{k} {v}" for k, v in res.items()))


if __name__ == "__main__":
    main()
