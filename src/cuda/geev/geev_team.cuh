// Team geev kernels: several threads cooperate on one matrix, running the
// core routines with a CUDA team (cuda/team.cuh):
//   BATCHEIG_ALG_GEEV_CUDA_WARP    p lanes of a warp per matrix (p from the
//                                  tuning table), matrix, Schur vectors and
//                                  scratch in shared memory;
//   BATCHEIG_ALG_GEEV_CUDA_BLOCK   one thread block per matrix, everything in
//                                  shared memory (medium n, up to what fits);
//   BATCHEIG_ALG_GEEV_CUDA_GLOBAL  one thread block per matrix working in
//                                  place in the caller's arrays in global
//                                  memory (any n); eigenvalues only, as the
//                                  block variant while they fit
//                                  (global_uses_band).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/problem.hpp"
#include "core/geev.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/team.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {
// The warp team of the launches that only reduce (Phase::Reduce and
// Phase::ReduceVectors below): a WarpTeam<P> whose gehd2 holds the rows
// and columns of short reflectors in registers
// (core::team_gehd2_register_len, plan::tuning::cuda_geev_gehd2_register_len),
// and whose gebal checks whether its scaling loop would scale anything
// before it runs it (core::team_balance_check), at every width.
// The launches that also run the QR iteration keep WarpTeam<P> and the
// general loops: in them the larger gehd2 changed how the device compiler
// built the QR iteration, and with it the last bits of the eigenvalues
// with vectors against those without (double n = 20, float n = 27-29,
// where the Schur launch keeps the whole matrix). The reduction's results
// are bitwise the same either way.
template <int P>
struct ReduceWarpTeam : WarpTeam<P> {
    __device__ static ReduceWarpTeam make() {
        ReduceWarpTeam t;
        static_cast<WarpTeam<P> &>(t) = WarpTeam<P>::make();
        return t;
    }
};
}  // namespace batcheig::cuda

namespace batcheig::core {
// gehd2's two-sided form for the warp teams of
// plan::tuning::cuda_geev_two_sided_min_lanes lanes or more (a block per
// matrix keeps the one-sided form: not measured there).
template <int P>
inline constexpr bool team_two_sided<cuda::WarpTeam<P>> = P >= plan::tuning::cuda_geev_two_sided_min_lanes;
template <int P>
inline constexpr bool team_two_sided<cuda::ReduceWarpTeam<P>> = team_two_sided<cuda::WarpTeam<P>>;
template <int P>
inline constexpr bool team_balance_check<cuda::ReduceWarpTeam<P>> = true;
template <int P, class T>
inline constexpr int team_gehd2_register_len<cuda::ReduceWarpTeam<P>, T> =
    plan::tuning::cuda_geev_gehd2_register_len(P, is_complex<T>, sizeof(real_t<T>));
}  // namespace batcheig::core

namespace batcheig::cuda {

// Lanes per matrix of the warp variant.
template <class T>
int geev_warp_lanes(int n) {
    return plan::tuning::cuda_geev_warp_lanes(n, core::is_complex<T>, sizeof(core::real_t<T>));
}

// Lanes per matrix of the eigenvector launch with vectors (warp variant).
template <class T>
int geev_vector_lanes(int n) {
    return plan::tuning::cuda_geev_vector_lanes(n, core::is_complex<T>, sizeof(core::real_t<T>));
}

// Lanes per matrix of the QR launch on the band (warp and block variants).
template <class T>
int geev_band_lanes(int n) {
    return plan::tuning::cuda_geev_band_lanes(n, core::is_complex<T>, sizeof(core::real_t<T>));
}

// Threads per block of the block and global variants.
inline int geev_block_threads(int n) { return plan::tuning::cuda_geev_block_threads(n); }

namespace geev_team_detail {

// Leading dimension of a matrix in shared memory: odd, so that a team
// walking along a row (stride ld) hits distinct banks.
__host__ __device__ inline int shared_ld(int n) { return n | 1; }

// A team's slice of shared memory for `bytes` of problem: an odd number of
// elements of T. The teams of a warp work at the same offsets of their
// slices in step (copies, reductions, and often the same phase of the QR
// iteration), so slices a multiple of 32 banks long put them all on one
// bank. With slices rounded to 16 bytes, 4 lanes per matrix, n = 7 (512
// bytes in double), 11 (1 152) and 15 (float, 1 024) ran slower than the
// next larger n (H100, ms per 100 000 matrices: n = 7 / 8: 1.06 / 1.01,
// 11 / 12: 2.74 / 2.40, float 15 / 16: 5.15 / 3.65). An odd element count
// spreads the teams of a warp over the banks.
template <class T>
std::size_t team_slice_bytes(std::size_t bytes) {
    std::size_t e = (bytes + sizeof(T) - 1) / sizeof(T);
    if (e % 2 == 0) ++e;
    return e * sizeof(T);
}

// Shared-memory bytes of a and the vector matrices that are wanted, each
// n columns of shared_ld(n) entries.
template <class T>
std::size_t matrices_bytes(int n, bool want_vl, bool want_vr) {
    const std::size_t mats = 1 + (want_vl ? 1 : 0) + (want_vr ? 1 : 0);
    return mats * std::size_t(shared_ld(n)) * n * sizeof(T);
}

// Shared-memory bytes of one matrix's problem: a, the vector matrices that
// are wanted, and the O(n) scratch (with two_sided, gehd2's: GeevWork::hd),
// as a team's slice (team_slice_bytes).
template <class T>
std::size_t shared_bytes(int n, bool want_vl, bool want_vr, bool two_sided = false) {
    return team_slice_bytes<T>(matrices_bytes<T>(n, want_vl, want_vr) +
                               core::GeevWork<T>::bytes(n, want_vl || want_vr, two_sided));
}

// Shared-memory bytes of one matrix in the eigenvector launch
// (vectors_in_shared): T, the vector matrices that are wanted and the
// vector phase's scratch alone (core::GeevWork::bytes_vectors: not the
// reduction's tau, nor the balancing factors, which stay in the
// workspace), as a team's slice. At double n = 30 with right vectors that
// is 15 848 bytes against shared_bytes' 16 328, and 14 matrices fit on an
// SM (7 blocks of two teams) against 13. Same results bitwise (the
// bitcheck with vectors, n = 5-64, all precisions). Measured on an H100
// (docs/performance.md, session 101; the two slices through a temporary
// switch in one library, two rounds, batch 200 000, ms): double right
// vectors n = 20 / 25 / 30 32.82-32.85 / 49.47-49.49 / 65.06-65.16
// against 32.80-32.84 / 49.46-49.51 / 65.38-65.47; float n = 20 / 30 and
// complex double n = 20 / 30 within 0.3 %.
template <class T>
std::size_t vectors_shared_bytes(int n, bool want_vl, bool want_vr) {
    return team_slice_bytes<T>(matrices_bytes<T>(n, want_vl, want_vr) + core::GeevWork<T>::bytes_vectors(n));
}

// True when one matrix's problem (shared_bytes) and a block team's
// reduction slots fit in one block's shared memory.
template <class T>
bool problem_fits_shared(int n, bool want_vl, bool want_vr) {
    return shared_bytes<T>(n, want_vl, want_vr) + kTeamScratchBytes <= std::size_t(shared_optin_bytes());
}

// f(e, i, j) for this member's flat indices e in [0, count) (e congruent
// to its rank modulo the team size), with (i, j) = (e % n, e / n) stepped
// along without a division per index (the band's stores in reduce_in_shared
// and loads in qr_in_band).
template <class Team, class F>
__device__ void for_each_flat(const Team &tm, int count, int n, F f) {
    const int step = tm.size(), dj = step / n, di = step - dj * n;
    int e = tm.first(0), j = e / n, i = e - j * n;
    for (; e < count; e += step) {
        f(e, i, j);
        i += di;
        j += dj;
        if (i >= n) {
            i -= n;
            ++j;
        }
    }
}

// Copy an n x n matrix between the caller's column-major array g (leading
// dimension ldg) and shared memory s (leading dimension ld), over the team,
// element e = i + j n by member e mod size (without a division per
// element: for_each_flat).
template <bool ToShared, class T, class Team>
__device__ void copy_matrix(const Team &tm, int n, T *s, int ld, T *g, std::int64_t ldg) {
    for_each_flat(tm, n * n, n, [&](int, int i, int j) {
        if constexpr (ToShared) s[i + j * ld] = g[i + j * ldg];
        else g[i + j * ldg] = s[i + j * ld];
    });
}

// Eigenvalues of matrix b of p with team tm, the matrix in shared memory at
// smem (the team's slice, shared_bytes<T>(n, false, false) long). Compiled
// without the vector path (fewer registers); with vectors the problem runs
// in the two phases below.
template <class T, class Team>
__device__ void eigenvalues_in_shared(const Team &tm, const GeevProblem<T> &p, std::int64_t b, unsigned char *smem) {
    using R = core::real_t<T>;
    const int n = p.n, ld = shared_ld(n);
    T *sa = reinterpret_cast<T *>(smem);
    copy_matrix<true>(tm, n, sa, ld, p.A + b * std::int64_t(p.lda) * n, p.lda);
    tm.sync();
    const core::SharedView<T> a{sa, ld}, none{nullptr, ld};
    const core::GeevWork<T> ws =
        core::GeevWork<T>::carve(sa + std::size_t(ld) * n, n, false, core::two_sided_gehd2<Team, T>);
    const int info = core::geev<T>(tm, false, false, n, a, core::VecView<T>{p.w + b * n, 1},
                                   core::VecView<R>{p.wi ? p.wi + b * n : nullptr, 1}, none, none, ws,
                                   p.max_iterations);
    if (tm.leader()) p.info[b] = info;
}

// The matrix of this thread's team of P lanes among the block's teams
// (blockDim.x / P of them), and the team's slice of the block's shared
// memory; false when the team has no matrix (whole teams leave together).
template <int P>
__device__ bool team_matrix(std::int64_t count, unsigned slice, unsigned char *smem, std::int64_t &k,
                            unsigned char *&mine) {
    const int team = threadIdx.x / P;
    k = std::int64_t(blockIdx.x) * (blockDim.x / P) + team;
    mine = smem + std::size_t(team) * slice;
    return k < count;
}

// ---- With vectors: two launches (warp and block variants) --------------------
// With eigenvectors the one-kernel form is ~450 KB of machine code (QR with
// Schur vectors, eigenvector solves, normalization); the warps of an SM are
// in different phases, and most of their cycles went to instruction fetch
// (Nsight Compute, H100, n = 30, 32 lanes: 17.2 cycles per issued
// instruction, 10.6 of them waiting for an instruction). So the problem runs
// in two launches, each with about half the code and its own register
// budget: schur_in_shared (core::geev_schur: balancing, Hessenberg, QR with
// the Schur vectors), which leaves T in the caller's A (whose contents are
// unspecified on exit), the Schur vectors in VL (or VR), and the phase
// state and balancing factors in the workspace (GeevSplit); then
// vectors_in_shared (core::geev_vectors and core::geev_finish). The block
// variant (one block per matrix) runs the same two phases. In the real
// types the warp variant may split the Schur launch once more, so that its
// QR keeps only the band in shared memory (schur_qr_in_band below).

// Per-matrix state between the two launches, in the workspace: the states
// of a piece of the batch, then their balancing factors (n each).
template <class T>
struct GeevSplit {
    using R = core::real_t<T>;
    core::GeevState<R> *state;
    R *scale;
    // With the Schur form by replay (see replay_in_band below; else null):
    // each matrix's band of H as the QR stages leave it (band_elements(n)
    // elements apart) and its QR log (log_slots apart).
    T *band = nullptr;
    T *log = nullptr;
    int log_slots = 0;
    // Eigenvalues only (with_scale false), or with the replay: one counter
    // per QR stage launch (launch_band_qr), from which its teams take their
    // matrices.
    unsigned long long *next = nullptr;
    static constexpr int kStageCounters = 32;

    __host__ __device__ static std::size_t band_elements(int n) {
        return std::size_t(core::HessBandView<T>::used_elements(n));
    }

    // with_scale false: the states and the stage counters (eigenvalues
    // only, where the balancing factors are not needed after the first
    // launch; scale is then null). replay: the states, the balancing
    // factors, the stage counters, and the bands and logs of the replay.
    static std::size_t bytes(int n, std::int64_t count, bool with_scale = true, bool replay = false) {
        std::size_t b = align256(sizeof(core::GeevState<R>) * std::size_t(count)) +
                        (with_scale ? align256(sizeof(R) * std::size_t(n) * std::size_t(count)) : 0) +
                        (!with_scale || replay ? counter_bytes() : 0);
        if (replay)
            b += align256(sizeof(T) * band_elements(n) * std::size_t(count)) +
                 align256(sizeof(T) * std::size_t(plan::tuning::cuda_geev_replay_log_slots(n)) * std::size_t(count));
        return b;
    }
    static GeevSplit carve(void *work, int n, std::int64_t count, bool with_scale = true, bool replay = false) {
        auto *base = static_cast<unsigned char *>(work);
        std::size_t at = align256(sizeof(core::GeevState<R>) * std::size_t(count));
        GeevSplit sp{reinterpret_cast<core::GeevState<R> *>(base), nullptr};
        if (with_scale) {
            sp.scale = reinterpret_cast<R *>(base + at);
            at += align256(sizeof(R) * std::size_t(n) * std::size_t(count));
        }
        if (!with_scale || replay) {
            sp.next = reinterpret_cast<unsigned long long *>(base + at);
            at += counter_bytes();
        }
        if (replay) {
            sp.band = reinterpret_cast<T *>(base + at);
            sp.log = reinterpret_cast<T *>(base + at + align256(sizeof(T) * band_elements(n) * std::size_t(count)));
            sp.log_slots = plan::tuning::cuda_geev_replay_log_slots(n);
        }
        return sp;
    }
    static std::size_t counter_bytes() { return align256(sizeof(unsigned long long) * kStageCounters); }
};

// Shared-memory bytes of one matrix in the Schur launch: a, the Schur
// vectors and the O(n) scratch (the balancing factors live in the workspace).
template <class T>
std::size_t schur_shared_bytes(int n, bool two_sided = false) {
    return team_slice_bytes<T>(2 * std::size_t(shared_ld(n)) * n * sizeof(T) +
                               core::GeevWork<T>::bytes(n, false, two_sided));
}

// The band of the Hessenberg matrix in a (rows to three below the
// diagonal) into the caller's A at A(e % n, e / n), e its index in
// core::HessBandView's packing.
template <class T, class Team>
__device__ void store_band(const Team &tm, int n, const core::SharedView<T> &a, T *A, std::int64_t lda) {
    // Column j of the band: rows 0..j+3 (zero below row n-1), at band
    // offsets [o, o + j + 4); a member's e only grows.
    int j = 0, o = 0;
    for_each_flat(tm, core::HessBandView<T>::used_elements(n), n, [&](int e, int r, int c) {
        while (o + j + 4 <= e) o += j++ + 4;
        const int i = e - o;
        A[r + std::int64_t(c) * lda] = i < n ? a(i, j) : T(0);
    });
}

// The first `count` elements of the band kept in the caller's A
// (store_band) into shared memory at sh, or (ToShared false) back.
template <bool ToShared, class T, class Team>
__device__ void copy_band(const Team &tm, int n, int count, T *sh, T *A, std::int64_t lda) {
    for_each_flat(tm, count, n, [&](int e, int r, int c) {
        if constexpr (ToShared) sh[e] = A[r + std::int64_t(c) * lda];
        else A[r + std::int64_t(c) * lda] = sh[e];
    });
}

// store_band from H in the caller's A itself (in place in global memory):
// band element e goes to A(e % n, e / n), and H's entry (i, j) that it
// copies lies at A(i, j), flat index i + j n >= e (the band's column
// offsets grow as j (j + 7) / 2 <= j n for n >= 7: band_fits_in_a), and
// later elements' sources at higher ones. So the team moves the band
// tm.size() elements at a time, each group read whole before any of it is
// written, and a write never meets an entry still to be read. (With
// lda > n the order of the addresses is that of the flat indices.)
template <class T, class Team>
__device__ void store_band_in_place(const Team &tm, int n, T *A, std::int64_t lda) {
    const int used = core::HessBandView<T>::used_elements(n);
    int j = 0, o = 0;  // the column of a member's element e, and its offset
    for (int base = 0; base < used; base += tm.size()) {
        const int e = base + tm.rank();
        T v = T(0);
        if (e < used) {
            while (o + j + 4 <= e) o += j++ + 4;
            const int i = e - o;
            if (i < n) v = A[i + std::int64_t(j) * lda];
        }
        tm.sync();
        if (e < used) A[e % n + std::int64_t(e / n) * lda] = v;
        tm.sync();
    }
}

// Where the Schur vectors of matrix b of p are accumulated: VL when the
// left vectors are wanted, else VR (leading dimension in ldz).
template <class T>
__device__ T *schur_vectors(const GeevProblem<T> &p, std::int64_t b, std::int64_t &ldz) {
    ldz = p.want_vl ? p.ldvl : p.ldvr;
    return p.want_vl ? p.VL + b * std::int64_t(p.ldvl) * p.n : p.VR + b * std::int64_t(p.ldvr) * p.n;
}

// Phase 1 of matrix b of p (of a piece of the batch) with team tm, its
// shared memory at smem (schur_shared_bytes<T>() long; with Band,
// reduce_vectors_shared_bytes<T>()). With Band, the first of the band
// form's two Schur launches (see schur_qr_in_band below): only
// core::geev_reduce, the band of H to A (store_band), and the Schur
// vectors' start, the reduction's orthogonal factor, to VL (or VR). The
// factor is formed in a's own storage once the band is out
// (core::orghr_in_place, bitwise core::orghr's), so this launch holds one
// n x n array per team, as the eigenvalues' reduction launch does, and as
// that one asks for three blocks of 256 threads (kWarpPhaseMinBlocks).
// Double n = 30 with right vectors, 65 536 matrices on an H200: 3.20 ms
// with the factor in a second array (94 registers, 13.8 warps per SM),
// 2.70 ms so (80 registers, 23.6 warps per SM); docs/performance.md,
// session 74.
template <bool Band, class T, class Team>
__device__ void schur_in_shared(const Team &tm, const GeevProblem<T> &p, const GeevSplit<T> &sp, std::int64_t b,
                                unsigned char *smem) {
    using R = core::real_t<T>;
    const int n = p.n, ld = shared_ld(n);
    T *sa = reinterpret_cast<T *>(smem);
    T *sz = Band ? nullptr : sa + std::size_t(ld) * n;
    T *A = p.A + b * std::int64_t(p.lda) * n;
    std::int64_t ldz;
    T *Z = schur_vectors(p, b, ldz);
    copy_matrix<true>(tm, n, sa, ld, A, p.lda);
    tm.sync();
    core::GeevWork<T> ws = core::GeevWork<T>::carve(sa + std::size_t(ld) * n * (Band ? 1 : 2), n, false,
                                                    core::two_sided_gehd2<Team, T>);
    ws.scale = core::VecView<R>{sp.scale + b * n, 1};
    const core::SharedView<T> a{sa, ld};
    const core::VecView<T> w{p.w + b * n, 1};
    const core::VecView<R> wi{p.wi ? p.wi + b * n : nullptr, 1};
    core::GeevState<R> st;
    if constexpr (Band) {
        core::geev_reduce(tm, false, n, a, w, wi, core::SharedView<T>{nullptr, ld}, ws, st);
        tm.sync();  // H is complete
        const bool ok = st.info == 0;
        if (ok) {
            store_band(tm, n, a, A, p.lda);
            tm.sync();  // every member has read the band
            core::orghr_in_place(tm, st.ilo, st.ihi, a, ws.tau);
        }
        // Q (or, for non-finite input, NaN as core::geev_reduce leaves
        // its z) to the caller's array.
        const int ilo = st.ilo, ihi = st.ihi;
        for_each_flat(tm, n * n, n, [&](int, int i, int j) {
            Z[i + j * ldz] = ok ? core::orghr_in_place_entry(a, ilo, ihi, i, j) : core::make_nan<T>();
        });
    } else {
        core::geev_schur(tm, true, n, a, w, wi, core::SharedView<T>{sz, ld}, ws, p.max_iterations, st);
        tm.sync();  // the Schur form and the vectors are complete
        copy_matrix<false>(tm, n, sa, ld, A, p.lda);
        copy_matrix<false>(tm, n, sz, ld, Z, ldz);
    }
    if (tm.leader()) sp.state[b] = st;
}

// Shared-memory bytes of one matrix in schur_in_shared<true>: a and the
// O(n) scratch, as the eigenvalues' reduction launch.
template <class T>
std::size_t reduce_vectors_shared_bytes(int n, bool two_sided) {
    return shared_bytes<T>(n, false, false, two_sided);
}

// Phase 2 of matrix b of p with team tm, its shared memory at smem
// (vectors_shared_bytes<T>() long). T and the Schur vectors both come
// into shared memory. Leaving the vectors in VL / VR (global memory) and running the
// solves' back-transformation, gebak and the normalization on them there
// halves the shared memory per matrix, but was slower at every size and
// type measured: double n = 12-48 +4 to +26 %, n = 30 +7 %, float n = 30 /
// 46 +8 / +20 %, complex double n = 20 / 30 +6 / +4 % (H200, session 75,
// docs/performance.md).
template <class T, class Team>
__device__ void vectors_in_shared(const Team &tm, const GeevProblem<T> &p, const GeevSplit<T> &sp, std::int64_t b,
                                  unsigned char *smem) {
    using R = core::real_t<T>;
    const int n = p.n, ld = shared_ld(n);
    const bool want_vl = p.want_vl, want_vr = p.want_vr;
    T *sa = reinterpret_cast<T *>(smem);
    T *svl = sa + std::size_t(ld) * n;
    T *svr = want_vl ? svl + std::size_t(ld) * n : svl;
    T *sw = want_vr ? svr + std::size_t(ld) * n : svr;
    T *VL = want_vl ? p.VL + b * std::int64_t(p.ldvl) * n : nullptr;
    T *VR = want_vr ? p.VR + b * std::int64_t(p.ldvr) * n : nullptr;
    const core::GeevState<R> st = sp.state[b];
    copy_matrix<true>(tm, n, sa, ld, p.A + b * std::int64_t(p.lda) * n, p.lda);
    if (want_vl) copy_matrix<true>(tm, n, svl, ld, VL, p.ldvl);
    else copy_matrix<true>(tm, n, svr, ld, VR, p.ldvr);
    tm.sync();
    // xt and cn in shared memory, beside T (core::x_column relies on xt's
    // being there); the balancing factors stay in global memory.
    core::GeevWork<T> ws = core::GeevWork<T>::carve_vectors(sw, n);
    ws.scale = core::VecView<R>{sp.scale + b * n, 1};
    const core::SharedView<T> vl{want_vl ? svl : nullptr, ld}, vr{want_vr ? svr : nullptr, ld};
    const core::VecView<R> wi{p.wi ? p.wi + b * n : nullptr, 1};
    core::geev_vectors(tm, want_vl, want_vr, n, core::SharedView<T>{sa, ld}, wi, vl, vr, ws, st);
    const int info = core::geev_finish(tm, want_vl, want_vr, n, core::VecView<T>{p.w + b * n, 1}, wi, vl, vr, st);
    if (tm.leader()) p.info[b] = info;
    // geev_finish ends with a sync: the vectors are complete.
    if (want_vl) copy_matrix<false>(tm, n, svl, ld, VL, p.ldvl);
    if (want_vr) copy_matrix<false>(tm, n, svr, ld, VR, p.ldvr);
}

// ---- Eigenvalues only, the QR phase on the packed band: two launches -------
// The QR iteration reads and writes only H and the two subdiagonals below
// it, n(n+7)/2 elements (core::HessBandView) against n(n|1) for the whole
// matrix: at n = 30 in double 4.4 KB against 7.4 KB per matrix. With the
// whole matrix in shared memory, shared memory bounds the matrices resident
// per SM from n ~ 20 on; in the band, about 1.7 times as many fit. So from
// plan::tuning::cuda_geev_band_min_n on, the eigenvalues run in two
// launches: reduce_in_shared (core::geev_reduce: scaling, balancing,
// Hessenberg reduction, on the whole matrix) leaves the band in the
// caller's A (whose contents are unspecified on exit) and the state in the
// workspace (GeevSplit, states only); qr_in_band (core::geev_qr_stage and
// core::geev_finish, in one launch per stage: see below) runs the QR
// iteration on the band, with its own lane count
// (plan::tuning::cuda_geev_band_lanes). The QR iteration's results do
// not depend on the lane count (every entry is updated by one lane, the
// reflectors and shifts are computed by every lane alike), so the
// eigenvalues are bitwise those of the one-launch form.

// Elements of the band that a QR stage holding its first m columns
// reads and writes: the columns whole (a column's rows to three below
// the diagonal), except at m = n, where the last three lie outside the
// matrix (core::HessBandView::used_elements).
template <class T>
__host__ __device__ inline int band_stage_elements(int n, int m) {
    using Band = core::HessBandView<T>;
    return m < n ? Band::offset(m) : Band::used_elements(n);
}

// Where the QR stage that holds the first m columns of an order-n band
// pauses (0: it runs to the end; plan::tuning::cuda_geev_band_stage).
template <class T>
int band_stage_pause(int n, int m, std::int64_t batch) {
    return plan::tuning::cuda_geev_band_stage(n, m, batch, core::is_complex<T>, sizeof(core::real_t<T>));
}

// Shared-memory bytes of one matrix's band with P lanes per matrix. In
// double: its used elements (core::HessBandView::used_elements, without
// the three past the matrix's last row), padded so that the teams of a
// warp start at offsets that spread their accesses over the banks
// (plan::tuning::cuda_geev_band_slice_bytes; 4-10 % faster at n = 12-26).
// Elsewhere the whole packing as an odd element count (team_slice_bytes),
// which measured faster there.
// A stage of the QR launches (see qr_in_band) that holds the first m
// columns of an order-n band (m = n: the whole band) keeps
// band_stage_elements(n, m) elements.
template <class T>
std::size_t band_shared_bytes(int n, int lanes, int m) {
    using Band = core::HessBandView<T>;
    if (plan::tuning::cuda_geev_band_slice_spread(core::is_complex<T>, sizeof(core::real_t<T>)))
        return plan::tuning::cuda_geev_band_slice_bytes(std::size_t(band_stage_elements<T>(n, m)) * sizeof(T), lanes);
    return team_slice_bytes<T>(std::size_t(Band::elements(m)) * sizeof(T));
}
template <class T>
std::size_t band_shared_bytes(int n, int lanes) {
    return band_shared_bytes<T>(n, lanes, n);
}

// Element e of the band (core::HessBandView's packing) is kept in the
// caller's A at A(e % n, e / n): elements(n) <= n^2 from n = 7 on.
__host__ __device__ inline bool band_fits_in_a(int n) { return n >= 7; }

// Phase 1 (eigenvalues only) of matrix b of p with team tm, its shared
// memory at smem (shared_bytes<T>(n, false, false) long).
template <class T, class Team>
__device__ void reduce_in_shared(const Team &tm, const GeevProblem<T> &p, const GeevSplit<T> &sp, std::int64_t b,
                                 unsigned char *smem) {
    using R = core::real_t<T>;
    const int n = p.n, ld = shared_ld(n);
    T *sa = reinterpret_cast<T *>(smem);
    T *A = p.A + b * std::int64_t(p.lda) * n;
    copy_matrix<true>(tm, n, sa, ld, A, p.lda);
    tm.sync();
    const core::SharedView<T> a{sa, ld}, none{nullptr, ld};
    const core::GeevWork<T> ws =
        core::GeevWork<T>::carve(sa + std::size_t(ld) * n, n, false, core::two_sided_gehd2<Team, T>);
    core::GeevState<R> st;
    core::geev_reduce(tm, false, n, a, core::VecView<T>{p.w + b * n, 1},
                      core::VecView<R>{p.wi ? p.wi + b * n : nullptr, 1}, none, ws, st);
    tm.sync();  // H is complete
    if (st.info == 0) store_band(tm, n, a, A, p.lda);
    if (tm.leader()) sp.state[b] = st;
}

// Phase 2 (eigenvalues only) of matrix b of p with team tm, the band in
// shared memory at smem (band_shared_bytes<T>(n, P, m) long): one stage of
// the QR iteration (core::QrStage), run only where the matrix's
// unfinished block ends at a row in [pause, m). It loads the band's
// columns up to that row, runs the QR iteration to the first deflation
// that leaves the block ending below row pause, and (pause > 0) stores
// those columns back to the caller's A for the next stage, whose launch
// keeps fewer columns per matrix in shared memory and so more matrices
// per SM. The last stage (pause = 0) ends with core::geev_finish.
// With Logged (real types, with vectors: the Schur form by replay, see
// replay_in_band below), the stage also keeps the QR's log (sp.log), reads
// the band from A only at the start (after that from sp.band), stores
// every column it loaded to sp.band (so that the columns that deflated in
// it keep T's values there, and A keeps H's band for the fallback), and
// leaves geev_finish to the eigenvector launch.
template <bool Logged, class T, class Team>
__device__ void qr_in_band(const Team &tm, const GeevProblem<T> &p, const GeevSplit<T> &sp, std::int64_t b,
                           unsigned char *smem, int pause) {
    using R = core::real_t<T>;
    const int n = p.n;
    T *sh = reinterpret_cast<T *>(smem);
    T *A = p.A + b * std::int64_t(p.lda) * n;
    core::GeevState<R> st = sp.state[b];
    const core::HessBandView<T> h{sh}, none{nullptr};
    const core::VecView<T> w{p.w + b * n, 1};
    const core::VecView<R> wi{p.wi ? p.wi + b * n : nullptr, 1};
    if constexpr (Logged) {
        if (st.info == 0 && st.qr_at >= st.ilo && st.qr_at >= pause) {
            T *band = sp.band + b * std::int64_t(GeevSplit<T>::band_elements(n));
            const bool fresh = st.qr_at == st.ihi;
            const int count = band_stage_elements<T>(n, st.qr_at + 1);
            copy_band<true>(tm, n, count, sh, fresh ? A : band, fresh ? p.lda : n);
            if (fresh) {
                // The columns right of the block (balancing isolated their
                // rows) go to the workspace as they are: the replay reads
                // the whole band there.
                const int total = core::HessBandView<T>::used_elements(n);
                for (int e = tm.first(count); e < total; e += tm.size())
                    band[e] = A[e % n + std::int64_t(e / n) * p.lda];
            }
            tm.sync();
            core::geev_qr_stage_logged(tm, n, h, w, wi, p.max_iterations, st, pause,
                                       sp.log + b * std::int64_t(sp.log_slots), sp.log_slots);
            copy_band<false>(tm, n, count, sh, band, n);
            if (tm.leader()) sp.state[b] = st;
        }
        return;
    }
    if (st.info == 0 && st.qr_at >= st.ilo && st.qr_at >= pause) {
        copy_band<true>(tm, n, band_stage_elements<T>(n, st.qr_at + 1), sh, A, p.lda);
        tm.sync();
        core::geev_qr_stage(tm, n, h, w, wi, p.max_iterations, st, pause);
        if (pause > 0) {
            if (st.info == 0 && st.qr_at >= st.ilo)
                copy_band<false>(tm, n, band_stage_elements<T>(n, st.qr_at + 1), sh, A, p.lda);
            if (tm.leader()) sp.state[b] = st;
        }
    }
    if (pause > 0) return;
    const int info = core::geev_finish(tm, false, false, n, w, wi, none, none, st);
    if (tm.leader()) p.info[b] = info;
}

// ---- With vectors, the QR phase on the band: three launches ----------------
// In the Schur launch above, shared memory holds a and the Schur vectors
// for the whole QR iteration (2 n (n|1) entries, 15 KB per matrix at
// double n = 30), which bounds the matrices resident per SM. From
// plan::tuning::cuda_geev_schur_band on, the warp variant splits it:
// schur_in_shared<true> (core::geev_reduce with the Schur vectors' start,
// on the whole matrix) leaves the band of H in the caller's A
// (store_band), the Schur vectors so far in VL (or VR), the state and
// balancing factors in the workspace; schur_qr_in_band (core::geev_qr with
// the Schur form and vectors) then keeps only the band and the Schur
// vectors in shared memory (n (n+7)/2 + n (n|1) entries), and leaves the
// Schur form in A (zero below its third subdiagonal) and the Schur vectors
// in VL (or VR) for vectors_in_shared. Each entry sees the same arithmetic
// as in the Schur launch, so in the real types the results are bitwise the
// same; in every type the eigenvalues are bitwise those of the eigenvalue
// launches (in the complex types since core::complex's product is written
// with explicit FMAs on the GPU: plan/tuning.hpp, cuda_geev_schur_band).

// Shared-memory bytes of one matrix in schur_qr_in_band: the Schur vectors,
// then the band.
template <class T>
std::size_t schur_band_shared_bytes(int n) {
    return team_slice_bytes<T>((std::size_t(shared_ld(n)) * n + core::HessBandView<T>::elements(n)) * sizeof(T));
}

// Phase 2 of the three launches: matrix b of p with team tm, its shared
// memory at smem (schur_band_shared_bytes<T>() long). Nothing to do unless
// the reduction went through (st.info 0; else geev_reduce has already
// set the eigenvalues and the Schur vectors).
template <class T, class Team>
__device__ void schur_qr_in_band(const Team &tm, const GeevProblem<T> &p, const GeevSplit<T> &sp, std::int64_t b,
                                 unsigned char *smem) {
    using R = core::real_t<T>;
    core::GeevState<R> st = sp.state[b];
    if (st.info != 0) return;
    // With the replay, only the matrices whose log overflowed.
    if (sp.log && st.qr_log >= 0) return;
    const int n = p.n, ld = shared_ld(n);
    T *sz = reinterpret_cast<T *>(smem);
    T *sh = sz + std::size_t(ld) * n;
    T *A = p.A + b * std::int64_t(p.lda) * n;
    std::int64_t ldz;
    T *Z = schur_vectors(p, b, ldz);
    copy_band<true>(tm, n, core::HessBandView<T>::used_elements(n), sh, A, p.lda);
    copy_matrix<true>(tm, n, sz, ld, Z, ldz);
    tm.sync();
    const core::HessBandView<T> h{sh};
    core::geev_qr(tm, true, n, h, core::VecView<T>{p.w + b * n, 1},
                  core::VecView<R>{p.wi ? p.wi + b * n : nullptr, 1}, core::SharedView<T>{sz, ld},
                  p.max_iterations, st);
    // (geev_qr ends with a sync: T and the Schur vectors are complete.)
    for_each_flat(tm, n * n, n, [&](int, int i, int j) { A[i + std::int64_t(j) * p.lda] = i <= j + 3 ? h(i, j) : T(0); });
    copy_matrix<false>(tm, n, sz, ld, Z, ldz);
    if (tm.leader()) sp.state[b] = st;
}

// ---- With vectors, the Schur form by replay (real types) -------------------
// The Schur launch above does three times the work of a chase step of the
// eigenvalue launches per step (the rows of T to column n-1, its columns
// from row 0, and n rows of Z), with the reflector and the barriers of
// every step on the team's critical path. In the real types the warp
// variant can instead (plan::tuning::cuda_geev_replay):
//   1. reduce as above (schur_in_shared<true>: H's band to A, the
//      reduction's orthogonal factor to VL or VR);
//   2. run the eigenvalues' QR stages (qr_in_band<true>, the lanes and
//      stages of the eigenvalue launches) on the band, each keeping the
//      QR's log (core::QrLog) in the workspace, and the band as it leaves
//      it in the workspace too;
//   3. replay the log (replay_in_band, core::qr_replay): each lane owns
//      rows of Z and rows or columns of T and applies every logged chase
//      step to them in order, with no barrier between steps; T goes to A
//      and Z to VL or VR, bitwise as the Schur launch would have left them;
//   4. run the Schur launch (schur_qr_in_band) only for the matrices whose
//      log overflowed its room (plan::tuning::cuda_geev_replay_log_slots),
//      from H's band in A and the orthogonal factor, both untouched;
//   5. the eigenvector launch, unchanged.
// The eigenvalues are those of the eigenvalue launches, so, as before,
// bitwise those of a call without vectors.

// Shared-memory bytes of one matrix in replay_in_band: the Schur vectors,
// the band, and a scratch entry per lane (core::qr_replay).
template <class T>
std::size_t replay_shared_bytes(int n, int lanes) {
    return team_slice_bytes<T>((std::size_t(shared_ld(n)) * n + core::HessBandView<T>::elements(n) + lanes) *
                               sizeof(T));
}

// Step 3 of the replay: matrix b of p with team tm, its shared memory at
// smem (replay_shared_bytes<T>(n, tm.size()) long).
// L: lines of each kind per lane (core::qr_replay).
template <int L, class T, class Team>
__device__ void replay_in_band(const Team &tm, const GeevProblem<T> &p, const GeevSplit<T> &sp, std::int64_t b,
                               unsigned char *smem) {
    using R = core::real_t<T>;
    const core::GeevState<R> st = sp.state[b];
    if (st.info != 0 || st.qr_log < 0) return;
    const int n = p.n, ld = shared_ld(n);
    T *sz = reinterpret_cast<T *>(smem);
    T *sh = sz + std::size_t(ld) * n;
    T *A = p.A + b * std::int64_t(p.lda) * n;
    std::int64_t ldz;
    T *Z = schur_vectors(p, b, ldz);
    // The band as the QR stages left it in the workspace, or, where none
    // ran (balancing isolated every row, so the block is empty), H's band
    // in A.
    const bool fresh = st.qr_at == st.ihi;
    copy_band<true>(tm, n, core::HessBandView<T>::used_elements(n), sh,
                    fresh ? A : sp.band + b * std::int64_t(GeevSplit<T>::band_elements(n)), fresh ? p.lda : n);
    copy_matrix<true>(tm, n, sz, ld, Z, ldz);
    tm.sync();
    const core::HessBandView<T> h{sh};
    core::qr_replay<L>(tm, n, st.ilo, st.ihi, sp.log + b * std::int64_t(sp.log_slots), core::index_t(st.qr_log), h,
                       core::SharedView<T>{sz, ld}, sh + core::HessBandView<T>::elements(n) + tm.rank(),
                       n >= plan::tuning::cuda_geev_replay_tandem_from);
    // (qr_replay ends with a sync.) T is zero two and more rows below
    // its diagonal (the QR stages may leave old bulges there).
    for_each_flat(tm, n * n, n, [&](int, int i, int j) { A[i + std::int64_t(j) * p.lda] = i <= j + 1 ? h(i, j) : T(0); });
    copy_matrix<false>(tm, n, sz, ld, Z, ldz);
}

// The launches of the multi-launch forms: with vectors Schur then Vectors
// (or ReduceVectors, SchurBandQR, then Vectors; or ReduceVectors, the
// logged QR stages, Replay, SchurBandQR for the overflowed logs, then
// Vectors), eigenvalues on the band Reduce then the QR stages
// (geev_band_qr_kernel).
enum class Phase { Schur, Vectors, Reduce, ReduceVectors, SchurBandQR };

template <Phase F, class T, class Team>
__device__ void run_phase(const Team &tm, const GeevProblem<T> &p, const GeevSplit<T> &sp, std::int64_t b,
                          unsigned char *smem) {
    if constexpr (F == Phase::Schur) schur_in_shared<false>(tm, p, sp, b, smem);
    else if constexpr (F == Phase::Vectors) vectors_in_shared(tm, p, sp, b, smem);
    else if constexpr (F == Phase::Reduce) reduce_in_shared(tm, p, sp, b, smem);
    else if constexpr (F == Phase::ReduceVectors) schur_in_shared<true>(tm, p, sp, b, smem);
    else schur_qr_in_band(tm, p, sp, b, smem);
}

// A phase with P lanes of a warp per matrix, and with a block per matrix.
// The explicit minimum of one block per SM leaves ptxas free to use up to
// 255 registers: without it, ptxas chose fewer and spilled (double, the
// Schur launch with 32 lanes: 80 registers and 108 bytes of spills against
// 104 and none, n = 30 with vectors 9 % slower; the QR launch on the band,
// now geev_band_qr_kernel, which keeps the minimum: 64 and 4 bytes against
// 68 and none, 2 % slower at n = 20-30; H100). The
// one-launch kernel below keeps ptxas's choice: with the minimum it took 89
// registers instead of 80 and was 10-19 % slower at n = 5-10. The
// exception: the eigenvalues' reduction launch with gehd2's two-sided form
// asks for 3 blocks of 256 threads (80 registers); with the minimum of one
// it took 92 and lost a block per SM (plan::tuning::
// cuda_geev_two_sided_min_lanes). So does the one with gehd2's rows in
// registers (plan::tuning::cuda_geev_gehd2_register_len): with the
// minimum of one it took 128 and lost a block per SM where shared memory
// admits three (double n <= 16). The reduction launch with the orthogonal
// factor (Phase::ReduceVectors), whose shared memory is the eigenvalues'
// reduction's since it forms the factor in place, asks for the same.
template <class T, int P, Phase F>
inline constexpr int kWarpPhaseMinBlocks =
    (F == Phase::Reduce || F == Phase::ReduceVectors) &&
            (core::two_sided_gehd2<ReduceWarpTeam<P>, T> || core::team_gehd2_register_len<ReduceWarpTeam<P>, T> > 0)
        ? 3
        : 1;
// And in double the band form's QR launch with the Schur vectors, and the
// whole-matrix Schur launch with 32 lanes, are held to
// plan::tuning::cuda_geev_schur_registers_d (a fifth warp per scheduler),
// float's whole-matrix Schur launch with 2 lanes to
// plan::tuning::cuda_geev_schur_registers_s2 (a sixth); 255: no bound
// beyond the launch bounds'.
template <class T, int P, Phase F>
inline constexpr int kWarpPhaseMaxRegs =
    std::is_same_v<T, double> && (F == Phase::SchurBandQR || (F == Phase::Schur && P == 32))
        ? plan::tuning::cuda_geev_schur_registers_d
        : std::is_same_v<T, float> && F == Phase::Schur && P == 2 ? plan::tuning::cuda_geev_schur_registers_s2
        : 255;
template <class T, int P, Phase F>
__global__ __launch_bounds__(256, (kWarpPhaseMinBlocks<T, P, F>))
__maxnreg__((kWarpPhaseMaxRegs<T, P, F>)) void geev_warp_phase_kernel(GeevProblem<T> p, GeevSplit<T> sp,
                                                                      std::int64_t b0, std::int64_t count,
                                                                      unsigned slice) {
    extern __shared__ __align__(16) unsigned char smem[];
    using Team = std::conditional_t<F == Phase::Reduce || F == Phase::ReduceVectors, ReduceWarpTeam<P>, WarpTeam<P>>;
    const auto tm = Team::make();
    std::int64_t k;
    unsigned char *mine;
    if (!team_matrix<P>(count, slice, smem, k, mine)) return;
    run_phase<F>(tm, p, sp, b0 + k, mine);
}

// The replay (replay_in_band), P lanes per matrix, L lines of each kind
// per lane.
template <class T, int P, int L>
__global__ __launch_bounds__(256) void geev_replay_kernel(GeevProblem<T> p, GeevSplit<T> sp, std::int64_t b0,
                                                          std::int64_t count, unsigned slice) {
    extern __shared__ __align__(16) unsigned char smem[];
    const auto tm = WarpTeam<P>::make();
    std::int64_t k;
    unsigned char *mine;
    if (!team_matrix<P>(count, slice, smem, k, mine)) return;
    if constexpr (!core::is_complex<T>) replay_in_band<L>(tm, p, sp, b0 + k, mine);
}

// One stage of the QR iteration on the band (qr_in_band), P lanes of a
// warp per matrix (the warp and block variants' eigenvalues).
// next: null, one matrix per team (as team_matrix); else a counter (zero at
// the launch) from which each team takes its next matrix when it is done
// with one, so that a team whose matrix finished its stage early does not
// idle until the other teams of its warp are done with theirs
// (plan::tuning::cuda_geev_band_counter_min_lanes; the grid then holds the
// blocks that fit at once).
// Logged: with the QR's log, for the replay (real types; on a counter
// too, each matrix's log and band addressed by its index). The logged
// stages are held to plan::tuning::cuda_geev_replay_stage_registers (76
// with the loop over matrices, session 101), the others of real types to
// 80 (with the loop over matrices ptxas took 84-86, against 76-78 without
// it); complex double's spilled 40-48 bytes at 80, so complex types keep
// no bound.
template <class T, int P, bool Logged = false>
__global__ __launch_bounds__(256, 1)
    __maxnreg__((Logged ? plan::tuning::cuda_geev_replay_stage_registers : core::is_complex<T> ? 255 : 80))
void geev_band_qr_kernel(GeevProblem<T> p, GeevSplit<T> sp, int pause, unsigned long long *next,
                         std::int64_t b0, std::int64_t count, unsigned slice) {
    extern __shared__ __align__(16) unsigned char smem[];
    const auto tm = WarpTeam<P>::make();
    const bool counter = next != nullptr;
    unsigned char *mine = smem + std::size_t(threadIdx.x / P) * slice;
    auto take = [&]() -> std::int64_t {
        unsigned long long k = 0;
        if (tm.leader()) k = atomicAdd(next, 1ull);
        return std::int64_t(__shfl_sync(tm.mask, k, 0, P));
    };
    std::int64_t k = counter ? take() : std::int64_t(blockIdx.x) * (blockDim.x / P) + threadIdx.x / P;
    while (k < count) {
        qr_in_band<Logged>(tm, p, sp, b0 + k, mine, pause);
        if (!counter) break;
        tm.sync();  // every member is done with the slice
        k = take();
    }
}

// One stage of the QR iteration on the band (qr_in_band) with a whole
// block per matrix, for the long stages (plan::tuning::
// cuda_geev_band_block_min_m): the block's threads share each chase step's
// passes, where a warp's team would leave the SM nearly idle with one or
// two bands resident. Its results are bitwise those of the warp teams.
template <class T>
__global__ __launch_bounds__(256) void geev_band_qr_block_kernel(GeevProblem<T> p, GeevSplit<T> sp, int pause,
                                                                 std::int64_t b0) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    qr_in_band<false>(tm, p, sp, b0 + blockIdx.x, smem, pause);
}

template <class T, Phase F>
__global__ __launch_bounds__(1024) void geev_block_phase_kernel(GeevProblem<T> p, GeevSplit<T> sp, std::int64_t b0) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    run_phase<F>(tm, p, sp, b0 + blockIdx.x, smem);
}

// The matrices [c0, c0 + count) of p as a problem of their own.
template <class T>
GeevProblem<T> problem_piece(const GeevProblem<T> &p, std::int64_t c0, int count) {
    GeevProblem<T> q = p;
    const std::int64_t n = p.n;
    q.A += c0 * p.lda * n;
    q.w += c0 * n;
    if (q.wi) q.wi += c0 * n;
    if (p.want_vl) q.VL += c0 * p.ldvl * n;
    if (p.want_vr) q.VR += c0 * p.ldvr * n;
    q.info += c0;
    q.batch = count;
    return q;
}

// p lanes of a warp per matrix, eigenvalues only; blockDim.x / P matrices
// per block.
template <class T, int P>
__global__ __launch_bounds__(256) void geev_warp_kernel(GeevProblem<T> p, std::int64_t b0, std::int64_t count,
                                                        unsigned slice) {
    extern __shared__ __align__(16) unsigned char smem[];
    const auto tm = WarpTeam<P>::make();
    std::int64_t k;
    unsigned char *mine;
    if (!team_matrix<P>(count, slice, smem, k, mine)) return;
    eigenvalues_in_shared(tm, p, b0 + k, mine);
}

// One block per matrix, in shared memory, eigenvalues only.
template <class T>
__global__ __launch_bounds__(1024) void geev_block_kernel(GeevProblem<T> p, std::int64_t b0) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    eigenvalues_in_shared(tm, p, b0 + blockIdx.x, smem);
}

// The global variant's O(n) scratch of this block's matrix: its slice of
// the workspace (`slice` bytes per block from `work`), with the blocked
// reduction's panel scratch in the block's dynamic shared memory where
// panel_nb >= 2 (global_panel_nb).
template <class T>
__device__ core::GeevWork<T> global_work(int n, unsigned char *work, std::size_t slice, bool vectors,
                                         int panel_nb) {
    extern __shared__ __align__(16) unsigned char global_panel[];
    core::GeevWork<T> ws = core::GeevWork<T>::carve(work + std::size_t(blockIdx.x) * slice, n, vectors);
    if (panel_nb >= 2) ws.panel = core::GehrdPanel<T>::carve(reinterpret_cast<T *>(global_panel), n, panel_nb);
    return ws;
}

// One block per matrix, in place in global memory: a is the caller's A,
// the vectors are accumulated in the caller's VL / VR, the O(n) scratch is
// this matrix's slice of the workspace. panel_nb >= 2: the reduction is
// core::gehrd_panels with its panel scratch in dynamic shared memory
// (global_panel_nb below), else gehd2.
// At most 256 threads (cuda_geev_block_threads), and
// plan::tuning::cuda_geev_global_min_blocks per SM (the register bound).
template <class T>
__global__ __launch_bounds__(256, plan::tuning::cuda_geev_global_min_blocks(core::is_complex<T>,
                                                                          sizeof(core::real_t<T>))) void
geev_global_kernel(GeevProblem<T> p, std::int64_t b0, unsigned char *work, std::size_t slice, int panel_nb) {
    using R = core::real_t<T>;
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    const std::int64_t b = b0 + blockIdx.x;
    const int n = p.n;
    core::MatView<T> a{p.A + b * std::int64_t(p.lda) * n, p.lda, 1};
    core::MatView<T> vl{p.want_vl ? p.VL + b * std::int64_t(p.ldvl) * n : nullptr, p.ldvl, 1};
    core::MatView<T> vr{p.want_vr ? p.VR + b * std::int64_t(p.ldvr) * n : nullptr, p.ldvr, 1};
    core::VecView<T> w{p.w + b * n, 1};
    core::VecView<R> wi{p.wi ? p.wi + b * n : nullptr, 1};
    const core::GeevWork<T> ws = global_work<T>(n, work, slice, p.want_vl || p.want_vr, panel_nb);
    const int info = core::geev<T>(tm, p.want_vl, p.want_vr, n, a, w, wi, vl, vr, ws, p.max_iterations);
    if (tm.leader()) p.info[b] = info;
}

// The global variant's eigenvalues beyond the matrix's fit in shared
// memory (global_reduces_to_band): geev_global_kernel's reduction (the same
// routines, block and panels, so H is bitwise the same), then the band of H
// moved within the caller's A (store_band_in_place) for the QR stages on
// the band (launch_band_qr), and the state to the workspace. Real types.
template <class T>
__global__ __launch_bounds__(256, plan::tuning::cuda_geev_global_min_blocks(core::is_complex<T>,
                                                                          sizeof(core::real_t<T>))) void
geev_global_reduce_kernel(GeevProblem<T> p, GeevSplit<T> sp, unsigned char *work, std::size_t slice, int panel_nb,
                          std::int64_t b0) {
    using R = core::real_t<T>;
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    const std::int64_t b = b0 + blockIdx.x;
    const int n = p.n;
    T *A = p.A + b * std::int64_t(p.lda) * n;
    const core::MatView<T> a{A, p.lda, 1}, none{nullptr, p.lda, 1};
    const core::GeevWork<T> ws = global_work<T>(n, work, slice, false, panel_nb);
    core::GeevState<R> st;
    core::geev_reduce(tm, false, n, a, core::VecView<T>{p.w + b * n, 1},
                      core::VecView<R>{p.wi ? p.wi + b * n : nullptr, 1}, none, ws, st);
    tm.sync();  // H is complete
    if (st.info == 0) store_band_in_place(tm, n, A, p.lda);
    if (tm.leader()) sp.state[b] = st;
}

// Teams per block for kernel's launch over `batch` matrices with teams of
// P lanes and `slice` bytes of shared memory each (teams_per_block, which
// also gives resident_blocks); 0 when one team's slice does not fit.
template <class Kernel>
int fitting_teams(Kernel kernel, int P, std::size_t slice, std::int64_t batch, bool uneven,
                  int *resident_blocks = nullptr) {
    if (slice + kTeamScratchBytes > std::size_t(shared_optin_bytes())) return 0;
    return teams_per_block(kernel, P, slice, batch, uneven, resident_blocks);
}

// Launch kernel over the batch in blocks of the most resident teams of P
// lanes, each team with `slice` bytes of shared memory; `uneven`: prefer
// smaller blocks, as the work differs from matrix to matrix (the QR stages
// on the band whose teams keep one matrix each;
// plan::tuning::cuda_team_uneven_resident_pct has the measurements, and why
// the other launches with a QR iteration, and the stages on a counter, keep
// the most resident).
template <int P, class Kernel, class... Args>
batcheigStatus_t launch_teams(cudaStream_t s, Kernel kernel, std::size_t slice, bool uneven, std::int64_t batch,
                              Args... args) {
    // Teams per block: the most resident per SM (a block of 32 teams of
    // 3.7 KB, n = 20 with 8 lanes, fits once in an SM's 228 KB; blocks of
    // 8 teams fit seven times; with `uneven` work per matrix, the smallest
    // block near that), see teams_per_block().
    const int teams = fitting_teams(kernel, P, slice, batch, uneven);
    if (teams == 0) return BATCHEIG_STATUS_NOT_SUPPORTED;
    const std::size_t bytes = std::size_t(teams) * slice;
    return launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
        const unsigned blocks = unsigned((count + teams - 1) / teams);
        kernel<<<blocks, teams * P, bytes, s>>>(args..., b0, count, unsigned(slice));
    });
}

// As launch_teams, for a kernel whose teams take their matrices from a
// counter among args (geev_band_qr_kernel) until the batch is done: one
// launch whose grid holds only the blocks that fit at once (all the batch
// needs, when that is fewer or the batch made the blocks smaller).
template <int P, class Kernel, class... Args>
batcheigStatus_t launch_resident_teams(cudaStream_t s, Kernel kernel, std::size_t slice, bool uneven,
                                       std::int64_t batch, Args... args) {
    int per_sm = 0;
    const int teams = fitting_teams(kernel, P, slice, batch, uneven, &per_sm);
    if (teams == 0) return BATCHEIG_STATUS_NOT_SUPPORTED;
    const std::int64_t need = (batch + teams - 1) / teams, fit = std::int64_t(per_sm) * multiprocessors();
    const std::int64_t blocks = fit > 0 && fit < need ? fit : need;
    if (blocks > std::int64_t(kLaunchMatrices)) return BATCHEIG_STATUS_NOT_SUPPORTED;
    kernel<<<unsigned(blocks), teams * P, std::size_t(teams) * slice, s>>>(args..., std::int64_t(0), batch,
                                                                         unsigned(slice));
    BATCHEIG_CUDA_CHECK_LAUNCH();
    return BATCHEIG_STATUS_SUCCESS;
}

// Launch kernel over the batch with one block of `threads` per matrix and
// `bytes` of dynamic shared memory.
template <class Kernel, class... Args>
batcheigStatus_t launch_blocks(cudaStream_t s, Kernel kernel, int threads, std::size_t bytes, std::int64_t batch,
                               Args... args) {
    batcheigStatus_t st = allow_shared(kernel, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    return launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
        kernel<<<unsigned(count), threads, bytes, s>>>(args..., b0);
    });
}

// Matrices per piece of the two launches: with vectors (with_scale: the
// states and balancing factors in the workspace), or the eigenvalues with
// the QR phase on the band (the states alone).
inline std::int64_t split_chunk(bool with_scale) {
    return with_scale ? plan::tuning::cuda_geev_split_chunk : plan::tuning::cuda_geev_band_chunk;
}

// The two launches (with vectors, or the eigenvalues with the QR phase on
// the band), launch(first_launch, piece, state), over pieces of the batch
// (split_chunk) whose state (with the balancing factors when with_scale)
// fits the workspace.
// replay: the pieces of the replay (plan::tuning::cuda_geev_replay_chunk),
// whose workspace also holds their bands and logs. chunk > 0: pieces of
// that many matrices instead (the global variant's, whose workspace holds
// each one's scratch after the states).
template <class T, class Launch>
batcheigStatus_t launch_split(const GeevProblem<T> &p, void *work, bool with_scale, Launch &&launch,
                              bool replay = false, std::int64_t chunk = 0) {
    if (chunk <= 0) chunk = replay ? plan::tuning::cuda_geev_replay_chunk : split_chunk(with_scale);
    for (std::int64_t c0 = 0; c0 < p.batch; c0 += chunk) {
        const int count = int(std::min<std::int64_t>(chunk, p.batch - c0));
        const GeevProblem<T> q = problem_piece(p, c0, count);
        const GeevSplit<T> sp = GeevSplit<T>::carve(work, p.n, count, with_scale, replay);
        batcheigStatus_t st = launch(std::true_type{}, q, sp);
        if (st == BATCHEIG_STATUS_SUCCESS) st = launch(std::false_type{}, q, sp);
        if (st != BATCHEIG_STATUS_SUCCESS) return st;
    }
    return BATCHEIG_STATUS_SUCCESS;
}

// f(std::integral_constant<int, P>{}) with P = lanes (2, 4, 8, 16; else 32):
// a tuning table's lane count as a kernel's template argument.
template <class F>
batcheigStatus_t with_lanes(int lanes, F &&f) {
    switch (lanes) {
        case 2: return f(std::integral_constant<int, 2>{});
        case 4: return f(std::integral_constant<int, 4>{});
        case 8: return f(std::integral_constant<int, 8>{});
        case 16: return f(std::integral_constant<int, 16>{});
        default: return f(std::integral_constant<int, 32>{});
    }
}

// The eigenvalues' reduction launch of the warp variant's band form, with
// the lanes of cuda_geev_warp_lanes.
template <class T>
batcheigStatus_t launch_band_reduce(cudaStream_t s, const GeevProblem<T> &q, const GeevSplit<T> &sp) {
    return with_lanes(geev_warp_lanes<T>(q.n), [&](auto lanes_c) {
        constexpr int P = decltype(lanes_c)::value;
        const std::size_t slice = shared_bytes<T>(q.n, false, false, core::two_sided_gehd2<WarpTeam<P>, T>);
        return launch_teams<P>(s, geev_warp_phase_kernel<T, P, Phase::Reduce>, slice, false, q.batch, q, sp);
    });
}

// True when the QR stage that holds the first m columns of the band runs
// with a block per matrix (geev_band_qr_block_kernel;
// plan::tuning::cuda_geev_band_block_min_m), else with the warp teams of
// geev_band_qr_kernel.
template <class T>
bool band_stage_on_blocks(int m) {
    return m >= plan::tuning::cuda_geev_band_block_min_m(core::is_complex<T>, sizeof(core::real_t<T>));
}

// The QR iteration on the band after the reduction: one launch per stage
// (qr_in_band), the first holding the whole band, each later one the
// columns the one before paused within (plan::tuning::cuda_geev_band_stage),
// each with the lanes of cuda_geev_band_lanes for its column count, or,
// from cuda_geev_band_block_min_m columns on, a block per matrix
// (band_stage_on_blocks).
// Logged: the replay's stages (qr_in_band<true>; never long enough for
// blocks: the replay runs where the warp variant takes vectors).
template <class T, bool Logged = false>
batcheigStatus_t launch_band_qr(cudaStream_t s, const GeevProblem<T> &q, const GeevSplit<T> &sp) {
    bool zeroed = false;  // the stages' counters, once a stage takes one
    for (int m = q.n, stage = 0;; ++stage) {
        const int pause = band_stage_pause<T>(q.n, m, q.batch);
        if (!Logged && band_stage_on_blocks<T>(m)) {
            // A long stage: a block per matrix (geev_band_qr_block_kernel).
            const batcheigStatus_t st = launch_blocks(
                s, geev_band_qr_block_kernel<T>,
                plan::tuning::cuda_geev_band_block_threads(core::is_complex<T>, sizeof(core::real_t<T>)),
                band_shared_bytes<T>(q.n, 32, m), q.batch, q, sp, pause);  // 32: the band alone (not spread)
            if (st != BATCHEIG_STATUS_SUCCESS || pause == 0) return st;
            m = pause;
            continue;
        }
        const int lanes = geev_band_lanes<T>(m);
        const batcheigStatus_t st = with_lanes(lanes, [&](auto lanes_c) -> batcheigStatus_t {
            constexpr int P = decltype(lanes_c)::value;
            const auto kernel = geev_band_qr_kernel<T, P, Logged>;
            const std::size_t slice = band_shared_bytes<T>(q.n, lanes, m);
            if (sp.next == nullptr || stage >= GeevSplit<T>::kStageCounters ||
                P < plan::tuning::cuda_geev_band_counter_min_lanes)
                return launch_teams<P>(s, kernel, slice, true, q.batch, q, sp, pause,
                                       static_cast<unsigned long long *>(nullptr));
            if (!zeroed) {
                BATCHEIG_CUDA_TRY(
                    cudaMemsetAsync(sp.next, 0, sizeof(unsigned long long) * GeevSplit<T>::kStageCounters, s));
                zeroed = true;
            }
            // Not `uneven`: the teams take their matrices from the counter,
            // so a block's slot waits for its slowest team only at the
            // launch's end (plan::tuning::cuda_team_uneven_resident_pct).
            return launch_resident_teams<P>(s, kernel, slice, false, q.batch, q, sp, pause, sp.next + stage);
        });
        if (st != BATCHEIG_STATUS_SUCCESS || pause == 0) return st;
        m = pause;
    }
}

// True when the warp variant runs the eigenvalues in two launches, the QR
// phase on the band.
template <class T>
bool warp_uses_band(int n, bool want_vectors) {
    return !want_vectors && band_fits_in_a(n) &&
           n >= plan::tuning::cuda_geev_band_min_n(core::is_complex<T>, sizeof(core::real_t<T>));
}

// The band form's two launches over the batch: reduce(piece, state) (the
// warp variant's team launch, or the block variant's block launch), then
// the QR launch on the band; chunk > 0: pieces of that many matrices
// (launch_split).
template <class T, class Reduce>
batcheigStatus_t launch_band(cudaStream_t s, const GeevProblem<T> &p, void *work, Reduce &&reduce,
                             std::int64_t chunk = 0) {
    return launch_split(p, work, false, [&](auto first, const GeevProblem<T> &q, const GeevSplit<T> &sp) {
        if constexpr (decltype(first)::value) return reduce(q, sp);
        else return launch_band_qr<T>(s, q, sp);
    }, false, chunk);
}

// True when the warp variant's Schur phase runs on the band (two launches,
// see schur_qr_in_band; plan::tuning::cuda_geev_schur_band).
template <class T>
bool schur_uses_band(int n) {
    return band_fits_in_a(n) &&
           plan::tuning::cuda_geev_schur_band(n, core::is_complex<T>, sizeof(core::real_t<T>)) &&
           schur_band_shared_bytes<T>(n) + kTeamScratchBytes <= std::size_t(shared_optin_bytes());
}

// Lanes per matrix of the replay launch.
template <class T>
int geev_replay_lanes(int n) {
    return plan::tuning::cuda_geev_replay_lanes(n, sizeof(core::real_t<T>));
}

// True when the warp variant's Schur phase runs by replay (see
// replay_in_band; plan::tuning::cuda_geev_replay): real types, where the
// Schur phase runs on the band.
template <class T>
bool schur_uses_replay(int n) {
    return !core::is_complex<T> && band_fits_in_a(n) && plan::tuning::cuda_geev_replay(n, sizeof(T)) &&
           schur_band_shared_bytes<T>(n) + kTeamScratchBytes <= std::size_t(shared_optin_bytes()) &&
           replay_shared_bytes<T>(n, geev_replay_lanes<T>(n)) + kTeamScratchBytes <= std::size_t(shared_optin_bytes());
}

// P lanes per matrix for the one-launch eigenvalues and for the Schur
// launch with vectors; the eigenvector launch takes its own lane count
// (geev_vector_lanes): it reads T, the Schur vectors and the state from
// global memory, so its lanes do not change the eigenvalues.
template <class T, int P>
batcheigStatus_t launch_warp(cudaStream_t s, const GeevProblem<T> &p, void *work) {
    if (!(p.want_vl || p.want_vr))
        return launch_teams<P>(s, geev_warp_kernel<T, P>,
                               shared_bytes<T>(p.n, false, false, core::two_sided_gehd2<WarpTeam<P>, T>), false,
                               p.batch, p);
    const bool replay = schur_uses_replay<T>(p.n);
    return launch_split(p, work, true, [&](auto schur, const GeevProblem<T> &q, const GeevSplit<T> &sp) {
        if constexpr (decltype(schur)::value) {
            const std::size_t slice = schur_shared_bytes<T>(p.n, core::two_sided_gehd2<WarpTeam<P>, T>);
            if (replay || schur_uses_band<T>(p.n)) {
                batcheigStatus_t st = launch_teams<P>(
                    s, geev_warp_phase_kernel<T, P, Phase::ReduceVectors>,
                    reduce_vectors_shared_bytes<T>(p.n, core::two_sided_gehd2<ReduceWarpTeam<P>, T>), false, q.batch,
                    q, sp);
                if (st != BATCHEIG_STATUS_SUCCESS) return st;
                if (replay) {
                    if constexpr (!core::is_complex<T>) {
                        st = launch_band_qr<T, true>(s, q, sp);
                        if (st != BATCHEIG_STATUS_SUCCESS) return st;
                        const int rl = geev_replay_lanes<T>(p.n), lines = (p.n + rl - 1) / rl;
                        st = with_lanes(rl, [&](auto lanes_c) {
                            constexpr int V = decltype(lanes_c)::value;
                            auto go = [&](auto kernel) {
                                return launch_teams<V>(s, kernel, replay_shared_bytes<T>(p.n, V), false, q.batch, q,
                                                       sp);
                            };
                            if (lines <= 1) return go(geev_replay_kernel<T, V, 1>);
                            if (lines <= 2) return go(geev_replay_kernel<T, V, 2>);
                            return go(geev_replay_kernel<T, V, 4>);
                        });
                        if (st != BATCHEIG_STATUS_SUCCESS) return st;
                    }
                }
                // (With the replay: only the matrices whose log overflowed.)
                return launch_teams<P>(s, geev_warp_phase_kernel<T, P, Phase::SchurBandQR>,
                                       schur_band_shared_bytes<T>(p.n), true, q.batch, q, sp);
            }
            return launch_teams<P>(s, geev_warp_phase_kernel<T, P, Phase::Schur>, slice, false, q.batch, q, sp);
        } else {
            return with_lanes(geev_vector_lanes<T>(p.n), [&](auto lanes_c) {
                constexpr int V = decltype(lanes_c)::value;
                return launch_teams<V>(s, geev_warp_phase_kernel<T, V, Phase::Vectors>,
                                       vectors_shared_bytes<T>(p.n, p.want_vl, p.want_vr), false, q.batch, q, sp);
            });
        }
    }, replay);
}

// True when the block variant runs the eigenvalues in two launches: the
// reduction with a block per matrix (as the one-launch form), then the QR
// iteration on the band with the warp variant's band launch (lanes of
// plan::tuning::cuda_geev_band_lanes). The QR iteration's results do not
// depend on the team (see above), so the eigenvalues are bitwise those of
// the one-launch form. A QR step has too little work for a block's
// barriers, and the band leaves room for more matrices per SM: 1.3-2.1x
// faster at every n measured (7 to 160, plan/tuning.hpp).
template <class T>
bool block_uses_band(int n, bool want_vectors) {
    return !want_vectors && band_fits_in_a(n) &&
           band_shared_bytes<T>(n, geev_band_lanes<T>(n)) + kTeamScratchBytes <= std::size_t(shared_optin_bytes());
}

// True when the global variant runs the eigenvalues (no vectors) as the
// block variant does (launch_block: the reduction with a block per matrix
// in shared memory, then the QR iteration on the band), instead of in place
// in global memory: while the matrix fits in one block's shared memory, up
// to plan::tuning::cuda_geev_global_band_max_n (measured: 1.6-6.5x faster
// in the real types at n = 64-238). The reduction is the global variant's (the same
// routines with the same block of geev_block_threads), and the QR
// iteration's results depend neither on the team nor on the Schur form
// being wanted, so the eigenvalues are bitwise those of the global variant
// with vectors.
template <class T>
bool global_uses_band(int n, bool want_vectors) {
    return !want_vectors &&
           n <= plan::tuning::cuda_geev_global_band_max_n(core::is_complex<T>, sizeof(core::real_t<T>)) &&
           problem_fits_shared<T>(n, false, false) && block_uses_band<T>(n, false);
}

// True when the global variant runs the eigenvalues (no vectors) beyond
// global_uses_band as its reduction in place in global memory
// (geev_global_reduce_kernel), then the QR iteration's stages on the band
// (launch_band_qr), while the band's first stage fits in shared memory
// (block_uses_band), up to plan::tuning::cuda_geev_global_reduce_band_max_n
// (the real types). The reduction is the in-place form's, and the QR
// iteration's results depend neither on the team nor on the Schur form
// being wanted, so the eigenvalues are bitwise those of the global
// variant with vectors.
template <class T>
bool global_reduces_to_band(int n, bool want_vectors) {
    return !want_vectors && !global_uses_band<T>(n, false) &&
           n <= plan::tuning::cuda_geev_global_reduce_band_max_n(core::is_complex<T>, sizeof(core::real_t<T>)) &&
           block_uses_band<T>(n, false);
}

// Workspace of global_reduces_to_band's launches: the states (and stage
// counters) of a piece of plan::tuning::cuda_geev_global_chunk matrices,
// then each one's O(n) scratch for the reduction.
template <class T>
std::size_t global_band_slice_bytes(int n) {
    return align256(core::GeevWork<T>::bytes(n, false));
}
template <class T>
std::size_t global_band_workspace_bytes(int n, std::int64_t batch) {
    const std::int64_t count = std::min<std::int64_t>(batch, plan::tuning::cuda_geev_global_chunk);
    return GeevSplit<T>::bytes(n, count, false) + global_band_slice_bytes<T>(n) * std::size_t(count);
}

// True when the global variant with vectors runs the block variant's two
// launches (Schur, then vectors, in shared memory): where the call's own
// jobs fit in one block's shared memory (right vectors alone need one
// matrix less than both, which AUTO's choice of the block variant
// assumes), up to plan::tuning::cuda_geev_global_block_vectors_max_n. The
// two variants run the same routines with the same block, so the results
// are bitwise the same (test_geev_cuda checks it). (The Schur launch's
// shared memory, schur_shared_bytes, is never more than the problem's with
// a vector matrix: the fit test of geev_block covers both launches.)
template <class T>
bool global_uses_block_vectors(int n, bool want_vl, bool want_vr) {
    return (want_vl || want_vr) &&
           n <= plan::tuning::cuda_geev_global_block_vectors_max_n(core::is_complex<T>, sizeof(core::real_t<T>)) &&
           problem_fits_shared<T>(n, want_vl, want_vr);
}

template <class T>
batcheigStatus_t launch_block(cudaStream_t s, const GeevProblem<T> &p, void *work) {
    const int threads = geev_block_threads(p.n);
    if (block_uses_band<T>(p.n, p.want_vl || p.want_vr))
        return launch_band(s, p, work, [&](const GeevProblem<T> &q, const GeevSplit<T> &sp) {
            return launch_blocks(s, geev_block_phase_kernel<T, Phase::Reduce>, threads,
                                 shared_bytes<T>(p.n, false, false), q.batch, q, sp);
        });
    if (!(p.want_vl || p.want_vr))
        return launch_blocks(s, geev_block_kernel<T>, threads, shared_bytes<T>(p.n, false, false), p.batch, p);
    return launch_split(p, work, true, [&](auto schur, const GeevProblem<T> &q, const GeevSplit<T> &sp) {
        constexpr bool S = decltype(schur)::value;
        constexpr Phase F = S ? Phase::Schur : Phase::Vectors;
        const std::size_t bytes = S ? schur_shared_bytes<T>(p.n) : vectors_shared_bytes<T>(p.n, p.want_vl, p.want_vr);
        return launch_blocks(s, geev_block_phase_kernel<T, F>, threads, bytes, q.batch, q, sp);
    });
}

}  // namespace geev_team_detail

// True when one matrix's problem fits in the shared memory of one block.
template <class T>
bool geev_fits_shared(int n, bool want_vl, bool want_vr) {
    return geev_team_detail::problem_fits_shared<T>(n, want_vl, want_vr);
}

// Workspace of the warp (warp true) and block variants: with vectors, the
// state and balancing factors of each matrix of one piece of the batch
// between the two launches; eigenvalues only, the states alone when the
// variant runs the QR phase on the band, else none.
template <class T>
std::size_t geev_split_workspace_bytes(bool warp, int n, bool want_vl, bool want_vr, int batch) {
    using namespace geev_team_detail;
    const bool with_scale = want_vl || want_vr;
    const std::int64_t count = std::min<std::int64_t>(batch, split_chunk(with_scale));
    if (!with_scale) {
        const bool band = warp ? warp_uses_band<T>(n, false) : block_uses_band<T>(n, false);
        return band ? GeevSplit<T>::bytes(n, count, false) : 0;
    }
    if (warp && schur_uses_replay<T>(n))
        return GeevSplit<T>::bytes(n, std::min<std::int64_t>(batch, plan::tuning::cuda_geev_replay_chunk), true, true);
    return GeevSplit<T>::bytes(n, count);
}

template <class T>
batcheigStatus_t geev_warp(cudaStream_t s, const GeevProblem<T> &p, void *work) {
    using namespace geev_team_detail;
    if (warp_uses_band<T>(p.n, p.want_vl || p.want_vr))
        return launch_band(s, p, work, [&](const GeevProblem<T> &q, const GeevSplit<T> &sp) {
            return launch_band_reduce<T>(s, q, sp);
        });
    return with_lanes(geev_warp_lanes<T>(p.n),
                      [&](auto lanes_c) { return launch_warp<T, decltype(lanes_c)::value>(s, p, work); });
}

template <class T>
batcheigStatus_t geev_block(cudaStream_t s, const GeevProblem<T> &p, void *work) {
    if (!geev_fits_shared<T>(p.n, p.want_vl, p.want_vr)) return BATCHEIG_STATUS_NOT_SUPPORTED;
    return geev_team_detail::launch_block<T>(s, p, work);
}

// Workspace of the global variant: the O(n) scratch of every matrix of one
// launch; where the eigenvalues run as the block variant's
// (global_uses_band), that variant's.
template <class T>
std::size_t geev_global_workspace_bytes(int n, bool want_vl, bool want_vr, int batch) {
    if (geev_team_detail::global_uses_band<T>(n, want_vl || want_vr) ||
        geev_team_detail::global_uses_block_vectors<T>(n, want_vl, want_vr))
        return geev_split_workspace_bytes<T>(false, n, want_vl, want_vr, batch);
    if (geev_team_detail::global_reduces_to_band<T>(n, want_vl || want_vr))
        return geev_team_detail::global_band_workspace_bytes<T>(n, batch);
    const std::size_t slice = align256(core::GeevWork<T>::bytes(n, want_vl || want_vr));
    return slice * std::size_t(std::min<std::int64_t>(batch, plan::tuning::cuda_geev_global_chunk));
}

// Reflectors per panel of the global variant's blocked reduction in place
// (core::gehrd_panels): the most of core::kGehrdMaxPanel<T>, half that,
// ..., 2 whose scratch fits plan::tuning::cuda_geev_global_panel_budget;
// 0 (gehd2) when none does, or where the eigenvalues alone run as the
// block variant's launches (global_uses_band), or where a call with
// vectors does (global_uses_block_vectors; one vector matrix fits where
// both do): that reduction is gehd2's, so the eigenvalues with and without
// vectors stay bitwise the same. (The second case is n <= 6, where the
// band does not fit in A: with panels there, the eigenvalues without
// vectors differed from those with vectors.)
template <class T>
int global_panel_nb(int n) {
    using namespace geev_team_detail;
    if (global_uses_band<T>(n, false) || global_uses_block_vectors<T>(n, false, true)) return 0;
    const long long budget = plan::tuning::cuda_geev_global_panel_budget(
        shared_optin_bytes(), shared_per_multiprocessor(),
        plan::tuning::cuda_geev_global_min_blocks(core::is_complex<T>, sizeof(core::real_t<T>)),
        int(kDriverSharedBytes + kStaticSharedMax));
    for (int nb = core::kGehrdMaxPanel<T>; nb >= 2; nb /= 2)
        if (static_cast<long long>(core::GehrdPanel<T>::elements(n, nb) * sizeof(T)) <= budget) return nb;
    return 0;
}

template <class T>
batcheigStatus_t geev_global(cudaStream_t s, const GeevProblem<T> &p, void *work) {
    using namespace geev_team_detail;
    if (global_uses_band<T>(p.n, p.want_vl || p.want_vr) || global_uses_block_vectors<T>(p.n, p.want_vl, p.want_vr))
        return launch_block<T>(s, p, work);
    const int threads = geev_block_threads(p.n);
    const std::int64_t chunk = plan::tuning::cuda_geev_global_chunk;
    const int nb = global_panel_nb<T>(p.n);
    const std::size_t panel_bytes = nb >= 2 ? core::GehrdPanel<T>::elements(p.n, nb) * sizeof(T) : 0;
    // (Real types only: the complex types never take it, and their
    // reduction kernel is then not compiled.)
    if constexpr (!core::is_complex<T>) {
        if (global_reduces_to_band<T>(p.n, p.want_vl || p.want_vr)) {
            // The reduction in place, then the QR stages on the band, in
            // pieces of chunk matrices; the workspace: their states, then
            // their O(n) scratch (global_band_workspace_bytes).
            const std::size_t slice = global_band_slice_bytes<T>(p.n);
            unsigned char *slices = static_cast<unsigned char *>(work) +
                                    GeevSplit<T>::bytes(p.n, std::min<std::int64_t>(p.batch, chunk), false);
            return launch_band(s, p, work, [&](const GeevProblem<T> &q, const GeevSplit<T> &sp) {
                return launch_blocks(s, geev_global_reduce_kernel<T>, threads, panel_bytes, q.batch, q, sp, slices,
                                     slice, nb);
            }, chunk);
        }
    }
    const std::size_t slice = align256(core::GeevWork<T>::bytes(p.n, p.want_vl || p.want_vr));
    if (const batcheigStatus_t st = allow_shared(geev_global_kernel<T>, panel_bytes); st != BATCHEIG_STATUS_SUCCESS)
        return st;
    for (std::int64_t b0 = 0; b0 < p.batch; b0 += chunk) {
        const std::int64_t count = std::min<std::int64_t>(chunk, p.batch - b0);
        geev_global_kernel<T><<<unsigned(count), threads, panel_bytes, s>>>(p, b0, static_cast<unsigned char *>(work),
                                                                            slice, nb);
        BATCHEIG_CUDA_CHECK_LAUNCH();
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace batcheig::cuda
