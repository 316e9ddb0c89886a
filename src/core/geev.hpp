// One non-symmetric eigenproblem, as LAPACK's xGEEV: scaling, balancing,
// Hessenberg reduction, QR to Schur form, eigenvectors, back-transformation
// and normalization. Every backend calls this routine (the host backend on
// column-major views, GPU kernels on interleaved or shared-memory views).
#pragma once

#include "batcheig.h"
#include "core/balance.hpp"
#include "core/hessenberg.hpp"
#include "core/hqr.hpp"
#include "core/trevc.hpp"

namespace batcheig::core {

// Scratch of one geev problem: O(n), never n x n (the Schur vectors are
// accumulated in the caller's VL or VR).
template <class T>
struct GeevWork {
    using R = real_t<T>;
    VecView<R> scale;  // n: balancing permutation / scaling
    VecView<T> tau;    // n: Householder factors
    VecView<R> cn;     // n: column norms for the eigenvector solves
    VecView<T> x0;     // n: eigenvector work (real part for real types)
    VecView<T> x1;     // n: imaginary part for real types

    // Bytes of one contiguous GeevWork.
    BATCHEIG_HD static std::size_t bytes(index_t n, bool want_vectors) {
        std::size_t b = std::size_t(n) * (sizeof(R) + sizeof(T));
        if (want_vectors) b += std::size_t(n) * (sizeof(R) + 2 * sizeof(T));
        return b;
    }
    // Lay a GeevWork out over `mem` (T members first: they have the larger alignment).
    BATCHEIG_HD static GeevWork carve(void *mem, index_t n, bool want_vectors) {
        GeevWork w{};
        T *pt = static_cast<T *>(mem);
        w.tau = VecView<T>{pt, 1};
        w.x0 = VecView<T>{want_vectors ? pt + n : nullptr, 1};
        w.x1 = VecView<T>{want_vectors ? pt + 2 * n : nullptr, 1};
        R *pr = reinterpret_cast<R *>(pt + (want_vectors ? 3 * n : n));
        w.scale = VecView<R>{pr, 1};
        w.cn = VecView<R>{want_vectors ? pr + n : nullptr, 1};
        return w;
    }
};

namespace detail {

// Largest |a(i,j)| (the modulus for complex), as xLANGE('M'); NaN if any
// entry is NaN, Inf if any is infinite.
template <class M>
BATCHEIG_HD real_t<typename M::value_type> max_abs(index_t n, M a) {
    using R = real_t<typename M::value_type>;
    R m = R(0);
    bool bad = false;
    for (index_t j = 0; j < n; ++j)
        for (index_t i = 0; i < n; ++i) {
            R v = cabs(a(i, j));
            if (!(v <= m)) {  // also true for NaN
                if (v != v) bad = true;
                else m = v;
            }
        }
    return bad ? R(NAN) : m;
}

template <class M>
BATCHEIG_HD void fill(index_t n, M a, typename M::value_type v) {
    for (index_t j = 0; j < n; ++j)
        for (index_t i = 0; i < n; ++i) a(i, j) = v;
}

// Normalize real eigenvectors as xGEEV: unit 2-norm, and for a complex pair
// the component of largest modulus made real.
template <class M, class V>
BATCHEIG_HD void normalize_real(index_t n, M v, V wi) {
    using R = typename M::value_type;
    for (index_t i = 0; i < n; ++i) {
        if (wi[i] == R(0)) {
            scal(n, R(1) / nrm2(n, v.col(i)), v.col(i));
        } else if (wi[i] > R(0)) {
            const R scl = R(1) / lapy2(nrm2(n, v.col(i)), nrm2(n, v.col(i + 1)));
            scal(n, scl, v.col(i));
            scal(n, scl, v.col(i + 1));
            index_t k = 0;
            R best = R(-1);
            for (index_t r = 0; r < n; ++r) {
                R m = v(r, i) * v(r, i) + v(r, i + 1) * v(r, i + 1);
                if (m > best) {
                    best = m;
                    k = r;
                }
            }
            R cs, sn, rr;
            lartg(v(k, i), v(k, i + 1), cs, sn, rr);
            rot(n, v.col(i), v.col(i + 1), cs, sn);
            v(k, i + 1) = R(0);
        }
    }
}

// Normalize complex eigenvectors as xGEEV: unit 2-norm, largest component real.
template <class M>
BATCHEIG_HD void normalize_complex(index_t n, M v) {
    using T = typename M::value_type;
    using R = real_t<T>;
    for (index_t i = 0; i < n; ++i) {
        scal(n, R(1) / nrm2(n, v.col(i)), v.col(i));
        index_t k = 0;
        R best = R(-1);
        for (index_t r = 0; r < n; ++r) {
            R m = real(v(r, i)) * real(v(r, i)) + imag(v(r, i)) * imag(v(r, i));
            if (m > best) {
                best = m;
                k = r;
            }
        }
        T tmp = conj(v(k, i)) / rsqrt_(best);
        scal(n, tmp, v.col(i));
        v(k, i) = T(real(v(k, i)));
    }
}

}  // namespace detail

// Eigen-decomposition of one n x n matrix a (overwritten). Real T: the
// eigenvalues go to (w, wi), LAPACK-packed real eigenvectors to vl / vr;
// complex T: eigenvalues to w (wi unused). Returns the per-matrix info code:
// 0, k in 1..n (QR did not converge; eigenvalues k..n-1 (0-based) are valid,
// the others and all vectors are NaN), or BATCHEIG_INFO_NONFINITE.
template <class T>
BATCHEIG_HD int geev(bool wantvl, bool wantvr, index_t n, MatView<T> a, VecView<T> w,
                     VecView<real_t<T>> wi, MatView<T> vl, MatView<T> vr, const GeevWork<T> &ws,
                     index_t max_iterations) {
    using R = real_t<T>;
    constexpr bool cplx = is_complex<T>;
    const T nan = make_nan<T>();
    auto fail_all = [&](index_t first_bad_end) {
        // Eigenvalues [0, first_bad_end) and every vector are NaN.
        for (index_t i = 0; i < first_bad_end; ++i) {
            w[i] = nan;
            if constexpr (!cplx) wi[i] = R(NAN);
        }
        if (wantvl) detail::fill(n, vl, nan);
        if (wantvr) detail::fill(n, vr, nan);
    };

    // Scale a if its largest entry is outside [smlnum, bignum].
    const R anrm = detail::max_abs(n, a);
    if (!is_finite(anrm)) {
        fail_all(n);
        return BATCHEIG_INFO_NONFINITE;
    }
    const R smlnum = rsqrt_(limits<R>::safmin()) / limits<R>::ulp();
    const R bignum = R(1) / smlnum;
    bool scalea = false;
    R cscale = R(1);
    if (anrm > R(0) && anrm < smlnum) {
        scalea = true;
        cscale = smlnum;
    } else if (anrm > bignum) {
        scalea = true;
        cscale = bignum;
    }
    if (scalea) lascl(anrm, cscale, n, n, a);

    index_t ilo, ihi;
    gebal(n, a, ilo, ihi, ws.scale);
    gehd2(n, ilo, ihi, a, ws.tau);

    const bool wantv = wantvl || wantvr;
    MatView<T> z = wantvl ? vl : vr;  // where the Schur vectors are accumulated
    if (wantv) orghr(n, ilo, ihi, a, ws.tau, z);

    // Eigenvalues of the rows that balancing isolated.
    for (index_t i = 0; i < n; ++i) {
        if (i < ilo || i > ihi) {
            w[i] = a(i, i);
            if constexpr (!cplx) wi[i] = R(0);
        }
    }
    index_t info;
    if constexpr (cplx) info = lahqr_complex(wantv, wantv, n, ilo, ihi, a, w, ilo, ihi, z, max_iterations);
    else info = lahqr_real(wantv, wantv, n, ilo, ihi, a, w, wi, ilo, ihi, z, max_iterations);

    if (info == 0 && wantv) {
        if (wantvl && wantvr) {
            for (index_t j = 0; j < n; ++j)
                for (index_t i = 0; i < n; ++i) vr(i, j) = vl(i, j);
        }
        if constexpr (cplx) trevc_complex(wantvr, wantvl, n, a, vl, vr, ws.cn, ws.x0);
        else trevc_real(wantvr, wantvl, n, a, vl, vr, ws.cn, ws.x0, ws.x1);
        if (wantvl) {
            gebak(false, n, ilo, ihi, ws.scale, n, vl);
            if constexpr (cplx) detail::normalize_complex(n, vl);
            else detail::normalize_real(n, vl, wi);
        }
        if (wantvr) {
            gebak(true, n, ilo, ihi, ws.scale, n, vr);
            if constexpr (cplx) detail::normalize_complex(n, vr);
            else detail::normalize_real(n, vr, wi);
        }
    }

    // Undo the scaling of the eigenvalues that are valid.
    if (scalea) {
        lascl_vec(cscale, anrm, n - info, VecView<T>{&w[info], w.inc});
        if constexpr (!cplx) lascl_vec(cscale, anrm, n - info, VecView<R>{&wi[info], wi.inc});
    }
    if (info > 0) fail_all(info);
    return static_cast<int>(info);
}

}  // namespace batcheig::core
