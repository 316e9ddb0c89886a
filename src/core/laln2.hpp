// Solution of a 1x1 or 2x2 real system (A - w I) X = s B or (A^T - w I) X = s B
// with w real or complex, perturbed to keep the pivots away from zero and
// scaled (s <= 1) so that X cannot overflow: LAPACK's xLALN2 for the case
// ca = 1, D = I used by the eigenvector back-substitution.
#pragma once

#include "core/blas.hpp"

namespace batcheig::core {

namespace detail {
// Complex division (a + ib) / (c + id) into (p, q), robust as xLADIV.
template <class R>
BATCHEIG_HD void ladiv(R a, R b, R c, R d, R &p, R &q) {
    complex<R> r = complex<R>(a, b) / complex<R>(c, d);
    p = r.re;
    q = r.im;
}
}  // namespace detail

// c[i] of the four values c0..c3 for i in 0..3, without indexing an array.
template <class R>
BATCHEIG_HD R pick4(R c0, R c1, R c2, R c3, int i) {
    const R lo = (i & 1) ? c1 : c0, hi = (i & 1) ? c3 : c2;
    return (i & 2) ? hi : lo;
}

// a: the 2x2 (or 1x1) block, addressed a(i, j). b, x: column-major 2 x nw
// arrays (b[0], b[1] real parts; b[2], b[3] imaginary parts). nw = 1: w = wr
// real; nw = 2: w = wr + i wi. Returns the scale s in `scale` and the
// max-norm of X in `xnorm`.
template <class M, class R>
BATCHEIG_HD void laln2(bool ltrans, int na, int nw, R smin, M a, const R *b, R wr, R wi, R *x,
                       R &scale, R &xnorm) {
    // Pivot tables of xLALN2 (0-based), as arithmetic: for the position
    // icmax of the largest element, the other three after complete
    // pivoting are icmax ^ 1, ^ 2, ^ 3 (IPIVOT), the solution's entries
    // swap for icmax >= 2 (ZSWAP) and the right-hand side's for odd icmax
    // (RSWAP). The entries are taken by pick4, not by indexing: an array
    // indexed by a runtime position lives in local memory on the GPU, and
    // the eigenvector launch waited on those loads.
    const R smlnum = R(2) * limits<R>::safmin();
    const R bignum = R(1) / smlnum;
    const R smini = rmax(smin, smlnum);
    scale = R(1);

    if (na == 1) {
        if (nw == 1) {
            R csr = a(0, 0) - wr;
            R cnorm = rabs(csr);
            if (cnorm < smini) {
                csr = smini;
                cnorm = smini;
            }
            R bnorm = rabs(b[0]);
            if (cnorm < R(1) && bnorm > R(1) && bnorm > bignum * cnorm) scale = R(1) / bnorm;
            x[0] = (b[0] * scale) / csr;
            xnorm = rabs(x[0]);
        } else {
            R csr = a(0, 0) - wr, csi = -wi;
            R cnorm = rabs(csr) + rabs(csi);
            if (cnorm < smini) {
                csr = smini;
                csi = R(0);
                cnorm = smini;
            }
            R bnorm = rabs(b[0]) + rabs(b[2]);
            if (cnorm < R(1) && bnorm > R(1) && bnorm > bignum * cnorm) scale = R(1) / bnorm;
            detail::ladiv(scale * b[0], scale * b[2], csr, csi, x[0], x[2]);
            xnorm = rabs(x[0]) + rabs(x[2]);
        }
        return;
    }

    // 2x2: real part of C = A - w I (or A^T - w I), column-major in crv.
    R crv[4];
    crv[0] = a(0, 0) - wr;
    crv[3] = a(1, 1) - wr;
    if (ltrans) {
        crv[2] = a(1, 0);
        crv[1] = a(0, 1);
    } else {
        crv[1] = a(1, 0);
        crv[2] = a(0, 1);
    }
    auto c = [&](int i) { return pick4(crv[0], crv[1], crv[2], crv[3], i); };
    if (nw == 1) {
        // Real 2x2 system: Gaussian elimination with complete pivoting.
        R cmax = R(0);
        int icmax = -1;
        for (int j = 0; j < 4; ++j) {
            if (rabs(crv[j]) > cmax) {
                cmax = rabs(crv[j]);
                icmax = j;
            }
        }
        if (cmax < smini) {
            // Use smini * I.
            R bnorm = rmax(rabs(b[0]), rabs(b[1]));
            if (smini < R(1) && bnorm > R(1) && bnorm > bignum * smini) scale = R(1) / bnorm;
            R temp = scale / smini;
            x[0] = temp * b[0];
            x[1] = temp * b[1];
            xnorm = temp * bnorm;
            return;
        }
        R ur11 = c(icmax);
        R cr21 = c(icmax ^ 1);
        R ur12 = c(icmax ^ 2);
        R cr22 = c(icmax ^ 3);
        R ur11r = R(1) / ur11;
        R lr21 = ur11r * cr21;
        R ur22 = cr22 - ur12 * lr21;
        if (rabs(ur22) < smini) ur22 = smini;
        R br1, br2;
        if (icmax & 1) {
            br1 = b[1];
            br2 = b[0];
        } else {
            br1 = b[0];
            br2 = b[1];
        }
        br2 = br2 - lr21 * br1;
        R bbnd = rmax(rabs(br1 * (ur22 * ur11r)), rabs(br2));
        if (bbnd > R(1) && rabs(ur22) < R(1) && bbnd >= bignum * rabs(ur22)) scale = R(1) / bbnd;
        R xr2 = (br2 * scale) / ur22;
        R xr1 = (scale * br1) * ur11r - xr2 * (ur11r * ur12);
        if (icmax >= 2) {
            x[0] = xr2;
            x[1] = xr1;
        } else {
            x[0] = xr1;
            x[1] = xr2;
        }
        xnorm = rmax(rabs(xr1), rabs(xr2));
        // Further scaling if norm(A) norm(X) > overflow.
        if (xnorm > R(1) && cmax > R(1) && xnorm > bignum / cmax) {
            R temp = cmax / bignum;
            x[0] *= temp;
            x[1] *= temp;
            xnorm *= temp;
            scale *= temp;
        }
        return;
    }

    // Complex 2x2 system.
    R civ[4] = {-wi, R(0), R(0), -wi};
    R cmax = R(0);
    int icmax = -1;
    for (int j = 0; j < 4; ++j) {
        if (rabs(crv[j]) + rabs(civ[j]) > cmax) {
            cmax = rabs(crv[j]) + rabs(civ[j]);
            icmax = j;
        }
    }
    if (cmax < smini) {
        R bnorm = rmax(rabs(b[0]) + rabs(b[2]), rabs(b[1]) + rabs(b[3]));
        if (smini < R(1) && bnorm > R(1) && bnorm > bignum * smini) scale = R(1) / bnorm;
        R temp = scale / smini;
        for (int j = 0; j < 4; ++j) x[j] = temp * b[j];
        xnorm = temp * bnorm;
        return;
    }
    auto ci = [&](int i) { return pick4(civ[0], civ[1], civ[2], civ[3], i); };
    R ur11 = c(icmax), ui11 = ci(icmax);
    R cr21 = c(icmax ^ 1), ci21 = ci(icmax ^ 1);
    R ur12 = c(icmax ^ 2), ui12 = ci(icmax ^ 2);
    R cr22 = c(icmax ^ 3), ci22 = ci(icmax ^ 3);
    R ur11r, ui11r, lr21, li21, ur12s, ui12s, ur22, ui22;
    if (icmax == 0 || icmax == 3) {
        // Off-diagonals of the pivoted C are real.
        if (rabs(ur11) > rabs(ui11)) {
            R temp = ui11 / ur11;
            ur11r = R(1) / (ur11 * (R(1) + temp * temp));
            ui11r = -temp * ur11r;
        } else {
            R temp = ur11 / ui11;
            ui11r = -R(1) / (ui11 * (R(1) + temp * temp));
            ur11r = -temp * ui11r;
        }
        lr21 = cr21 * ur11r;
        li21 = cr21 * ui11r;
        ur12s = ur12 * ur11r;
        ui12s = ur12 * ui11r;
        ur22 = cr22 - ur12 * lr21;
        ui22 = ci22 - ur12 * li21;
    } else {
        // Diagonals of the pivoted C are real.
        ur11r = R(1) / ur11;
        ui11r = R(0);
        lr21 = cr21 * ur11r;
        li21 = ci21 * ur11r;
        ur12s = ur12 * ur11r;
        ui12s = ui12 * ur11r;
        ur22 = cr22 - ur12 * lr21 + ui12 * li21;
        ui22 = -ur12 * li21 - ui12 * lr21;
    }
    R u22abs = rabs(ur22) + rabs(ui22);
    if (u22abs < smini) {
        ur22 = smini;
        ui22 = R(0);
    }
    R br1, br2, bi1, bi2;
    if (icmax & 1) {
        br2 = b[0];
        br1 = b[1];
        bi2 = b[2];
        bi1 = b[3];
    } else {
        br1 = b[0];
        br2 = b[1];
        bi1 = b[2];
        bi2 = b[3];
    }
    br2 = br2 - lr21 * br1 + li21 * bi1;
    bi2 = bi2 - li21 * br1 - lr21 * bi1;
    R bbnd = rmax((rabs(br1) + rabs(bi1)) * (u22abs * (rabs(ur11r) + rabs(ui11r))), rabs(br2) + rabs(bi2));
    if (bbnd > R(1) && u22abs < R(1) && bbnd >= bignum * u22abs) {
        scale = R(1) / bbnd;
        br1 *= scale;
        bi1 *= scale;
        br2 *= scale;
        bi2 *= scale;
    }
    R xr2, xi2;
    detail::ladiv(br2, bi2, ur22, ui22, xr2, xi2);
    R xr1 = ur11r * br1 - ui11r * bi1 - ur12s * xr2 + ui12s * xi2;
    R xi1 = ui11r * br1 + ur11r * bi1 - ui12s * xr2 - ur12s * xi2;
    if (icmax >= 2) {
        x[0] = xr2;
        x[1] = xr1;
        x[2] = xi2;
        x[3] = xi1;
    } else {
        x[0] = xr1;
        x[1] = xr2;
        x[2] = xi1;
        x[3] = xi2;
    }
    xnorm = rmax(rabs(xr1) + rabs(xi1), rabs(xr2) + rabs(xi2));
    if (xnorm > R(1) && cmax > R(1) && xnorm > bignum / cmax) {
        R temp = cmax / bignum;
        for (int j = 0; j < 4; ++j) x[j] *= temp;
        xnorm *= temp;
        scale *= temp;
    }
}

}  // namespace batcheig::core
