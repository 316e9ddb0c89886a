# Session 95: a model of the chase steps of the double n = 30 eigenvalue QR
# (numpy / scipy; not the library's code). For 40 random 30 x 30 matrices
# (uniform [-1, 1], scipy's Hessenberg form), a plain Francis double-shift
# iteration without vectors records every sweep's active block [l, i] and
# start m; for each chase step kk it counts the loop trips of a team of L
# lanes (L from the stage: 16 while the block ends above row 22, 8 above 14,
# then 4, as the library's QR stages):
#   now:   the pass over the rows (columns kk..i, a items) then the pass
#          over the columns (rows l..min(kk+3, i), b items):
#          ceil(a / L) + ceil(b / L) trips;
#   fused: one pass over both kinds of item except the 3 x 3 block that
#          needs both reflections, then that block's rows:
#          ceil((a + b - 3) / L) + 1 trips.
# With the SASS of the 16-lane launch (geev-chase-step-sass-s95.txt: 84
# instructions per step outside the loops, 18 per trip of the pass over the
# rows, 22 per trip of the pass over the columns) it also prints the
# instructions per step of the current code at L = 16.
import math
import numpy as np
from scipy.linalg import hessenberg

rng = np.random.default_rng(1)


def sweeps(H):
    n = H.shape[0]
    H = H.copy()
    i, its, rec, ulp = n - 1, 0, [], 2.2e-16
    while i >= 1:
        l = 0
        for k in range(i, 0, -1):
            if abs(H[k, k - 1]) <= ulp * (abs(H[k, k]) + abs(H[k - 1, k - 1])):
                l = k
                break
        if l > 0:
            H[l, l - 1] = 0
        if l >= i - 1:
            i, its = l - 1, 0
            continue
        its += 1
        s = H[i - 1, i - 1] + H[i, i]
        t = H[i - 1, i - 1] * H[i, i] - H[i - 1, i] * H[i, i - 1]
        if its % 10 == 0:
            s = 1.5 * abs(H[i, i - 1])
            t = s * s / 4
        m = l
        x = H[m, m] * H[m, m] + H[m, m + 1] * H[m + 1, m] - s * H[m, m] + t
        y = H[m + 1, m] * (H[m, m] + H[m + 1, m + 1] - s)
        z = H[m + 1, m] * H[m + 2, m + 1]
        rec.append((l, i, m))
        for k in range(m, i):
            nr = 3 if k < i - 1 else 2
            if k > m:
                x, y = H[k, k - 1], H[k + 1, k - 1]
                z = H[k + 2, k - 1] if nr == 3 else 0
            v = np.array([x, y, z][:nr])
            al = np.linalg.norm(v)
            if al == 0:
                continue
            v[0] += math.copysign(al, v[0])
            v /= np.linalg.norm(v)
            P = np.eye(nr) - 2 * np.outer(v, v)
            H[k:k + nr, max(l, k - 1):i + 1] = P @ H[k:k + nr, max(l, k - 1):i + 1]
            r = min(k + 3, i)
            H[l:r + 1, k:k + nr] = H[l:r + 1, k:k + nr] @ P
    return rec


def lanes(i):
    return 16 if i >= 22 else 8 if i >= 14 else 4


tot = {}
trials = 40
for _ in range(trials):
    for (l, i, m) in sweeps(hessenberg(rng.uniform(-1, 1, (30, 30)))):
        L = lanes(i)
        for kk in range(m, i):
            a, b = i - kk + 1, min(kk + 3, i) - l + 1
            ta, tb = math.ceil(a / L), math.ceil(b / L)
            fused = math.ceil((a + b - min(3, b)) / L) + 1
            t = tot.setdefault(L, [0, 0, 0, 0, 0])
            t[0] += 1
            t[1] += ta
            t[2] += tb
            t[3] += fused
            t[4] += 84 + 18 * ta + 22 * tb
for L, (s, ta, tb, f, ins) in sorted(tot.items(), reverse=True):
    print(f"L = {L:2d}: {s / trials:6.1f} steps per matrix; trips per step now {(ta + tb) / s:.2f} "
          f"(rows {ta / s:.2f}, columns {tb / s:.2f}), fused {f / s:.2f}"
          + (f"; instructions per step now {ins / s:.0f}, 84 of them outside the loops" if L == 16 else ""))
