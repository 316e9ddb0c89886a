// CUDA execution teams for the core routines (the contract is in
// core/team.hpp): p lanes of a warp, or a whole thread block, cooperating on
// one matrix.
#pragma once

#include <cstdint>

#include "core/types.hpp"

namespace batcheig::cuda {

using core::index_t;

// P consecutive lanes of one warp (P a power of two, 1 < P <= 32); a warp
// holds 32 / P teams. Reductions are butterflies over the P lanes: every
// level adds two identical values in either order, so all members get the
// bitwise same result.
template <int P>
struct WarpTeam {
    static_assert(P > 1 && P <= 32 && (P & (P - 1)) == 0, "P must be a power of two in [2, 32]");
    static constexpr bool serial = false;
    // (With 2 and 4 lanes the vote and branch cost more than the one or two
    // shuffle levels they spare: the warp variant was 3-7 % slower at
    // double n = 5-10 on an H100; from 8 lanes on it gains, 2.4 % at n = 30.)
    static constexpr bool wide = P >= 8;
    unsigned mask;  // the team's lanes within the warp
    int lane;       // 0..P-1

    __device__ static WarpTeam make() {
        const int l = threadIdx.x & 31;
        const unsigned group = P == 32 ? 0xffffffffu : ((1u << P) - 1u) << (l & ~(P - 1));
        return WarpTeam{group, l & (P - 1)};
    }
    __device__ index_t rank() const { return lane; }
    __device__ index_t size() const { return P; }
    __device__ index_t first(index_t lo) const { return lo + ((lane - lo) & (P - 1)); }
    __device__ bool leader() const { return lane == 0; }
    // A barrier of the team's lanes only. (The teams of a warp could share
    // whole-warp barriers, whose convergence test is shorter, but then each
    // waits for the other's progress at every barrier: the QR launch on the
    // band was 1.7-2.6x slower so; docs/performance.md, session 39.)
    __device__ void sync() const { __syncwarp(mask); }
    // Butterfly over the P lanes, after a barrier (reductions order memory
    // like sync()).
    template <class S, class Op> __device__ S reduce(S v, Op op) const {
        __syncwarp(mask);
#pragma unroll
        for (int o = P / 2; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(mask, v, o, P));
        return v;
    }
    template <class S> __device__ S sum(S v) const {
        return reduce(v, [](S a, S b) { return a + b; });
    }
    template <class S> __device__ S max(S v) const {
        return reduce(v, [](S a, S b) { return b > a ? b : a; });
    }
    template <class S> __device__ S min(S v) const {
        return reduce(v, [](S a, S b) { return b < a ? b : a; });
    }
    __device__ bool any(bool v) const { return __any_sync(mask, v) != 0; }
};

// All threads of a block (blockDim.x a power of two, a multiple of 32, at
// most 1024). Reductions: a butterfly inside each warp, then every thread
// combines the per-warp results from shared memory in the same order.
struct BlockTeam {
    static constexpr bool serial = false;
    static constexpr bool wide = true;
    unsigned long long *scratch;  // shared, one slot per warp

    __device__ index_t rank() const { return threadIdx.x; }
    __device__ index_t size() const { return blockDim.x; }
    __device__ index_t first(index_t lo) const { return lo + ((index_t(threadIdx.x) - lo) & index_t(blockDim.x - 1)); }
    __device__ bool leader() const { return threadIdx.x == 0; }
    __device__ void sync() const { __syncthreads(); }

    template <class S, class Op> __device__ S reduce(S v, Op op) const {
        static_assert(sizeof(S) <= sizeof(unsigned long long), "reduction type too wide");
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
        __syncthreads();  // earlier readers of scratch are done; earlier writes are visible
        if ((threadIdx.x & 31) == 0) *reinterpret_cast<S *>(&scratch[threadIdx.x >> 5]) = v;
        __syncthreads();
        S r = *reinterpret_cast<const S *>(&scratch[0]);
        const int nw = blockDim.x >> 5;
        for (int w = 1; w < nw; ++w) r = op(r, *reinterpret_cast<const S *>(&scratch[w]));
        return r;
    }
    template <class S> __device__ S sum(S v) const {
        return reduce(v, [](S a, S b) { return a + b; });
    }
    template <class S> __device__ S max(S v) const {
        return reduce(v, [](S a, S b) { return b > a ? b : a; });
    }
    template <class S> __device__ S min(S v) const {
        return reduce(v, [](S a, S b) { return b < a ? b : a; });
    }
    __device__ bool any(bool v) const { return __syncthreads_or(v) != 0; }
};

}  // namespace batcheig::cuda
