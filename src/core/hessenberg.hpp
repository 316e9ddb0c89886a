// Householder reduction to upper Hessenberg form (xGEHD2) and the explicit
// orthogonal/unitary factor (xORGHR / xUNGHR), for any team (core/team.hpp).
#pragma once

#include <type_traits>

#include "core/blas.hpp"

namespace batcheig::core {

// True when gehd2 run by a Team on entries of type T takes the two-sided
// form (given its scratch): teams that say so (core::team_two_sided), real types.
// (In complex double the GPU's reduction launch spilled with it and was
// 1-2 % slower.)
template <class Team, class T>
inline constexpr bool two_sided_gehd2 = team_two_sided<Team> && !is_complex<T>;

namespace detail {
// The general loops of gehd2 and orghr in chunks of kHessChunk entries:
// each chunk's entries are loaded before any of them is stored. A
// compiler cannot move a load of the matrix above a store to it, so the
// plain loop `x_k -= s v_k` keeps one load in flight per member, a full
// memory latency per entry where the matrix is in global memory (the
// CUDA global variant beyond shared memory: at double n = 200 the
// reduction took three quarters of the whole in-place call; H200,
// docs/performance.md, session 86). Every entry sees the loop's own
// operations in the loop's order, so the results are bitwise unchanged.
// Only for real matrices in memory that a MatView addresses (global
// memory on the GPU, the host's): in shared memory a load's latency is
// short, and the chunks' registers would cost the small-n launches
// occupancy; in complex double the chunks made the in-place reduction
// spill more and the call 19 % slower (n = 100 and 200, H200, session 86).
inline constexpr index_t kHessChunk = 8;
template <class M>
inline constexpr bool hess_chunked =
    std::is_same_v<M, MatView<typename M::value_type>> && !is_complex<typename M::value_type>;

// Entries k..k+kHessChunk-1 of x and v (px(k), pv(k): their addresses),
// all loaded before the caller stores any.
template <class T, class PX, class PV>
BATCHEIG_HD void hess_load_chunk(index_t k, PX &px, PV &pv, T (&x)[kHessChunk], T (&v)[kHessChunk]) {
    BATCHEIG_UNROLL
    for (index_t u = 0; u < kHessChunk; ++u) {
        x[u] = *px(k + u);
        v[u] = *pv(k + u);
    }
}

// s + sum over k in [1, m) of x_k v_k (ConjV: conj(v_k) x_k), in order;
// px(k), pv(k): the entries' addresses.
template <bool ConjV, bool Chunked, class T, class PX, class PV>
BATCHEIG_HD T hess_dot(T s, index_t m, PX &&px, PV &&pv) {
    index_t k = 1;
    for (; Chunked && k + kHessChunk <= m; k += kHessChunk) {
        T x[kHessChunk], v[kHessChunk];
        hess_load_chunk(k, px, pv, x, v);
        BATCHEIG_UNROLL
        for (index_t u = 0; u < kHessChunk; ++u) {
            if constexpr (ConjV) s += conj(v[u]) * x[u];
            else s += x[u] * v[u];
        }
    }
    for (; k < m; ++k) {
        if constexpr (ConjV) s += conj(*pv(k)) * *px(k);
        else s += *px(k) * *pv(k);
    }
    return s;
}

// The sum over k in [k0, k1] of conj(x_k) y_k, in order, from zero;
// px(k), py(k): the entries' addresses (gehrd_panels' serial products
// V^H v_j and T^H w).
template <class T, class PX, class PY>
BATCHEIG_HD T conj_dot(index_t k0, index_t k1, PX &&px, PY &&py) {
    T s = T(0);
    for (index_t k = k0; k <= k1; ++k) s += conj(*px(k)) * *py(k);
    return s;
}

// x_k -= s v_k (ConjV: s conj(v_k)) for k in [1, m).
template <bool ConjV, bool Chunked, class T, class PX, class PV>
BATCHEIG_HD void hess_sub_scaled(index_t m, T s, PX &&px, PV &&pv) {
    index_t k = 1;
    for (; Chunked && k + kHessChunk <= m; k += kHessChunk) {
        T x[kHessChunk], v[kHessChunk];
        hess_load_chunk(k, px, pv, x, v);
        BATCHEIG_UNROLL
        for (index_t u = 0; u < kHessChunk; ++u) {
            if constexpr (ConjV) x[u] -= s * conj(v[u]);
            else x[u] -= s * v[u];
            *px(k + u) = x[u];
        }
    }
    for (; k < m; ++k) {
        if constexpr (ConjV) *px(k) -= s * conj(*pv(k));
        else *px(k) -= s * *pv(k);
    }
}

// The blocked loops of a team_cpu_blocked team (core/team.hpp): the
// reflector products of kCpuBlock<T> rows or columns run together. Each
// entry sees the operations of the plain loops (hess_dot, hess_sub_scaled)
// in their order, so the results are bitwise theirs; the block's dot
// products are independent chains, where the plain loop waits on one
// addition per entry. Unit element stride (the host's MatView).

// Rows r in [r0, r_end) of the columns x0, x0 + ld, ..., x0 + (m-1) ld
// (x(r, k) = x0[r + k ld]), r_end the last block's end at or below r1 + 1:
// s = x(r, 0) + sum over k in [1, m) of x(r, k) v_k, in order; s = s t;
// x(r, 0) -= s; x(r, k) -= s conj(v_k). gehd2's right update (pv(k): the
// address of v_k); returns r_end, where the plain loop goes on.
template <class T, class PV>
BATCHEIG_HD index_t reflect_rows_blocked(T *x0, std::int64_t ld, index_t r0, index_t r1, index_t m, T t, PV &&pv) {
    constexpr index_t B = kCpuBlock<T>;
    index_t r = r0;
    for (; r + B - 1 <= r1; r += B) {
        T s[B];
        for (index_t u = 0; u < B; ++u) s[u] = x0[r + u];
        for (index_t k = 1; k < m; ++k) {
            const T vk = *pv(k);
            const T *xk = x0 + k * ld + r;
            for (index_t u = 0; u < B; ++u) s[u] += xk[u] * vk;
        }
        for (index_t u = 0; u < B; ++u) {
            s[u] = s[u] * t;
            x0[r + u] -= s[u];
        }
        for (index_t k = 1; k < m; ++k) {
            const T cv = conj(*pv(k));
            T *xk = x0 + k * ld + r;
            for (index_t u = 0; u < B; ++u) xk[u] -= s[u] * cv;
        }
    }
    return r;
}

// Columns c in [c0, c_end) of rows y0, y0 + 1, ..., y0 + m - 1
// (x_c(k) = y0[k + c ld]), c_end the last block's end at or below c1 + 1:
// s = x_c(0) + sum over k in [1, m) of conj(v_k) x_c(k), in order;
// s = s f; x_c(0) -= s; x_c(k) -= s v_k. gehd2's left update
// (f = conj(t)) and orghr's (f = t); returns c_end.
template <class T, class PV>
BATCHEIG_HD index_t reflect_cols_blocked(T *y0, std::int64_t ld, index_t c0, index_t c1, index_t m, T f, PV &&pv) {
    constexpr index_t B = kCpuBlock<T>;
    index_t c = c0;
    for (; c + B - 1 <= c1; c += B) {
        T *x[B];
        T s[B];
        for (index_t u = 0; u < B; ++u) {
            x[u] = y0 + (c + u) * ld;
            s[u] = x[u][0];
        }
        for (index_t k = 1; k < m; ++k) {
            const T cv = conj(*pv(k));
            for (index_t u = 0; u < B; ++u) s[u] += cv * x[u][k];
        }
        for (index_t u = 0; u < B; ++u) {
            s[u] = s[u] * f;
            x[u][0] -= s[u];
            for (index_t k = 1; k < m; ++k) x[u][k] -= s[u] * *pv(k);
        }
    }
    return c;
}

// Reflector i of gehd2, which annihilates a(i+2:ihi, i): v = (1, a(i+2:ihi,
// i)) with v's tail scaled in place, t its factor, beta in alpha.
template <class Team, class M, class T>
BATCHEIG_HD void gehd2_reflector(const Team &tm, index_t n, index_t ihi, index_t i, M a, T &alpha, T &t) {
    alpha = a(i + 1, i);
    VecView<T> x{&a(i + 2 < n ? i + 2 : n - 1, i), a.es};
    team_larfg(tm, ihi - i, alpha, x, t);
}

// gehd2 for a team: H = I - t v v^H applied from both sides in two passes
// over the rows and columns it changes, where the right update then the
// left one take four (each a pass for its dot products and one for the
// update). From the entries before the step:
//   y = A(0:ihi, i+1:ihi) v          (member l: row l)
//   z^H = v^H A(i+1:ihi, i+1:n-1)    (member l: column l)
//   beta = v^H y(i+1:ihi)
// then every entry once:
//   A(r, c) -= (conj(t) v_r) z_c + (t y_r - |t|^2 beta v_r) conj(v_c)
// with v_r = 0 above row i+1 and v_c = 0 right of column ihi. This is
// (I - t v v^H)^H (A (I - t v v^H)) in another order of rounding. One loop
// reads row l and column l of A for both dot products (a member owns both
// the row and the column of its index), against the pair of dot-product
// passes of the two one-sided updates. hd: z in hd[0, n), y in hd[n, 2n)
// (row r's y is read back by the member that wrote it).
template <class Team, class M, class V>
BATCHEIG_HD void gehd2_team(const Team &tm, index_t n, index_t ilo, index_t ihi, M a, V tau,
                            VecView<typename M::value_type> hd) {
    using T = typename M::value_type;
    for (index_t i = tm.first(0); i < n; i += tm.size()) tau[i] = T(0);
    tm.sync();
    for (index_t i = ilo; i < ihi - 1; ++i) {
        T alpha, t;
        gehd2_reflector(tm, n, ihi, i, a, alpha, t);
        // Dot products: row l (l <= ihi) and column l (l > i) of the
        // entries before the step. Every member runs the whole loop for
        // each of its indices (reads stay inside the matrix); only what
        // the ranges admit is kept.
        T part = T(0);
        for (index_t l = tm.first(0); l < n; l += tm.size()) {
            T y = a(l, i + 1), z = a(i + 1, l);
            for (index_t k = i + 2; k <= ihi; ++k) {
                const T vk = a(k, i);
                y += a(l, k) * vk;
                z += conj(vk) * a(k, l);
            }
            if (l > i) hd[l] = z;
            if (l <= ihi) {
                hd[n + l] = y;
                if (l > i) part += conj(l == i + 1 ? T(1) : a(l, i)) * y;
            }
        }
        // beta; the reduction also orders the stores of z for every member.
        const T beta = team_sum(tm, part);
        const T tc = conj(t), tt = tc * t;
        // The update: row r over columns i+1..ihi (and on to n-1 from row
        // i+1 on, where v_r is nonzero).
        for (index_t r = tm.first(0); r <= ihi; r += tm.size()) {
            const T vr = r > i + 1 ? a(r, i) : (r == i + 1 ? T(1) : T(0));
            const T vt = vr * tc;
            const T yt = t * hd[n + r] - tt * beta * vr;
            a(r, i + 1) -= vt * hd[i + 1] + yt;
            for (index_t c = i + 2; c <= ihi; ++c) a(r, c) -= vt * hd[c] + yt * conj(a(c, i));
            if (r > i)
                for (index_t c = ihi + 1; c < n; ++c) a(r, c) -= vt * hd[c];
        }
        if (tm.leader()) {
            tau[i] = t;
            a(i + 1, i) = alpha;
        }
        tm.sync();
    }
}

// The fixed-length step's arithmetic (below) with its roundings pinned on
// the GPU: each multiply-add one fma, the product s t and the difference
// x - s rounded apart, so that the step's results cannot depend on which
// kernel inlines it (the eigenvalues with and without vectors must agree
// bitwise). These are the roundings that the device compiler chose for
// gehd2's general loops: on an H200 both forms gave the same bits
// (docs/performance.md, session 67). The host does not contract; there
// these are the plain expressions of gehd2's loops.
template <class T>
BATCHEIG_HD T gehd2_madd(T a, T b, T c) {
#if defined(__CUDA_ARCH__)
    if constexpr (!is_complex<T>) return fma(a, b, c);
#endif
    return a * b + c;
}
template <class T>
BATCHEIG_HD T gehd2_mul(T a, T b) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, double>) return __dmul_rn(a, b);
    if constexpr (std::is_same_v<T, float>) return __fmul_rn(a, b);
#endif
    return a * b;
}
template <class T>
BATCHEIG_HD T gehd2_sub(T a, T b) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, double>) return __dsub_rn(a, b);
    if constexpr (std::is_same_v<T, float>) return __fsub_rn(a, b);
#endif
    return a - b;
}

// gehd2's one-sided step i for a reflector v = (1, a(i+2:ihi, i)) of
// compile-time length M = ihi - i (team_gehd2_register_len): each row
// (from the right) or column (from the left) that a member updates is
// held in an array, so that every entry is loaded and stored once; v's
// entries are read from the matrix where they are used. The same
// operations in the same order as the loops in gehd2 (on the host the
// same results; on the GPU the roundings are pinned: gehd2_madd).
template <index_t M, class Team, class Mx>
BATCHEIG_HD void gehd2_step_fixed(const Team &tm, index_t n, index_t ihi, index_t i, Mx a,
                                  typename Mx::value_type t) {
    using T = typename Mx::value_type;
    // v_k = a(i+1+k, i), k >= 1, read where used (the same entry for
    // every member: a broadcast in shared memory).
    const auto v = a.col(i);
    // Right: A(0:ihi, i+1:ihi) = A (I - t v v^H), one row per member.
    BATCHEIG_NO_UNROLL
    for (index_t r = tm.first(0); r <= ihi; r += tm.size()) {
        T x[M];
        BATCHEIG_UNROLL
        for (index_t k = 0; k < M; ++k) x[k] = a(r, i + 1 + k);
        T s = x[0];
        BATCHEIG_UNROLL
        for (index_t k = 1; k < M; ++k) s = gehd2_madd(x[k], v[i + 1 + k], s);
        s = gehd2_mul(s, t);
        a(r, i + 1) = gehd2_sub(x[0], s);
        BATCHEIG_UNROLL
        for (index_t k = 1; k < M; ++k) a(r, i + 1 + k) = gehd2_madd(-s, conj(v[i + 1 + k]), x[k]);
    }
    tm.sync();
    // Left: A(i+1:ihi, i+1:n) = (I - t v v^H)^H A, one column per member.
    const T tc = conj(t);
    BATCHEIG_NO_UNROLL
    for (index_t c = tm.first(i + 1); c < n; c += tm.size()) {
        T x[M];
        BATCHEIG_UNROLL
        for (index_t k = 0; k < M; ++k) x[k] = a(i + 1 + k, c);
        T s = x[0];
        BATCHEIG_UNROLL
        for (index_t k = 1; k < M; ++k) s = gehd2_madd(conj(v[i + 1 + k]), x[k], s);
        s = gehd2_mul(s, tc);
        a(i + 1, c) = gehd2_sub(x[0], s);
        BATCHEIG_UNROLL
        for (index_t k = 1; k < M; ++k) a(i + 1 + k, c) = gehd2_madd(-s, v[i + 1 + k], x[k]);
    }
}

// f(std::integral_constant<index_t, m>{}) for m in [Lo, Hi], by a binary
// search over the compile-time lengths (a few uniform branches).
template <index_t Lo, index_t Hi, class F>
BATCHEIG_HD void with_fixed_length(index_t m, F &&f) {
    if constexpr (Lo == Hi) {
        f(std::integral_constant<index_t, Lo>{});
    } else {
        constexpr index_t mid = (Lo + Hi) / 2;
        if (m <= mid) with_fixed_length<Lo, mid>(m, f);
        else with_fixed_length<mid + 1, Hi>(m, f);
    }
}
}  // namespace detail

// A = Q H Q^H with Q = H(ilo) H(ilo+1) ... H(ihi-2). Reflector i is stored
// below the subdiagonal of column i, its scalar factor in tau[i]. Only the
// block [ilo, ihi] is reduced (the rest is already triangular after gebal).
// The leading 1 of each reflector is implicit (never stored in a), so the
// updates need no write to the reflector's column.
//
// Where two_sided_gehd2<Team, T> holds, given scratch hd of 2n entries
// (GeevWork::hd), each reflector is applied from both sides at once
// (detail::gehd2_team above); otherwise from the right, then from the
// left, as in xGEHD2.
template <class Team, class M, class V>
BATCHEIG_HD void gehd2(const Team &tm, index_t n, index_t ilo, index_t ihi, M a, V tau,
                       VecView<typename M::value_type> hd = {nullptr, 1}) {
    using T = typename M::value_type;
    if constexpr (two_sided_gehd2<Team, T>) {
        if (hd.p != nullptr) {
            detail::gehd2_team(tm, n, ilo, ihi, a, tau, hd);
            return;
        }
    }
    for (index_t i = tm.first(0); i < n; i += tm.size()) tau[i] = T(0);
    tm.sync();
    constexpr index_t fixed_max = team_gehd2_register_len<Team, T>;
    for (index_t i = ilo; i < ihi - 1; ++i) {
        T alpha, t;
        detail::gehd2_reflector(tm, n, ihi, i, a, alpha, t);
        const index_t m = ihi - i;  // length of v = (1, a(i+2:ihi, i))
        if constexpr (fixed_max >= 2) {
            if (m <= fixed_max) {
                detail::with_fixed_length<2, fixed_max>(
                    m, [&](auto len) { detail::gehd2_step_fixed<decltype(len)::value>(tm, n, ihi, i, a, t); });
                if (tm.leader()) {
                    tau[i] = t;
                    a(i + 1, i) = alpha;
                }
                tm.sync();
                continue;
            }
        }
        // v_k = a(i+1+k, i), k >= 1.
        auto pv = [&](index_t k) { return &a(i + 1 + k, i); };
        // A team_cpu_blocked team takes whole blocks of rows (columns)
        // first; the plain loops do the rest.
        constexpr bool blocked = team_cpu_blocked<Team>;
        // Right: A(0:ihi, i+1:ihi) = A (I - t v v^H), one row per member.
        index_t r0 = 0;
        if constexpr (blocked) r0 = a.es == 1 ? detail::reflect_rows_blocked(&a(0, i + 1), a.ld, 0, ihi, m, t, pv) : 0;
        for (index_t r = tm.first(r0); r <= ihi; r += tm.size()) {
            auto px = [&](index_t k) { return &a(r, i + 1 + k); };
            T s = detail::hess_dot<false, detail::hess_chunked<M>>(a(r, i + 1), m, px, pv);
            s = s * t;
            a(r, i + 1) -= s;
            detail::hess_sub_scaled<true, detail::hess_chunked<M>>(m, s, px, pv);
        }
        tm.sync();
        // Left: A(i+1:ihi, i+1:n) = (I - t v v^H)^H A, one column per member.
        const T tc = conj(t);
        index_t c0 = i + 1;
        if constexpr (blocked)
            c0 = a.es == 1 ? detail::reflect_cols_blocked(&a(i + 1, 0), a.ld, i + 1, n - 1, m, tc, pv) : c0;
        for (index_t c = tm.first(c0); c < n; c += tm.size()) {
            auto px = [&](index_t k) { return &a(i + 1 + k, c); };
            T s = detail::hess_dot<true, detail::hess_chunked<M>>(a(i + 1, c), m, px, pv);
            s = s * tc;
            a(i + 1, c) -= s;
            detail::hess_sub_scaled<false, detail::hess_chunked<M>>(m, s, px, pv);
        }
        if (tm.leader()) {
            tau[i] = t;
            a(i + 1, i) = alpha;
        }
        tm.sync();
    }
}

// Scratch of gehrd_panels for panels of nb reflectors: their vectors V
// (nb columns of ld entries, v_l's implicit 1 and the zeros above it
// stored), the products Y = A V T (nb columns of ld entries), the
// triangular factor T (nb x nb, I - V T V^H = H_0 H_1 ... H_{nb-1}) and
// two vectors of nb entries. The CUDA global variant keeps it in shared
// memory; nb < 2 (the default) means gehd2.
// The most reflectors per panel: the trailing updates hold a row of Y or
// a column's V^H x in registers, kGehrdMaxPanel<T> entries (fewer for the
// complex types, whose GPU kernel keeps 64 registers: see
// plan::tuning::cuda_geev_global_min_blocks).
template <class T>
inline constexpr index_t kGehrdMaxPanel = !is_complex<T> ? 16 : (sizeof(real_t<T>) == 4 ? 8 : 4);
template <class T>
struct GehrdPanel {
    T *mem = nullptr;
    index_t nb = 0;  // reflectors per panel, at most kGehrdMaxPanel<T>
    index_t ld = 0;  // n rounded up to odd (distinct banks across l for fixed k)

    BATCHEIG_HD static index_t leading(index_t n) { return n | 1; }
    BATCHEIG_HD static std::size_t elements(index_t n, index_t nb) {
        return std::size_t(2 * nb * leading(n) + nb * nb + 2 * nb);
    }
    BATCHEIG_HD static GehrdPanel carve(T *mem, index_t n, index_t nb) { return GehrdPanel{mem, nb, leading(n)}; }

    BATCHEIG_HD T &v(index_t k, index_t l) const { return mem[k + l * ld]; }
    BATCHEIG_HD T &y(index_t r, index_t l) const { return mem[r + (nb + l) * ld]; }
    BATCHEIG_HD T &t(index_t r, index_t c) const { return mem[2 * nb * ld + r + c * nb]; }
    BATCHEIG_HD T &w(index_t l) const { return mem[2 * nb * ld + nb * nb + l]; }
    BATCHEIG_HD T &w2(index_t l) const { return mem[2 * nb * ld + nb * nb + nb + l]; }
};

// True when geev_reduce takes gehrd_panels (given GeevWork::panel) for a
// team on a matrix of view type M: a team of several members on a matrix
// that a MatView addresses (the CUDA global variant's block on the
// caller's arrays, the tests' OpenMP team). Other kernels never compile it.
template <class Team, class M>
inline constexpr bool gehrd_panels_apply =
    !Team::serial && std::is_same_v<M, MatView<typename M::value_type>>;

// The blocked Householder reduction to Hessenberg form (xGEHRD with
// xLAHR2's panels): the same reflectors as gehd2 up to rounding, stored
// the same way (v_i below the subdiagonal of column i, tau[i]). Each panel
// of nb columns i..i+nb-1 forms its reflectors one column at a time from
// the matrix as it was at the panel's start: column i+j first gets the
// right and left updates of reflectors 0..j-1 (A - Y V^H, then
// I - V T^H V^H), then its reflector v_j, then y_j = A v_j - Y u with
// u = V^H v_j, scaled by tau_j, and T's column j. After the panel the
// trailing columns get A <- (I - V T^H V^H)(A - Y V^H) once. So the matrix
// beyond the panel is read twice per reflector (A v_j, one row per member:
// consecutive members read consecutive entries) and updated once per
// panel, where gehd2 reads and writes all of it twice per reflector (its
// left update one column per member). p: the panel scratch (GehrdPanel).
template <class Team, class M, class V>
BATCHEIG_HD void gehrd_panels(const Team &tm, index_t n, index_t ilo, index_t ihi, M a, V tau,
                              GehrdPanel<typename M::value_type> p) {
    using T = typename M::value_type;
    const T zero = T(0), one = T(1);
    const index_t sz = tm.size();
    // Addresses of V's column l, for conj_dot.
    auto vcol = [&p](index_t l) { return [&p, l](index_t k) { return &p.v(k, l); }; };
    for (index_t i = tm.first(0); i < n; i += sz) tau[i] = zero;
    tm.sync();
    for (index_t i = ilo; i < ihi - 1; i += p.nb) {
        const index_t ib = (ihi - 1 - i) < p.nb ? (ihi - 1 - i) : p.nb;
        for (index_t j = 0; j < ib; ++j) {
            const index_t c0 = i + j;
            // Column c0 into V's column j with the right updates of
            // reflectors 0..j-1: a(:, c0) - Y(:, 0:j) V(c0, 0:j)^H.
            for (index_t r = tm.first(0); r <= ihi; r += sz) {
                T x = a(r, c0);
                for (index_t l = 0; l < j; ++l) x -= p.y(r, l) * conj(p.v(c0, l));
                p.v(r, j) = x;
            }
            tm.sync();
            if (j > 0) {
                // Their left updates on rows i+1..ihi: x -= V T^H V^H x.
                for (index_t l = tm.first(0); l < j; l += sz)
                    p.w(l) = detail::conj_dot<T>(i + 1 + l, ihi, vcol(l), vcol(j));
                tm.sync();
                for (index_t l = tm.first(0); l < j; l += sz)
                    p.w2(l) = detail::conj_dot<T>(0, l, [&](index_t m) { return &p.t(m, l); },
                                                  [&](index_t m) { return &p.w(m); });
                tm.sync();
                for (index_t k = tm.first(i + 1); k <= ihi; k += sz) {
                    T x = p.v(k, j);
                    for (index_t l = 0; l < j; ++l) x -= p.v(k, l) * p.w2(l);
                    p.v(k, j) = x;
                }
                tm.sync();
            }
            // Reflector j from rows c0+1..ihi of the column.
            T alpha = p.v(c0 + 1, j), t;
            VecView<T> x{&p.v(c0 + 2 < ihi ? c0 + 2 : ihi, j), 1};
            team_larfg(tm, ihi - c0, alpha, x, t);
            tm.sync();  // every member has read the column's alpha
            // The column back: H's entries to row c0+1, v_j below; V's
            // column j: zeros, the implicit 1, v_j.
            for (index_t r = tm.first(0); r <= ihi; r += sz) {
                const T e = r == c0 + 1 ? alpha : p.v(r, j);
                a(r, c0) = e;
                p.v(r, j) = r <= c0 ? zero : (r == c0 + 1 ? one : e);
            }
            if (tm.leader()) tau[c0] = t;
            tm.sync();
            // y_j = A(0:ihi, c0+1:ihi) v_j, A as at the panel's start (the
            // columns right of c0 are untouched so far), and u = V^H v_j.
            for (index_t r = tm.first(0); r <= ihi; r += sz) {
                auto px = [&](index_t k) { return &a(r, c0 + 1 + k); };
                auto pv = [&](index_t k) { return &p.v(c0 + 1 + k, j); };
                p.y(r, j) = detail::hess_dot<false, detail::hess_chunked<M>>(a(r, c0 + 1), ihi - c0, px, pv);
            }
            for (index_t l = tm.first(0); l < j; l += sz) p.w(l) = detail::conj_dot<T>(c0 + 1, ihi, vcol(l), vcol(j));
            tm.sync();
            // y_j = tau_j (y_j - Y(:, 0:j) u); T(0:j, j) = -tau_j T(0:j, 0:j) u.
            for (index_t r = tm.first(0); r <= ihi; r += sz) {
                T s = p.y(r, j);
                for (index_t l = 0; l < j; ++l) s -= p.y(r, l) * p.w(l);
                p.y(r, j) = t * s;
            }
            for (index_t l = tm.first(0); l < j; l += sz) {
                T s = zero;
                for (index_t m = l; m < j; ++m) s += p.t(l, m) * p.w(m);
                p.t(l, j) = -t * s;
            }
            if (tm.leader()) p.t(j, j) = t;
            tm.sync();
        }
        // The trailing columns, from the right: A(0:ihi, i+ib:ihi) -= Y V^H,
        // one row per member, Y's row in registers.
        for (index_t r = tm.first(0); r <= ihi; r += sz) {
            T yr[kGehrdMaxPanel<T>];
            BATCHEIG_UNROLL
            for (index_t l = 0; l < kGehrdMaxPanel<T>; ++l) yr[l] = l < ib ? p.y(r, l) : zero;
            index_t c = i + ib;
            for (; c + detail::kHessChunk <= ihi + 1; c += detail::kHessChunk) {
                T x[detail::kHessChunk];
                BATCHEIG_UNROLL
                for (index_t u = 0; u < detail::kHessChunk; ++u) x[u] = a(r, c + u);
                BATCHEIG_UNROLL
                for (index_t u = 0; u < detail::kHessChunk; ++u) {
                    BATCHEIG_UNROLL
                    for (index_t l = 0; l < kGehrdMaxPanel<T>; ++l)
                        if (l < ib) x[u] -= yr[l] * conj(p.v(c + u, l));
                    a(r, c + u) = x[u];
                }
            }
            for (; c <= ihi; ++c) {
                T x = a(r, c);
                BATCHEIG_UNROLL
                for (index_t l = 0; l < kGehrdMaxPanel<T>; ++l)
                    if (l < ib) x -= yr[l] * conj(p.v(c, l));
                a(r, c) = x;
            }
        }
        tm.sync();
        // From the left: A(i+1:ihi, i+ib:n) = (I - V T^H V^H) A, one column
        // per member.
        for (index_t c = tm.first(i + ib); c < n; c += sz) {
            T w[kGehrdMaxPanel<T>];
            BATCHEIG_UNROLL
            for (index_t l = 0; l < kGehrdMaxPanel<T>; ++l) w[l] = zero;
            for (index_t k = i + 1; k <= ihi; ++k) {
                const T x = a(k, c);
                BATCHEIG_UNROLL
                for (index_t l = 0; l < kGehrdMaxPanel<T>; ++l)
                    if (l < ib) w[l] += conj(p.v(k, l)) * x;
            }
            // w = T^H w (T^H is lower triangular: from the last entry up).
            BATCHEIG_UNROLL
            for (index_t l = kGehrdMaxPanel<T> - 1; l >= 0; --l) {
                if (l < ib) {
                    T s = zero;
                    BATCHEIG_UNROLL
                    for (index_t m = 0; m <= l; ++m) s += conj(p.t(m, l)) * w[m];
                    w[l] = s;
                }
            }
            index_t k = i + 1;
            for (; k + detail::kHessChunk <= ihi + 1; k += detail::kHessChunk) {
                T x[detail::kHessChunk];
                BATCHEIG_UNROLL
                for (index_t u = 0; u < detail::kHessChunk; ++u) x[u] = a(k + u, c);
                BATCHEIG_UNROLL
                for (index_t u = 0; u < detail::kHessChunk; ++u) {
                    BATCHEIG_UNROLL
                    for (index_t l = 0; l < kGehrdMaxPanel<T>; ++l)
                        if (l < ib) x[u] -= p.v(k + u, l) * w[l];
                    a(k + u, c) = x[u];
                }
            }
            for (; k <= ihi; ++k) {
                T x = a(k, c);
                BATCHEIG_UNROLL
                for (index_t l = 0; l < kGehrdMaxPanel<T>; ++l)
                    if (l < ib) x -= p.v(k, l) * w[l];
                a(k, c) = x;
            }
        }
        tm.sync();
    }
}

// Form Q explicitly in z (n x n) from the reflectors left in a by gehd2.
// Q is the identity outside rows/columns [ilo+1, ihi]. Each member owns whole
// columns of z, so the members never touch each other's data.
template <class Team, class M, class V>
BATCHEIG_HD void orghr(const Team &tm, index_t n, index_t ilo, index_t ihi, M a, V tau, M z) {
    using T = typename M::value_type;
    for (index_t j = tm.first(0); j < n; j += tm.size())
        for (index_t i = 0; i < n; ++i) z(i, j) = i == j ? T(1) : T(0);
    // Backward accumulation: Q = H(ilo) (H(ilo+1) (... H(ihi-2))).
    for (index_t i = ihi - 2; i >= ilo; --i) {
        const T t = tau[i];
        if (t == T(0)) continue;
        const index_t m = ihi - i;  // v = (1, a(i+2:ihi, i)) acts on rows i+1..ihi
        auto pv = [&](index_t k) { return &a(i + 1 + k, i); };
        // Whole blocks of columns first for a team_cpu_blocked team.
        index_t c0 = i + 1;
        if constexpr (team_cpu_blocked<Team>)
            c0 = z.es == 1 ? detail::reflect_cols_blocked(&z(i + 1, 0), z.ld, i + 1, ihi, m, t, pv) : c0;
        for (index_t c = tm.first(c0); c <= ihi; c += tm.size()) {
            auto px = [&](index_t k) { return &z(i + 1 + k, c); };
            T s = detail::hess_dot<true, detail::hess_chunked<M>>(z(i + 1, c), m, px, pv);
            s = s * t;
            z(i + 1, c) -= s;
            detail::hess_sub_scaled<false, detail::hess_chunked<M>>(m, s, px, pv);
        }
    }
    tm.sync();
}

// orghr in a's own storage, where gehd2 left the reflectors (for a caller
// that has kept H elsewhere, and wants Q without a second n x n array):
// on exit a(r, c - 1) = Q(r, c) for r, c in [ilo+1, ihi], Q being the
// identity elsewhere (orghr_in_place_entry reads it). Rows [ilo+1, ihi] of
// columns [ilo, ihi-1] are overwritten; a's other entries are kept.
// Every entry of Q sees orghr's operations in orghr's order: column c
// starts as e_c, and reflector c-1, the first to touch it, leaves it as it
// leaves orghr's unit column c, written into the column that held the
// reflector once every member has read it. So Q is bitwise orghr's. As in
// orghr, member c mod size owns column c of Q (column c-1 of a) in the
// updates; the column that a reflector forms is written by all members.
template <class Team, class M, class V>
BATCHEIG_HD void orghr_in_place(const Team &tm, index_t ilo, index_t ihi, M a, V tau) {
    using T = typename M::value_type;
    const T one = T(1), zero = T(0);
    // Column ihi of Q, which no reflector forms: e_ihi so far.
    if (ihi > ilo)
        for (index_t r = tm.first(ilo + 1); r <= ihi; r += tm.size()) a(r, ihi - 1) = r == ihi ? one : zero;
    // Backward accumulation, as orghr.
    for (index_t i = ihi - 2; i >= ilo; --i) {
        const T t = tau[i];
        const index_t m = ihi - i;  // v = (1, a(i+2:ihi, i)) acts on rows i+1..ihi
        tm.sync();  // column i+1 of Q is complete
        if (t != zero) {
            auto pv = [&](index_t k) { return &a(i + 1 + k, i); };
            for (index_t c = tm.first(i + 2); c <= ihi; c += tm.size()) {
                auto px = [&](index_t k) { return &a(i + 1 + k, c - 1); };
                T s = detail::hess_dot<true, detail::hess_chunked<M>>(a(i + 1, c - 1), m, px, pv);
                s = s * t;
                a(i + 1, c - 1) -= s;
                detail::hess_sub_scaled<false, detail::hess_chunked<M>>(m, s, px, pv);
            }
        }
        // orghr's s on the unit column e_{i+1}: (1 + sum conj(v_k) 0) t. In
        // the real types that is t, v being finite (|v_k| <= 1); a complex
        // sum's imaginary part can round a zero's sign, so it is formed.
        T s = t;
        if constexpr (is_complex<T>) {
            s = one;
            for (index_t k = 1; k < m; ++k) s += conj(a(i + 1 + k, i)) * zero;
            s = s * t;
        }
        tm.sync();  // every member has read reflector i
        // Column i+1 of Q into column i, an entry per member: each entry is
        // its unit value minus its update, as orghr computes it.
        for (index_t r = tm.first(ilo + 1); r <= ihi; r += tm.size()) {
            T q = zero;
            if (r == i + 1) q = t != zero ? one - s : one;
            else if (r > i + 1 && t != zero) q = zero - s * a(r, i);
            a(r, i) = q;
        }
    }
    tm.sync();
}

// Entry (r, c) of the Q that orghr_in_place left in a.
template <class M>
BATCHEIG_HD typename M::value_type orghr_in_place_entry(M a, index_t ilo, index_t ihi, index_t r, index_t c) {
    using T = typename M::value_type;
    if (c > ilo && c <= ihi && r > ilo && r <= ihi) return a(r, c - 1);
    return r == c ? T(1) : T(0);
}

}  // namespace batcheig::core
