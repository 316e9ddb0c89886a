// One-sided Jacobi with a lane per column pair (the kernel of
// BATCHEIG_ALG_JACOBI_CUDA_LANE), n <= 128: the iteration of
// core/jacobi_block.hpp with blocks of one column (nb = 1), both columns of
// a pair in the registers of one lane.
//
//   P = N/2 slots (N = 4, 8, ..., 128, the power of two >= n), each held by
//   S lanes that split the rows (slices): the lane of slot k in slice s
//   holds rows [s R, (s + 1) R) (R = N / S) of two columns of U = A Q and of
//   Q, in a "kept" register set (uk, qk) and an "other" one (uo, qo).
//   The pairs follow the round-robin ordering in the keep-one form of
//   core/jacobi_keep_one.hpp: after each step a slot keeps one of its two
//   columns and receives the other from one slot (a shuffle of R rows of U
//   and of Q), so a step moves one column per pair where a lane per column
//   moves two (the partner's U for the product, its Q for the update).
// A step: the lane forms the pair's 2x2 block of Q^H A Q from
//       g_kk, g_oo (kept: the previous rotation's results; at n > 32
//                   recomputed as Re(q^H u) at the start of every sweep),
//       x_k = q_k^H u_o, x_o = q_o^H u_k (summed over the slices),
//       g_ko = (x_k + conj(x_o)) / 2,
// builds the rotation (lane_rotation) and writes the rotated column to keep
// to (uk, qk) and the other, which leaves, to (uo, qo): with the rotation
// J = [c s; -conj(s) c] on (k, o), the columns are c k - conj(s) o and
// s k + c o, and the slot selects which goes where by choosing the
// coefficients (the schedule names the player to keep), so no column is
// copied between the two register sets. Then (uo, qo), g_oo and the
// player's index move to the receiving slot.
//
// Convergence (core::sweep_to_tolerance). During a sweep (m-1 consecutive
// steps of the schedule: every pair meets once) the slots sum |g_ko|^2
// over their pairs, twice
// (g_ko and g_ok); the sum is off(Q^H A Q)^2 as the sweep met it. Once it
// is at most sqrt(tol ||A||_F) ||A||_F (quadratic convergence: the sweep has
// then usually taken off below tol ||A||_F), off(Q^H U) is computed exactly
// (m-1 more steps that only move and multiply) and the matrix stops when it
// is met: so a matrix runs at least one sweep, and the residual reported is
// the exact off(Q^H U) / ||A||_F, as for the block variants. The tolerance
// has the block variants' floor (core::block_tol), since U is updated, not
// recomputed. A matrix's team leaves as soon as its matrix has converged.
// The Gram form (plan::tuning::cuda_jacobi_pair_gram; gram_solve below)
// runs the same steps on the columns of W = (A + sigma I) Q alone.
// The matrix is checked and scaled by a power of two exactly as
// core::jacobi::load_scaled. At the end each lane reads its two eigenvalues
// Re(q^H u) / ||q||^2 (core::jacobi::block_eigenvalues), finds their places
// in the ascending order by shuffles and writes w and, with vectors, the
// columns of Q to the sorted columns of A. Without vectors A is not written.
// At 64 slots (64 < n <= 128, PairColumns::kWide) a slice spans two warps:
// the moves, the slot sums and the sort go through shared memory, the
// schedule is the one of 80, 96, 112 or 128 players, the first >= n
// (wide_players; players >= n idle), every precision
// runs the Gram form, whose tolerance floor is core::jacobi::lane_gram_tol_floor.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/problem.hpp"
#include "core/jacobi_keep_one.hpp"
#include "core/jacobi_syevj.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/syevj/syevj_cuda.hpp"
#include "cuda/syevj/syevj_lane.cuh"
#include "cuda/team.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

namespace syevj_pair_detail {

using core::conj;
using core::jacobi::abs2;
using syevj_lane_detail::fast_rsqrt;
using syevj_lane_detail::lane_rotation;
using syevj_lane_detail::shfl;
using syevj_lane_detail::shfl_xor;

// The schedule, in device memory (252 KB; a step's lookup reads 2 bytes per
// slot from the step's row of 32 slots, one or two 32-byte sectors), and
// the ones of 80, 96, 112 and 128 players for 64 slots (20, 24, 28 and
// 32 KB).
__device__ const core::jacobi::KeepOneSchedule kKeepOne = core::jacobi::make_keep_one_schedule();
__device__ const core::jacobi::KeepOneSchedule80 kKeepOne80 =
    core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule80>();
__device__ const core::jacobi::KeepOneSchedule96 kKeepOne96 =
    core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule96>();
__device__ const core::jacobi::KeepOneSchedule112 kKeepOne112 =
    core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule112>();
__device__ const core::jacobi::KeepOneSchedule128 kKeepOne128 =
    core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule128>();
static_assert(core::jacobi::KeepOneSchedule80::kMaxSlots == 64 && core::jacobi::KeepOneSchedule96::kMaxSlots == 64 &&
                  core::jacobi::KeepOneSchedule112::kMaxSlots == 64 &&
                  core::jacobi::KeepOneSchedule128::kMaxSlots == 64,
              "the 64-slot tables share a stride");
// Players of the 64-slot kernel at order n (64 < n <= 128).
__host__ __device__ constexpr int wide_players(int n) { return n <= 80 ? 80 : n <= 96 ? 96 : n <= 112 ? 112 : 128; }

inline constexpr int kThreads = 128;

// The team of one matrix: S slices of P lanes; lane = slice * P + slot.
// Either the team is at most a warp (XW = false; sums over the slices are
// butterflies over lanes P, 2P, ... apart), or it spans W = P S / 32 warps
// of a block (XW = true; butterflies inside each warp, then the W warps'
// partial sums through shared memory, two alternating buffers, one barrier
// per sum, added in warp order). Every lane of a slot gets the bitwise
// same sums, so all make the same decisions. At 64 slots (kWide: a slice
// spans two warps) there are no butterflies: the S slices' partial sums go
// through shared memory, added in slice order, and the moves between slots
// go through shared memory too (the `mv` buffer, see rotate_and_move).
template <class T, int P, int S, bool G>
struct PairColumns {
    using R = core::real_t<T>;
    static constexpr int kRows = 2 * P / S;
    // Rows of Q per lane: none in the Gram form (G), which keeps W = (A +
    // sigma I) Q alone (one element, never used, keeps the arrays legal).
    static constexpr int kQRows = G ? 1 : kRows;
    static constexpr int kSlots = P;
    static constexpr int kTeam = P * S;
    static constexpr bool XW = kTeam > 32;
    static constexpr bool kUpdateAlways = plan::tuning::cuda_jacobi_pair_update_always(P);
    static constexpr int kWarps = XW ? kTeam / 32 : 1;
    static constexpr int kWarpTeam = XW ? 32 : kTeam;
    static constexpr bool kWide = P > 32;
    // Partial sums per slot that meet in shared memory: one per warp, or
    // one per slice where a slice spans two warps.
    static constexpr int kGroups = kWide ? S : kWarps;
    // kWide: whether the "other" columns live in shared memory during the
    // sweeps (plan::tuning::cuda_jacobi_lane_wide_other_shared), else in
    // the registers, moving through mv after each step.
    static constexpr bool kOtherShared = kWide && plan::tuning::cuda_jacobi_lane_wide_other_shared(core::is_complex<T>);
    static_assert(!kWide || (P == 64 && XW && G), "wide teams have 64 slots and run the Gram form");
    static_assert(kRows * S == 2 * P && kRows >= 1, "slices split the rows evenly");
    static_assert(sizeof(T) * kRows * (G ? 2 : 4) <= 512, "a lane's column parts must fit in its registers");
    // Shared bytes of the cross-warp sums: 2 buffers x kGroups groups x P
    // slots x two values of T (a team reduction takes one value per warp
    // of a buffer, kWarps <= kGroups * P * 2).
    static constexpr std::size_t kXBytes = XW ? 2 * std::size_t(kGroups) * P * 2 * sizeof(T) : 0;
    // kWide: the "other" columns of W, 2P rows by P locations ([row][loc]:
    // kOtherShared, where they stay; else the moving columns, [row][slot]),
    // then the moving g_oo, player and (kOtherShared) location, [slice][slot].
    static constexpr std::size_t kMoveCols = kWide ? std::size_t(2 * P) * P : 0;
    static constexpr std::size_t kMoveBytes =
        kWide ? kMoveCols * sizeof(T) + std::size_t(S) * P * (sizeof(R) + 2 * sizeof(int)) : 0;

    // The Gram form below 64 slots: shared bytes of a team's W, 2P columns
    // kLdx apart (2P + 1: an odd stride spreads the slots' columns over the
    // banks), then 2P norms, for the Rayleigh quotients and exact_off_shared.
    static constexpr int kLdx = 2 * P + 1;
    static constexpr bool kExactShared = !kWide && plan::tuning::cuda_jacobi_pair_exact_shared(sizeof(R), G);
    static constexpr std::size_t kTeamBytes = !kWide && G ? std::size_t(2 * P) * (kLdx + 1) * sizeof(T) : 0;

    WarpTeam<kWarpTeam> tm;
    unsigned char *xbuf;
    T *mv;  // kWide: the other columns and the move records (kMoveBytes)
    T *xs;  // the Gram form below 64 slots: the team's W (kTeamBytes)
    int loc = 0;  // kOtherShared: the location in mv of the lane's other column
    int parity = 0;
    int n, m;       // order, round-robin players
    int slot, row0; // the lane's slot and first row
    bool first;     // slice 0: the lane that counts
    int t = 0;      // step within the schedule's period
    static constexpr int kSchedStride = kWide ? core::jacobi::KeepOneSchedule128::kMaxSlots
                                              : core::jacobi::KeepOneSchedule::kMaxSlots;
    const std::uint16_t *sched;  // this m's table, at this slot
    std::uint16_t move;          // the entry of step t, loaded a step ahead
    int ik, io;     // players in the kept and the other register (>= n: none)
    T uk[kRows], qk[kQRows], uo[kRows], qo[kQRows];
    R dk, dO;       // g_kk, g_oo

    template <class V>
    __device__ __forceinline__ V sh(V v, int src) const { return shfl(v, src, tm.mask, P); }

    // kOtherShared: the lane's other column lives in shared memory, rows
    // row0.. of location loc of mv; uo holds it only outside the sweeps.
    __device__ __forceinline__ T &o_at(int i) const { return mv[(row0 + i) * P + loc]; }
    __device__ __forceinline__ T other(int i) const {
        if constexpr (kOtherShared) return o_at(i);
        else return uo[i];
    }
    // kOtherShared: conj(x) y + acc and r x + g y as explicit fused
    // multiply-adds (four and six per complex entry; the operators'
    // products and sums took more instructions and registers).
    __device__ __forceinline__ static T fma_conj(T x, T y, T acc) {
        if constexpr (core::is_complex<T>) {
            acc.re = fma(x.re, y.re, fma(x.im, y.im, acc.re));
            acc.im = fma(x.re, y.im, fma(-x.im, y.re, acc.im));
            return acc;
        } else {
            return fma(x, y, acc);
        }
    }
    // x y + acc, explicit likewise (the Rayleigh quotients' products).
    __device__ __forceinline__ static T fma_mul(T x, T y, T acc) {
        if constexpr (core::is_complex<T>) {
            acc.re = fma(x.re, y.re, fma(-x.im, y.im, acc.re));
            acc.im = fma(x.re, y.im, fma(x.im, y.re, acc.im));
            return acc;
        } else {
            return fma(x, y, acc);
        }
    }
    __device__ __forceinline__ static T lin2(R r, T x, T g, T y) {
        if constexpr (core::is_complex<T>) {
            return T(fma(g.re, y.re, fma(-g.im, y.im, r * x.re)), fma(g.re, y.im, fma(g.im, y.re, r * x.im)));
        } else {
            return fma(g, y, r * x);
        }
    }
    __device__ __forceinline__ void store_o() {
#pragma unroll
        for (int i = 0; i < kRows; ++i) o_at(i) = uo[i];
    }
    __device__ __forceinline__ void load_o() {
#pragma unroll
        for (int i = 0; i < kRows; ++i) uo[i] = o_at(i);
    }

    // Sums over the S slices of a slot, of one or two values (each sum in
    // the same order whatever the count).
    template <class... V>
    __device__ __forceinline__ void slot_sum(V &...v) {
        static_assert(sizeof...(V) >= 1 && sizeof...(V) <= 2, "a slot's buffer holds two values");
#pragma unroll
        for (int o = P; o < kWarpTeam; o <<= 1) ((v += shfl_xor(v, o, tm.mask)), ...);
        if constexpr (XW) {
            static_assert(((sizeof(V) <= sizeof(T)) && ...), "slot too narrow");
            const int w = kWide ? int(threadIdx.x) / P : int(threadIdx.x) / 32;  // the group
            auto at = [&](auto &x, int ww, int k) {
                using X = std::remove_reference_t<decltype(x)>;
                return reinterpret_cast<X *>(xbuf + (((parity * kGroups + ww) * P + slot) * 2 + k) * sizeof(T));
            };
            if ((threadIdx.x & 31) < P) {
                int k = 0;
                ((*at(v, w, k++) = v), ...);
            }
            __syncthreads();
            {
                int k = 0;
                ((v = *at(v, 0, k++)), ...);
            }
#pragma unroll
            for (int ww = 1; ww < kGroups; ++ww) {
                int k = 0;
                ((v += *at(v, ww, k++)), ...);
            }
            parity ^= 1;
        }
    }
    // Sum (max) over every lane of the team.
    template <class V, class Op>
    __device__ __forceinline__ V team_reduce(V v, Op op) {
        v = tm.reduce(v, op);
        if constexpr (XW) {
            static_assert(sizeof(V) <= sizeof(T), "slot too narrow");
            auto at = [&](int ww) { return reinterpret_cast<V *>(xbuf + (parity * kGroups * P * 2 + ww) * sizeof(T)); };
            if ((threadIdx.x & 31) == 0) *at(threadIdx.x / 32) = v;
            __syncthreads();
            v = *at(0);
#pragma unroll
            for (int ww = 1; ww < kWarps; ++ww) v = op(v, *at(ww));
            parity ^= 1;
        }
        return v;
    }
    template <class V>
    __device__ __forceinline__ V team_sum(V v) {
        return team_reduce(v, [](V a, V b) { return a + b; });
    }
    template <class V>
    __device__ __forceinline__ V team_max(V v) {
        return team_reduce(v, [](V a, V b) { return b > a ? b : a; });
    }
    template <class V>
    __device__ __forceinline__ V team_min(V v) {
        return team_reduce(v, [](V a, V b) { return b < a ? b : a; });
    }

    // x_k = q_k^H u_o and x_o = q_o^H u_k over the whole columns (two
    // interleaved partial sums each, added in a fixed order).
    __device__ __forceinline__ void cross(T &xk, T &xo) {
        T ak[2] = {T(0), T(0)}, ao[2] = {T(0), T(0)};
#pragma unroll
        for (int i = 0; i < kRows; ++i) {
            ak[i & 1] += conj(qk[i]) * uo[i];
            ao[i & 1] += conj(qo[i]) * uk[i];
        }
        xk = ak[0] + ak[1];
        xo = ao[0] + ao[1];
        slot_sum(xk, xo);
    }

    // The Gram form: g = w_k^H w_o over the whole columns.
    __device__ __forceinline__ T gram_cross() {
        T g = gram_part();
        slot_sum(g);
        return g;
    }
    // The lane's part of it (two interleaved partial sums over its rows).
    __device__ __forceinline__ T gram_part() {
        T a[2] = {T(0), T(0)};
#pragma unroll
        for (int i = 0; i < kRows; ++i) {
            if constexpr (kOtherShared) a[i & 1] = fma_conj(uk[i], other(i), a[i & 1]);
            else a[i & 1] += conj(uk[i]) * other(i);
        }
        return a[0] + a[1];
    }
    // kFusedPart (plan::tuning::cuda_jacobi_pair_fused_part): the update of
    // a step forms the lane's part of the next step's g as each row's kept
    // and received values are made (the products and sums of gram_part),
    // so the products overlap the update and the shuffles instead of
    // following them; the sweeps take the part from `part`. Only where a
    // step updates and shuffles in one pass (from 16 slots, the other
    // column in the registers).
    static constexpr bool kFusedPart = G && kUpdateAlways && !kOtherShared && !kWide &&
                                       plan::tuning::cuda_jacobi_pair_fused_part(core::is_complex<T>, sizeof(R), P);
    T part;
    __device__ __forceinline__ T gram_cross_fused() {
        T g = part;
        slot_sum(g);
        return g;
    }

    // The move after a step: with the rotation (c, s) on (k, o) (identity
    // when c = 1, s = 0), the column of the player to keep goes to (uk, qk),
    // the other to (uo, qo), and (uo, qo) is replaced by the column the
    // schedule sends here.
    __device__ __forceinline__ void rotate_and_move(bool rotate, R c, T s, R delta, R s_abs, T phase) {
        // The entry of this step was loaded during the previous one; the
        // next one is loaded now, so its latency hides behind a step.
        const std::uint16_t e = move;
        t = t + 1 == 2 * (m - 1) ? 0 : t + 1;
        move = sched[t * kSchedStride];
        const int src = e & 0xff;
        const bool keep_k = ik == (e >> 8);
        // Without a rotation the coefficients are 0 and 1 (exact), and
        // the update is needed only to swap the columns. At P = 16 and 32
        // it runs unconditionally (tuning::cuda_jacobi_pair_update_always):
        // a skipped update costs register copies at the join there, more
        // than the multiplications (measured; the bigger register set
        // elsewhere costs occupancy, so smaller P skip it).
        if (kUpdateAlways || rotate || !keep_k) {
            // The rotated columns are c k - conj(s) o (player k) and
            // s k + c o (player o). For complex T the second is stored
            // times the phase e = conj(s) / |s|, as |s| k + c e o, so that
            // both have a real coefficient of k (a column's phase is free:
            // U and Q change together, the eigenvector's phase is
            // arbitrary); for real T it is stored as it is.
            const T g1 = -conj(s);
            R r2;
            T g2;
            if constexpr (core::is_complex<T>) {
                r2 = s_abs;
                g2 = c * phase;
            } else {
                r2 = s;
                g2 = c;
            }
            const R rk = keep_k ? c : r2, ro = keep_k ? r2 : c;
            const T gk = keep_k ? g1 : g2, go = keep_k ? g2 : g1;
            // Each row computes the leaving column before the kept one and
            // (where the update always runs) shuffles it at once: the old
            // values then die as the new ones are made, and ptxas keeps the
            // loop-carried registers in place (with the whole update first
            // and the shuffles after it, the double kernel at 32 slots
            // copied 35 registers per step and spilled 252 bytes).
            T a[2] = {T(0), T(0)};
#pragma unroll
            for (int i = 0; i < kRows; ++i) {
                const T u0 = uk[i], u1 = other(i);
                const T uout = kOtherShared ? lin2(ro, u0, go, u1) : ro * u0 + go * u1;
                uk[i] = kOtherShared ? lin2(rk, u0, gk, u1) : rk * u0 + gk * u1;
                if constexpr (kOtherShared) o_at(i) = uout;
                else if constexpr (kWide) mv[(row0 + i) * P + slot] = uout;
                else uo[i] = kUpdateAlways ? sh(uout, src) : uout;
                if constexpr (kFusedPart) a[i & 1] += conj(uk[i]) * uo[i];
                if constexpr (!G) {
                    const T q0 = qk[i], q1 = qo[i];
                    const T qout = ro * q0 + go * q1;
                    qk[i] = rk * q0 + gk * q1;
                    qo[i] = kUpdateAlways ? sh(qout, src) : qout;
                }
            }
            if constexpr (kFusedPart) part = a[0] + a[1];
        }
        const R nk = dk - delta, no = dO + delta;
        dk = keep_k ? nk : no;
        const R dout = keep_k ? no : nk;
        const int iout = keep_k ? io : ik;
        ik = keep_k ? ik : io;
        if constexpr (!kUpdateAlways) {
#pragma unroll
            for (int i = 0; i < kRows; ++i) {
                uo[i] = sh(uo[i], src);
                if constexpr (!G) qo[i] = sh(qo[i], src);
            }
        }
        if constexpr (kWide) {
            // Through shared memory. kOtherShared: the leaving column stays
            // where the other column was (location loc of mv, above); the
            // slot takes over, with g_oo and the player, the location of
            // slot src's leaving column. Only this lane touches its rows of
            // location loc during a step (the locations are a permutation
            // of the slots). Else the slot's leaving column was written to
            // mv at the slot (above) and the column of slot src is read.
            // The slice's named barrier orders the writes before the reads;
            // mv and the records are written again after the next step's
            // slot sum, a barrier of the whole team, so one buffer serves
            // every step.
            const int slice = row0 / kRows;
            R *dbuf = reinterpret_cast<R *>(mv + kMoveCols);
            int *ibuf = reinterpret_cast<int *>(dbuf + S * P);
            int *lbuf = ibuf + S * P;
            dbuf[slice * P + slot] = dout;
            ibuf[slice * P + slot] = iout;
            if constexpr (kOtherShared) lbuf[slice * P + slot] = loc;
            asm volatile("bar.sync %0, %1;" ::"r"(1 + slice), "n"(2 * 32) : "memory");
            if constexpr (!kOtherShared) {
#pragma unroll
                for (int i = 0; i < kRows; ++i) uo[i] = mv[(row0 + i) * P + src];
            }
            dO = dbuf[slice * P + src];
            io = ibuf[slice * P + src];
            if constexpr (kOtherShared) loc = lbuf[slice * P + src];
        } else {
            dO = sh(dout, src);
            io = sh(iout, src);
        }
    }

    // g_kk and g_oo from the columns, Re(q^H u). The rotations update them
    // by delta, and over many rotations those values drift from the
    // columns' own (U and Q are updated, not recomputed); within a cluster
    // of eigenvalues the drift can exceed the differences tau that set the
    // rotations, which then stop reducing off(Q^H U): 100 sweeps without
    // reaching the tolerance on a clustered double matrix of order 64 when
    // only the first sweep started from exact values (tests/test_syevj_cuda.cpp).
    // Done at 32 slots (32 < n <= 64) only: n <= 32 has never shown the
    // drift in the tests' families, and there the refresh cost complex
    // double n = 32 8 % (H100, batch 1 000 and 100 000), register pressure.
    // The Gram form refreshes ||w_k||^2 and ||w_o||^2 at every n.
    static constexpr bool kRefreshDiagonal = G || P == 32;
    __device__ __forceinline__ void refresh_diagonal() {
        R a[2] = {R(0), R(0)}, b[2] = {R(0), R(0)};
#pragma unroll
        for (int i = 0; i < kRows; ++i) {
            if constexpr (G) {
                a[i & 1] += abs2(uk[i]);
                b[i & 1] += abs2(other(i));
            } else {
                a[i & 1] += core::real(conj(qk[i]) * uk[i]);
                b[i & 1] += core::real(conj(qo[i]) * uo[i]);
            }
        }
        R x = a[0] + a[1], y = b[0] + b[1];
        slot_sum(x, y);
        dk = x;
        dO = y;
    }

    // One sweep (m-1 steps), at 32 slots from g_kk, g_oo refreshed; returns
    // the sum over the matrix of |g_jt|^2 as met (off(Q^H A Q)^2 of the sweep).
    __device__ R sweep() {
        if constexpr (kRefreshDiagonal) refresh_diagonal();
        // The Gram form: a pair's term of off(Q^H A Q)^2 is |g|^2 / (||w_k||
        // + ||w_o||)^2 to first order (see exact_off); the sweep sums |g|^2
        // and divides by 4 min ||w||^2 at the sweep's start (no division per
        // step; the estimate only decides when exact_off runs).
        R dmin = R(1);
        if constexpr (G) {
            const R inf = core::limits<R>::huge();
            const R a = ik < n ? dk : inf, b = io < n ? dO : inf;
            dmin = team_min(b < a ? b : a);
        }
        R off2 = R(0);
        if constexpr (kFusedPart) part = gram_part();
        for (int r = 0; r < m - 1; ++r) {
            const bool on = ik < n && io < n;
            T apq;
            if constexpr (kFusedPart) {
                apq = gram_cross_fused();
            } else if constexpr (G) {
                apq = gram_cross();
            } else {
                T xk, xo;
                cross(xk, xo);
                apq = (xk + conj(xo)) * R(0.5);
            }
            R c = R(1), delta = R(0), s_abs = R(0);
            T s = T(0), phase = T(1);
            const bool rotate = lane_rotation<T, core::is_complex<T>, true>(dk, dO, apq, c, s, delta, &s_abs, &phase, on);
            if (on && first) off2 += R(2) * abs2(apq);
            rotate_and_move(rotate, c, s, delta, s_abs, phase);
        }
        if constexpr (G) return team_sum(off2) / (R(4) * dmin);
        return team_sum(off2);
    }

    // off(H) for H the Hermitian part of Q^H U, exactly: sqrt(sum over
    // j != k of |(q_j^H u_k + conj(q_k^H u_j)) / 2|^2). The
    // Gram form: with C = Q^H B Q (B = A + sigma I, W = B Q), W^H W = C^2,
    // so g_jk = (c_j + c_k) C_jk + (F^2)_jk for C's off-diagonal part F,
    // and ||w_j||^2 = c_j^2 + (F^2)_jj: off(Q^H A Q) = off(C) is
    // sqrt(sum over j != k of |g_jk|^2 / (||w_j|| + ||w_k||)^2) to first
    // order in F, computed exactly from the columns as they are.
    __device__ R exact_off() {
        if constexpr (kExactShared) return exact_off_shared();
        if constexpr (G) {
            // ||w|| in dk and dO while the columns only move (the next
            // sweep refreshes them), so a step takes no square root.
            refresh_diagonal();
            dk = core::rsqrt_(dk);
            dO = core::rsqrt_(dO);
        }
        R s2 = R(0);
        for (int r = 0; r < m - 1; ++r) {
            const bool on = ik < n && io < n && first;
            if constexpr (G) {
                const T g = gram_cross();
                const R d = dk + dO;
                const R rd = fast_rsqrt(d * d);  // 1 / d (d^2 is normal where it counts)
                if (on) s2 += R(2) * abs2(g) * (rd * rd);
            } else {
                // The Hermitian part of Q^H U, as the rotations see it: its
                // other part is rounding that U's updates gathered, which no
                // rotation removes and which grows with every sweep.
                T xk, xo;
                cross(xk, xo);
                if (on) s2 += R(0.5) * abs2(xk + conj(xo));
            }
            rotate_and_move(false, R(1), T(0), R(0), R(0), T(1));
        }
        return core::rsqrt_(team_sum(s2));
    }

    // x^H y over the 2P rows of two columns in xs (rows >= n hold zeros),
    // summed as a step sums it: each slice's kRows rows in two interleaved
    // partial sums, then the slices as slot_sum adds them (butterflies
    // inside a warp, the warps in order).
    __device__ __forceinline__ static T column_product(const T *x, const T *y) {
        T part[S];
#pragma unroll
        for (int sl = 0; sl < S; ++sl) {
            T a[2] = {T(0), T(0)};
#pragma unroll
            for (int i = 0; i < kRows; ++i) a[i & 1] = fma_conj(x[sl * kRows + i], y[sl * kRows + i], a[i & 1]);
            part[sl] = a[0] + a[1];
        }
        constexpr int kWarpSlices = kWarpTeam / P;
#pragma unroll
        for (int o = 1; o < kWarpSlices; o <<= 1)
#pragma unroll
            for (int sl = 0; sl < S; sl += 2 * o) part[sl] += part[sl + o];
        T v = part[0];
#pragma unroll
        for (int w = 1; w < S / kWarpSlices; ++w) v += part[w * kWarpSlices];
        return v;
    }

    // exact_off of the Gram form below 64 slots from the team's W in shared
    // memory (xs) instead of m - 1 steps that move the columns
    // (tuning::cuda_jacobi_pair_exact_shared): every lane stores its rows of
    // its two columns and slice 0 the norms ||w||, and the P (2P - 1) pairs
    // of the 2P columns are shared out over the team's lanes, item t the
    // pair (i, i + d mod 2P) with i = t mod 2P and d = t / 2P + 1 (d < P
    // for every i, d = P for i < P), each a whole column product
    // (column_product). The columns stay in place, so the schedule resumes
    // where the sweep stopped (a sweep of m - 1 steps from either half of
    // the period meets every pair). The team_sum's barrier orders the reads
    // before the buffer's next writes. (At 64 slots, in double, W fits
    // beside the move buffer, 221 KB in all, but the L1 left for the
    // kernel's spills then made it 30 % slower.)
    __device__ R exact_off_shared() {
        static_assert(G && !kWide, "the Gram form below 64 slots");
        constexpr int N = 2 * P;
        R *nrm = reinterpret_cast<R *>(xs + N * kLdx);
        refresh_diagonal();
#pragma unroll
        for (int i = 0; i < kRows; ++i) {
            xs[(2 * slot) * kLdx + row0 + i] = uk[i];
            xs[(2 * slot + 1) * kLdx + row0 + i] = other(i);
        }
        // Negative for the players >= n (zero columns, which take no part).
        if (first) {
            nrm[2 * slot] = ik < n ? core::rsqrt_(dk) : R(-1);
            nrm[2 * slot + 1] = io < n ? core::rsqrt_(dO) : R(-1);
        }
        if constexpr (XW) __syncthreads();
        else __syncwarp(tm.mask);
        const int lane = (row0 / kRows) * P + slot;
        R s2 = R(0);
        for (int t = lane; t < P * (N - 1); t += kTeam) {
            const int i = t & (N - 1), j = (i + t / N + 1) & (N - 1);
            const R ni = nrm[i], nj = nrm[j];
            if (ni < R(0) || nj < R(0)) continue;
            const T g = column_product(xs + i * kLdx, xs + j * kLdx);
            const R rd = R(1) / (ni + nj);
            s2 += R(2) * abs2(g) * (rd * rd);
        }
        return core::rsqrt_(team_sum(s2));
    }
};

// The Gram form (plan::tuning::cuda_jacobi_pair_gram): the pair kernel's
// iteration on W = B Q, B = A + sigma I, without Q. W^H W = Q^H B^2 Q, so
// the rotations that make W's columns orthogonal diagonalize B^2, and with
// B positive definite B itself: at the end W = Q Lambda_B, the eigenvectors
// are W's columns normalized, and the eigenvalues are their Rayleigh
// quotients with A. A step reads and updates one column of U per player
// instead of two (U and Q), so it takes half the registers, shuffles and
// updates of the Q^H A Q form. The shift only has to make B positive
// definite with no eigenvalue near 0: sigma much larger than ||A||_2 would
// raise the rounding of W^H W (of order u sigma^2) and with it the floor
// under off(Q^H A Q), so the first try takes a small sigma (see the
// kernel).

// Reloads the lane's rows of its two current columns of A, scaled as at
// the start (the players have moved since; any start Q = I works).
template <class Cols, class T>
__device__ void gram_reload(Cols &c, const SyevjProblem<T> &p, const core::MatView<T> &av, int e) {
    using R = core::real_t<T>;
    const core::jacobi::Pow2Scale<R> scale(e);
#pragma unroll
    for (int kr = 0; kr < Cols::kRows; ++kr) {
        const int i = c.row0 + kr;
        T xk = T(0), xo = T(0);
        if (i < c.n) {
            if (c.ik < c.n) xk = core::jacobi::hermitian_entry(p.lower, av, i, c.ik);
            if (c.io < c.n) xo = core::jacobi::hermitian_entry(p.lower, av, i, c.io);
        }
        c.uk[kr] = e != 0 ? scale(xk) : xk;
        c.uo[kr] = e != 0 ? scale(xo) : xo;
    }
}

// From W = A (the lane's columns, scaled): the sweeps on W = A + sigma I,
// then the two eigenvalues (lk, lo) and W's columns normalized. Returns
// whether every eigenvalue of B came out at least sigma / 4 (B positive
// definite and its eigenvectors well apart from 0).
template <class Cols, class T>
__device__ bool gram_solve(Cols &c, const SyevjProblem<T> &p, int max_sweeps,
                           const core::MatView<T> &av, int e, core::real_t<T> sigma, core::real_t<T> tol,
                           core::real_t<T> normf, T *sw, int &sweeps, core::real_t<T> &off, core::real_t<T> &lk,
                           core::real_t<T> &lo, bool flip = false) {
    using R = core::real_t<T>;
    constexpr int kRows = Cols::kRows;
    const int n = c.n, row0 = c.row0;
#pragma unroll
    for (int kr = 0; kr < kRows; ++kr) {
        if (flip) {
            c.uk[kr] = -c.uk[kr];
            c.uo[kr] = -c.uo[kr];
        }
        if (row0 + kr == c.ik && c.ik < n) c.uk[kr] += sigma;
        if (row0 + kr == c.io && c.io < n) c.uo[kr] += sigma;
    }
    // kOtherShared: the other column to its location for the sweeps (each
    // lane writes and first reads its own rows there).
    if constexpr (Cols::kOtherShared) c.store_o();
    off = core::sweep_to_tolerance(
        max_sweeps, tol, normf, [&] { return c.sweep(); }, [&] { return c.exact_off(); }, sweeps);
    // Rayleigh quotients w^H A w / ||w||^2, A read again from the caller's
    // triangle and scaled as at the start (||w|| - sigma would carry the
    // rounding W gathered over the sweeps, of order u sigma). The team's W
    // goes through shared memory, each slot's two columns in the order k, o
    // (kWide: one column per slot at a time, through the move buffer).
    constexpr int ldw = Cols::kLdx;
    constexpr int P = Cols::kSlots;
    if constexpr (!Cols::kWide) {
#pragma unroll
        for (int kr = 0; kr < kRows; ++kr) {
            sw[c.slot * 2 * ldw + row0 + kr] = c.uk[kr];
            sw[(c.slot * 2 + 1) * ldw + row0 + kr] = c.uo[kr];
        }
        if constexpr (Cols::XW) __syncthreads();
        else __syncwarp(c.tm.mask);
    }
    // Both columns in one pass over A, or one at a time where two column
    // accumulators would spill (complex double at 32 slots) or the columns
    // pass through the move buffer (kWide).
    constexpr int kAtOnce = Cols::kWide || sizeof(T) * kRows > 128 ? 1 : 2;
    const core::jacobi::Pow2Scale<R> scale(e);
    T xq[2];
    R nq[2];
    // kOtherShared: the other column first, read where the sweeps left it
    // (location loc of the move buffer); then it goes back to the
    // registers and the kept column takes its place for the second pass.
    // So a pass holds one column and its products in the registers, not
    // both columns and the products (which spilled: about 10 000 local
    // accesses per warp in complex double at n = 128).
#pragma unroll
    for (int pass = 0; pass < 2; pass += kAtOnce) {
        const int c0 = Cols::kOtherShared ? 1 - pass : pass;
        T y[kAtOnce][kRows];
#pragma unroll
        for (int q = 0; q < kAtOnce; ++q)
#pragma unroll
            for (int kr = 0; kr < kRows; ++kr) y[q][kr] = T(0);
        const T *wcol = sw + (c.slot * 2 + c0) * ldw;
        if constexpr (Cols::kOtherShared) {
            __syncthreads();  // the sweeps' (pass 1: the first pass's) reads and writes are done
            if (pass == 1) {
                c.load_o();
#pragma unroll
                for (int kr = 0; kr < kRows; ++kr) c.o_at(kr) = c.uk[kr];
                __syncthreads();
            }
        } else if constexpr (Cols::kWide) {
            __syncthreads();  // the last reads of the buffer are done
#pragma unroll
            for (int kr = 0; kr < kRows; ++kr) c.mv[(row0 + kr) * P + c.slot] = c0 == 0 ? c.uk[kr] : c.uo[kr];
            __syncthreads();
        }
        if constexpr (Cols::XW) {
            // A through shared memory, kQuotTile columns at a time, in the
            // buffer of the slot sums (free until the sums below): the team
            // reads each entry of A once per pass, where each lane reading
            // its own rows of every column read all of A once per slot and
            // pass (at n = 128 the quotients then took about 40 % of the
            // kernel's time in double and half in complex double). A tile's
            // entry is made as the lane made its own, and each lane adds its
            // products in the same order: real types get bitwise the
            // results of the direct reads; complex ones now have the
            // products as explicit fused multiply-adds (fma_mul).
            constexpr int N2 = 2 * P;
            constexpr int kQuotTile = int(Cols::kXBytes / (sizeof(T) * N2));
            static_assert(kQuotTile >= 1, "a tile of A fits the slot sums' buffer");
            T *tile = reinterpret_cast<T *>(c.xbuf);
            const int lane = (row0 / kRows) * P + c.slot;
            const int vloc = Cols::kOtherShared ? c.loc : c.slot;  // kWide: the pass's column in the move buffer
            for (int j0 = 0; j0 < n; j0 += kQuotTile) {
                __syncthreads();  // the last reads of the buffer are done
                for (int t = lane; t < kQuotTile * N2; t += Cols::kTeam) {
                    const int i = t % N2, j = j0 + t / N2;
                    T a = T(0);
                    if (i < n && j < n) {
                        a = core::jacobi::hermitian_entry(p.lower, av, i, j);
                        if (e != 0) a = scale(a);
                    }
                    tile[t] = a;
                }
                __syncthreads();
                const int jn = n - j0 < kQuotTile ? n - j0 : kQuotTile;
                for (int jj = 0; jj < jn; ++jj) {
                    T v[kAtOnce];
#pragma unroll
                    for (int q = 0; q < kAtOnce; ++q)
                        v[q] = Cols::kWide ? c.mv[(j0 + jj) * P + vloc] : wcol[q * ldw + j0 + jj];
#pragma unroll
                    for (int kr = 0; kr < kRows; ++kr) {
                        if (row0 + kr < n) {
                            const T a = tile[jj * N2 + row0 + kr];
#pragma unroll
                            for (int q = 0; q < kAtOnce; ++q) y[q][kr] = Cols::fma_mul(a, v[q], y[q][kr]);
                        }
                    }
                }
            }
            __syncthreads();  // the tile's reads are done before the sums use the buffer
        } else {
            for (int j = 0; j < n; ++j) {
                T v[kAtOnce];
#pragma unroll
                for (int q = 0; q < kAtOnce; ++q) v[q] = wcol[q * ldw + j];
#pragma unroll
                for (int kr = 0; kr < kRows; ++kr) {
                    const int i = row0 + kr;
                    if (i < n) {
                        T a = core::jacobi::hermitian_entry(p.lower, av, i, j);
                        if (e != 0) a = scale(a);
#pragma unroll
                        for (int q = 0; q < kAtOnce; ++q) y[q][kr] += a * v[q];
                    }
                }
            }
        }
#pragma unroll
        for (int q = 0; q < kAtOnce; ++q) {
            T x = T(0);
            R nrm = R(0);
#pragma unroll
            for (int kr = 0; kr < kRows; ++kr) {
                const T u = Cols::kOtherShared ? c.o_at(kr) : c0 + q == 0 ? c.uk[kr] : c.uo[kr];
                x += core::conj(u) * y[q][kr];
                nrm += core::jacobi::abs2(u);
            }
            xq[c0 + q] = x;
            nq[c0 + q] = nrm;
        }
    }
    if constexpr (Cols::kOtherShared) {
#pragma unroll
        for (int kr = 0; kr < kRows; ++kr) c.uk[kr] = c.o_at(kr);  // the lane's own rows
    }
    T xk = xq[0], xo = xq[1];
    R nk = nq[0], no = nq[1];
    c.slot_sum(xk, xo);
    c.slot_sum(nk, no);
    lk = c.ik < n ? core::real(xk) / nk : R(0);
    lo = c.io < n ? core::real(xo) / no : R(0);
    const R rk = R(1) / core::rsqrt_(nk), ro = R(1) / core::rsqrt_(no);
#pragma unroll
    for (int kr = 0; kr < kRows; ++kr) {
        c.uk[kr] *= rk;
        c.uo[kr] *= ro;
    }
    const R floor = R(0.25) * sigma, sk = flip ? -lk : lk, so = flip ? -lo : lo;
    const int low = (c.ik < n && !(sk + sigma >= floor)) || (c.io < n && !(so + sigma >= floor)) ? 1 : 0;
    return c.team_max(low) == 0;
}

template <int P, int S>
inline constexpr int kBlockThreads = P * S > 32 ? P * S : kThreads;

// Sweeps of the Gram form's first try at most (see the kernel).
inline constexpr int kGramFirstSweeps = 30;

template <class T, int P, int S, int MinB, bool G>
__global__ __launch_bounds__(kBlockThreads<P, S>, MinB) void syevj_pair_kernel(SyevjProblem<T> p, core::JacobiOptions opt,
                                                                         std::int64_t b0, std::int64_t count) {
    using R = core::real_t<T>;
    using Cols = PairColumns<T, P, S, G>;
    constexpr int kRows = Cols::kRows;
    constexpr int kTeam = Cols::kTeam;
    extern __shared__ __align__(16) unsigned char smem[];
    Cols c;
    c.tm = WarpTeam<Cols::kWarpTeam>::make();
    const int group = threadIdx.x / kTeam;
    const std::int64_t k = std::int64_t(blockIdx.x) * (kBlockThreads<P, S> / kTeam) + group;
    if (k >= count) return;  // whole teams leave together
    const std::int64_t b = b0 + k;
    const int n = p.n, l = int(threadIdx.x) % kTeam;
    const std::int64_t lda = p.lda;
    // 64 slots: 80, 96, 112 or 128 players (a schedule table each), those
    // >= n idle. (Opaque to the compiler, which would otherwise unroll
    // every loop over the steps of a sweep.)
    int m = core::jacobi::players(n);
    if constexpr (Cols::kWide) {
        m = wide_players(n);
        asm volatile("" : "+r"(m));
    }
    c.n = n;
    c.m = m;
    c.slot = l % P;
    c.loc = c.slot;
    c.row0 = (l / P) * kRows;
    c.first = l < P;
    c.xbuf = smem;
    c.mv = reinterpret_cast<T *>(smem + Cols::kXBytes);
    c.xs = c.mv + std::size_t(group) * Cols::kTeamBytes / sizeof(T);
    if constexpr (Cols::kWide)
        c.sched = (m == 80    ? &kKeepOne80.e[0][0][0]
                   : m == 96  ? &kKeepOne96.e[0][0][0]
                   : m == 112 ? &kKeepOne112.e[0][0][0]
                              : &kKeepOne128.e[0][0][0]) +
                  c.slot;
    else c.sched = &kKeepOne.e[core::jacobi::KeepOneSchedule::table(m)][0][0] + c.slot;
    c.move = c.sched[0];
    const bool held = c.slot < m / 2;
    c.ik = held ? core::jacobi::keep_one_first(m, c.slot) : core::jacobi::KeepOneSchedule::kNone;
    c.io = held ? core::jacobi::keep_one_second(m, c.slot) : core::jacobi::KeepOneSchedule::kNone;
    const int row0 = c.row0;
    T *a = p.A + b * lda * n;
    R *w = p.w + b * n;

    // The lane's rows of its two columns of the Hermitian matrix from the
    // `uplo` triangle, checked and scaled by 2^-e exactly as
    // core::jacobi::load_scaled.
    const core::MatView<T> av{a, lda, 1};
    R amax = R(0);
    int bad = 0;
#pragma unroll
    for (int kr = 0; kr < kRows; ++kr) {
        const int i = row0 + kr;
        T xk = T(0), xo = T(0);
        if (i < n) {
            if (c.ik < n) {
                xk = core::jacobi::hermitian_entry(p.lower, av, i, c.ik);
                core::jacobi::check_entry(xk, amax, bad);
            }
            if (c.io < n) {
                xo = core::jacobi::hermitian_entry(p.lower, av, i, c.io);
                core::jacobi::check_entry(xo, amax, bad);
            }
        }
        c.uk[kr] = xk;
        c.uo[kr] = xo;
    }
    bad = c.team_max(bad);
    amax = c.team_max(amax);
    if (bad || amax == R(0)) {
        // NaN/Inf: w and vectors NaN; zero matrix: w = 0, vectors I.
        const int ids[2] = {c.ik, c.io};
        for (int h = 0; h < 2; ++h) {
            const int j = ids[h];
            if (j >= n) continue;
            if (c.first) w[j] = bad ? R(NAN) : R(0);
            if (p.want_v)
                for (int i = row0; i < row0 + kRows && i < n; ++i)
                    a[i + j * lda] = bad ? core::make_nan<T>() : T(i == j ? 1 : 0);
        }
        if (l == 0) {
            p.info[b] = bad ? BATCHEIG_INFO_NONFINITE : 0;
            if (p.sweeps) p.sweeps[b] = 0;
            if (p.residual) p.residual[b] = bad ? double(NAN) : 0.0;
        }
        return;
    }
    const int e = core::rilogb(amax);
    if (e != 0) {
        const core::jacobi::Pow2Scale<R> scale(e);
#pragma unroll
        for (int kr = 0; kr < kRows; ++kr) {
            c.uk[kr] = scale(c.uk[kr]);
            c.uo[kr] = scale(c.uo[kr]);
        }
    }
    R fro = R(0), dk = R(0), dq = R(0);
#pragma unroll
    for (int kr = 0; kr < kRows; ++kr) {
        fro += abs2(c.uk[kr]) + abs2(c.uo[kr]);
        if (row0 + kr == c.ik) dk = core::real(c.uk[kr]);
        if (row0 + kr == c.io) dq = core::real(c.uo[kr]);
        if constexpr (!G) {
            c.qk[kr] = T(row0 + kr == c.ik ? 1 : 0);
            c.qo[kr] = T(row0 + kr == c.io ? 1 : 0);
        }
    }
    if constexpr (!Cols::kRefreshDiagonal) {  // else the first sweep computes them
        c.slot_sum(dk, dq);  // one slice holds each diagonal entry, the others add zeros
        c.dk = dk;
        c.dO = dq;
    }
    const R normf = core::rsqrt_(c.team_sum(fro));
    // The Gram form (every n > 64, and smaller n by cuda_jacobi_pair_gram)
    // has the doubled floor: the rounding of W^H W adds to U's.
    const R tol = (G ? core::rmax(core::block_tol<R>(opt.tol, n), core::jacobi::lane_gram_tol_floor<R>(n))
                     : core::block_tol<R>(opt.tol, n)) *
                  normf;
    int sweeps = 0;
    R off, lk, lo;
    if constexpr (G) {
        // The Gram form, W = (A + sigma I) Q: first with sigma four times
        // the eigenvalues' root mean square ||A||_F / sqrt(n) (random
        // matrices' spectra lie within about twice that), at most 1.34
        // ||A||_F (>= 1.34 ||A||_2: then A + sigma I is positive definite
        // with its eigenvalues >= sigma / 4, so n <= 9 never retries).
        // If some eigenvalue of A + sigma I comes out below sigma / 4, the
        // sweeps left start again from A (gram_solve returns false; the
        // later tries are described below).
        const R rms = normf / core::rsqrt_(R(n));
        const R heuristic = core::rmin(R(4) * rms, R(1.34) * normf);
        // Column sums of |a_ij| (cabs1 for complex: an upper bound) and
        // the diagonal: ||A||_1, and Gershgorin's bound -lambda_min(A) <=
        // g = max_j (sum over i != j of |a_ij|) - a_jj.
        R ck = R(0), co = R(0), ak = R(0), ao = R(0);
#pragma unroll
        for (int kr = 0; kr < kRows; ++kr) {
            ck += core::abs1(c.uk[kr]);
            co += core::abs1(c.uo[kr]);
            if (row0 + kr == c.ik) ak = core::real(c.uk[kr]);
            if (row0 + kr == c.io) ao = core::real(c.uo[kr]);
        }
        c.slot_sum(ck, co);
        c.slot_sum(ak, ao);  // one slice holds each diagonal entry
        const R a1 = c.team_max(co > ck ? co : ck);
        const R none = -core::limits<R>::huge();
        const R gk = c.ik < n ? ck - core::rabs(ak) - ak : none, go = c.io < n ? co - core::rabs(ao) - ao : none;
        const R gersh = c.team_max(go > gk ? go : gk);
        // The safe shift, the smaller of two that always hold: 1.4 g (at
        // least rms) leaves A + sigma I positive definite with its
        // eigenvalues >= 0.28 sigma, and 2 min(||A||_1, ||A||_F) >=
        // 2 ||A||_2 with its eigenvalues >= sigma / 2.
        const R guaranteed = core::rmin(core::rmax(R(1.4) * gersh, rms), R(2) * core::rmin(a1, normf));
        T *sw = c.xs;
        // (One call site per try: with the tries in a loop, ptxas spilled
        // more around the sweeps in double, and the kernel was slower.)
        // The heuristic shift gets at most kGramFirstSweeps sweeps: with an
        // indefinite B whose eigenvalues come in pairs of nearly opposite
        // sign, its iteration need not converge.
        const bool sure = guaranteed <= heuristic;
        const int first_max = sure ? opt.max_sweeps : core::rmin(opt.max_sweeps, kGramFirstSweeps);
        if (!gram_solve(c, p, first_max, av, e, sure ? guaranteed : heuristic, tol, normf, sw, sweeps, off, lk, lo) &&
            !sure) {
            // The first try's Rayleigh quotients are A's eigenvalues (the
            // iteration on an indefinite B still converges to B's
            // eigenvectors, short of pairs with |lambda + sigma| alike).
            // Where its largest is below 0.6 sigma, -A + sigma I (same
            // shift, so the same floor under the residual) is positive
            // definite: a matrix with a dominant negative eigenvalue is
            // solved as -A. Otherwise, or if that fails too, the safe shift
            // (a larger floor: the rounding of W^H W grows as sigma^2).
            const R none = -core::limits<R>::huge();
            const R top = c.team_max(core::rmax(c.ik < n ? lk : none, c.io < n ? lo : none));
            const bool flip = top <= R(0.6) * heuristic;
            int more = 0;
            gram_reload(c, p, av, e);
            const int left = opt.max_sweeps - sweeps;
            const bool done = gram_solve(c, p, flip ? core::rmin(left, kGramFirstSweeps) : left, av, e,
                                         flip ? heuristic : guaranteed, tol, normf, sw, more, off, lk, lo, flip);
            sweeps += more;
            if (!done && flip) {
                more = 0;
                gram_reload(c, p, av, e);
                gram_solve(c, p, opt.max_sweeps - sweeps, av, e, guaranteed, tol, normf, sw, more, off, lk, lo);
                sweeps += more;
            }
        }
    } else {
        off = core::sweep_to_tolerance(
            opt.max_sweeps, tol, normf, [&] { return c.sweep(); }, [&] { return c.exact_off(); }, sweeps);
        // The two eigenvalues.
        T xk = T(0), xo = T(0);
        R nk = R(0), no = R(0);
#pragma unroll
        for (int kr = 0; kr < kRows; ++kr) {
            xk += conj(c.qk[kr]) * c.uk[kr];
            xo += conj(c.qo[kr]) * c.uo[kr];
            nk += abs2(c.qk[kr]);
            no += abs2(c.qo[kr]);
        }
        c.slot_sum(xk, xo);
        c.slot_sum(nk, no);
        lk = c.ik < n ? core::real(xk) / nk : R(0);
        lo = c.io < n ? core::real(xo) / no : R(0);
    }
    int pk = c.ik, po = c.io;
    if (opt.sort) {
        pk = 0;
        po = 0;
        // Eigenvalue li of player j (< n) comes before lam of player jj.
        auto before = [](R li, int j, R lam, int jj) { return (li < lam || (li == lam && j < jj)) ? 1 : 0; };
        // kWide: every slot's eigenvalues and players through shared memory.
        R *sl = reinterpret_cast<R *>(c.mv);
        int *si = reinterpret_cast<int *>(sl + 2 * P);
        if constexpr (Cols::kWide) {
            __syncthreads();
            if (c.first) {
                sl[2 * c.slot] = lk;
                sl[2 * c.slot + 1] = lo;
                si[2 * c.slot] = c.ik;
                si[2 * c.slot + 1] = c.io;
            }
            __syncthreads();
        }
        for (int i = 0; i < m / 2; ++i) {
            R l1, l2;
            int j1, j2;
            if constexpr (Cols::kWide) {
                l1 = sl[2 * i];
                l2 = sl[2 * i + 1];
                j1 = si[2 * i];
                j2 = si[2 * i + 1];
            } else {
                l1 = c.sh(lk, i);
                l2 = c.sh(lo, i);
                j1 = c.sh(c.ik, i);
                j2 = c.sh(c.io, i);
            }
            if (j1 < n) {
                pk += before(l1, j1, lk, c.ik);
                po += before(l1, j1, lo, c.io);
            }
            if (j2 < n) {
                pk += before(l2, j2, lk, c.ik);
                po += before(l2, j2, lo, c.io);
            }
        }
    }
    // Eigenvalue lam of player j (< n) to w[pos], its column of Q to column
    // pos of A.
    auto put = [&](int j, int pos, R lam, const T(&qc)[kRows]) {
        if (j >= n) return;
        if (c.first) w[pos] = e != 0 ? core::rldexp(lam, e) : lam;
        if (p.want_v) {
            T *dst = a + pos * lda;
#pragma unroll
            for (int kr = 0; kr < kRows; ++kr)
                if (row0 + kr < n) dst[row0 + kr] = qc[kr];
        }
    };
    if constexpr (G) {
        put(c.ik, pk, lk, c.uk);
        put(c.io, po, lo, c.uo);
    } else {
        put(c.ik, pk, lk, c.qk);
        put(c.io, po, lo, c.qo);
    }
    if (l == 0) {
        p.info[b] = off <= tol ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
        if (p.sweeps) p.sweeps[b] = sweeps;
        if (p.residual) p.residual[b] = double(off) / double(normf);
    }
}

template <class T, int P, int S, int MinB, bool G>
batcheigStatus_t launch(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    using Cols = PairColumns<T, P, S, G>;
    constexpr int threads = kBlockThreads<P, S>;
    constexpr int teams = threads / (P * S);
    const std::size_t bytes = Cols::kXBytes + Cols::kMoveBytes + teams * Cols::kTeamBytes;
    auto kernel = syevj_pair_kernel<T, P, S, MinB, G>;
    const batcheigStatus_t st = allow_shared(kernel, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        kernel<<<unsigned((count + teams - 1) / teams), threads, bytes, s>>>(p, opt, b0, count);
    });
}

// The slices and the register bound of plan::tuning for P slots.
template <class T, int P>
batcheigStatus_t launch_tuned(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    constexpr bool G = plan::tuning::cuda_jacobi_pair_gram(sizeof(T), P);
    // Calls of few matrices (the whole call's batch, see SyevjProblem::
    // call_batch) may take more slices, for a shorter chain per step.
    constexpr int SS = plan::tuning::cuda_jacobi_pair_slices_small_batch(sizeof(T), P, G);
    if constexpr (SS != plan::tuning::cuda_jacobi_pair_slices(sizeof(T), P, G)) {
        if (p.whole_batch() <= plan::tuning::kCudaJacobiPairSmallBatch) return launch<T, P, SS, 1, G>(s, p, opt);
    }
    constexpr int S = plan::tuning::cuda_jacobi_pair_slices(sizeof(T), P, G);
    constexpr int MinB = plan::tuning::cuda_jacobi_pair_min_blocks(sizeof(T), P);
    return launch<T, P, S, MinB, G>(s, p, opt);
}

}  // namespace syevj_pair_detail

// The LANE variant: P = N/2 slots for the power of two N >= n.
template <class T>
batcheigStatus_t syevj_lane(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    using namespace syevj_pair_detail;
    if (p.n <= 4) return launch_tuned<T, 2>(s, p, opt);
    if (p.n <= 8) return launch_tuned<T, 4>(s, p, opt);
    if (p.n <= 16) return launch_tuned<T, 8>(s, p, opt);
    if (p.n <= 32) return launch_tuned<T, 16>(s, p, opt);
    if (p.n <= 64) return launch_tuned<T, 32>(s, p, opt);
    if (p.n <= kSyevjLaneMaxN) return launch_tuned<T, 64>(s, p, opt);
    return BATCHEIG_STATUS_NOT_SUPPORTED;
}

}  // namespace batcheig::cuda
