// Execution teams: who runs one core routine on one matrix.
//
// Every geev core routine takes a team as its first argument. A team is a
// group of threads that work on the same matrix together:
//   - SerialTeam (here): one thread; the host backend and the
//     one-matrix-per-thread CUDA variant use it, and every team operation
//     compiles away, so the routine is the plain serial LAPACK algorithm;
//   - the CUDA teams (src/cuda/team.cuh): p lanes of a warp, or a whole
//     thread block, with the matrix in shared or global memory.
//
// The rules every routine follows, so that one source serves all teams:
//   - loops over independent rows, columns or vector entries are split
//     across the team: `for (i = tm.first(lo); i < hi; i += tm.size())`,
//     member r owning the indices congruent to r modulo the team size;
//   - scalar decisions (shifts, deflation tests, pivots) are computed
//     redundantly by every member from the same data, so all members take
//     the same branches; reductions (sum, max, min) and votes (any) are
//     collective and must be reached by every member;
//   - a single entry of shared data is written by the leader only;
//   - tm.sync() separates a phase that writes data from any phase in which
//     another member reads or writes the same data.
#pragma once

#include "core/types.hpp"

namespace batcheig::core {

// team_two_sided<Team>: gehd2 run by this team applies each reflector
// from both sides at once (core/hessenberg.hpp) when given the scratch for
// it. False unless a backend specializes it for its team type, where it was
// measured to pay: the CUDA warp teams from a tuned lane count on
// (cuda/geev/geev_team.cuh), and the tests' OpenMP team, which checks it.
template <class Team>
inline constexpr bool team_two_sided = false;

// team_gehd2_register_len<Team, T>: for a reflector of length m <= this
// value, gehd2's one-sided form run by this team on entries of type T
// holds each row or column it updates in an array of compile-time length
// m (registers on the GPU: one load and one store per entry), with
// bitwise the same results as the general loops (core/hessenberg.hpp).
// 0 (the default): never. A backend specializes it for its teams where it
// was measured to pay (the CUDA backend's reduction-only warp teams,
// cuda/geev/geev_team.cuh).
template <class Team, class T>
inline constexpr int team_gehd2_register_len = 0;

// team_balance_check<Team>: gebal run by this team first checks, in one
// pass with plain sums of squares, whether its scaling loop would scale
// anything, and skips the loop if not (core/balance.hpp,
// detail::bal_unscaled; the results are bitwise the same either way). By
// default the serial team and the wide teams, whose loop costs two team
// norms per index; the CUDA backend adds its reduction-only warp teams of
// every width (cuda/geev/geev_team.cuh). (Two lanes per matrix in the
// one-launch kernel: double n = 5 2.8 % slower with it on an H200.)
template <class Team>
inline constexpr bool team_balance_check = Team::serial || Team::wide;

// team_cpu_blocked<Team>: the team is one CPU thread (the host backend's
// HostTeam, src/host/host_team.hpp). gehd2's and orghr's reflector
// updates then run over blocks of kCpuBlock rows or columns at once
// (core/hessenberg.hpp, detail::reflect_rows_blocked and
// detail::reflect_cols_blocked), and so does trevc's back-transformation
// (core/trevc.hpp, detail::back_transform_blocked). Each entry sees the
// same operations in the same order, so the results are bitwise those of
// the plain loops, but the dot products of a block are independent
// chains (the plain loops wait on one addition per entry) and the loops
// over a row walk down columns instead. Off for every GPU team, whose
// members already work on different rows and columns.
template <class Team>
inline constexpr bool team_cpu_blocked = false;
// The rows or columns that such a team's blocked loops take at once.
template <class T>
inline constexpr index_t kCpuBlock = is_complex<T> ? 4 : 8;

struct SerialTeam {
    static constexpr bool serial = true;
    // wide: the team's reductions take several shuffle levels, so that
    // a vote that spares some of them pays (team_nrm2, team_abs_at_iamax).
    static constexpr bool wide = false;
    BATCHEIG_HD index_t rank() const { return 0; }
    BATCHEIG_HD index_t size() const { return 1; }
    // The first index >= lo that this member owns (indices are owned
    // modulo size(), so ownership does not depend on where a loop starts).
    BATCHEIG_HD index_t first(index_t lo) const { return lo; }
    BATCHEIG_HD bool leader() const { return true; }
    BATCHEIG_HD void sync() const {}
    template <class S> BATCHEIG_HD S sum(S v) const { return v; }
    template <class S> BATCHEIG_HD S max(S v) const { return v; }
    template <class S> BATCHEIG_HD S min(S v) const { return v; }
    // True when v is true in any member (no memory ordering).
    BATCHEIG_HD bool any(bool v) const { return v; }
};

// Sum over the team of a real or complex value.
template <class Team, class S>
BATCHEIG_HD S team_sum(const Team &tm, S v) {
    if constexpr (is_complex<S>) return S(tm.sum(v.re), tm.sum(v.im));
    else return tm.sum(v);
}

// Team searches (collective; test only reads).
// The largest k in (lo, hi] with test(k), else lo: a single thread's
// downward search with an early exit; a team tests its members' indices in
// parallel and takes the maximum.
template <class Team, class F>
BATCHEIG_HD index_t last_true(const Team &tm, index_t lo, index_t hi, F test) {
    if constexpr (Team::serial) {
        index_t k;
        for (k = hi; k > lo; --k)
            if (test(k)) break;
        return k;
    } else {
        index_t found = lo;
        for (index_t k = tm.first(lo + 1); k <= hi; k += tm.size())
            if (test(k)) found = k;  // ascending: the last hit is the largest
        return tm.max(found);
    }
}

// The smallest k in [lo, hi) with test(k), else hi: the upward search, and
// in a team the minimum over the members (each stops testing at its first
// hit).
template <class Team, class F>
BATCHEIG_HD index_t first_true(const Team &tm, index_t lo, index_t hi, F test) {
    if constexpr (Team::serial) {
        index_t k;
        for (k = lo; k < hi; ++k)
            if (test(k)) break;
        return k;
    } else {
        index_t found = hi;
        for (index_t k = tm.first(lo); k < hi; k += tm.size())
            if (found == hi && test(k)) found = k;
        return tm.min(found);
    }
}

}  // namespace batcheig::core
