// One-matrix-per-thread geev kernel over the element-interleaved layout.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/geev.hpp"
#include "cuda/cuda_check.cuh"
#include "common/problem.hpp"
#include "cuda/launch.cuh"
#include "cuda/layout.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

namespace geev_thread_detail {

constexpr int kThreads = 128;

// Device buffers of one chunk of `B` interleaved matrices.
template <class T>
struct Chunk {
    using R = core::real_t<T>;
    T *a, *vl, *vr, *tau, *xt;
    R *scale, *cn;
};

// Bytes of one chunk's buffers, and their placement.
template <class T>
std::size_t chunk_bytes(int n, bool want_vl, bool want_vr, std::int64_t B, void *base, Chunk<T> *c) {
    using R = core::real_t<T>;
    const bool want_v = want_vl || want_vr;
    const std::size_t nn = std::size_t(n) * n * B, n1 = std::size_t(n) * B;
    std::size_t off = 0;
    auto take = [&](std::size_t bytes, bool use) -> void * {
        if (!use) return nullptr;
        void *p = base ? static_cast<char *>(base) + off : nullptr;
        off += align256(bytes);
        return p;
    };
    Chunk<T> k;
    k.a = static_cast<T *>(take(nn * sizeof(T), true));
    k.vl = static_cast<T *>(take(nn * sizeof(T), want_vl));
    k.vr = static_cast<T *>(take(nn * sizeof(T), want_vr));
    k.tau = static_cast<T *>(take(n1 * sizeof(T), true));
    k.xt = static_cast<T *>(take(3 * n1 * sizeof(T), want_v));
    k.scale = static_cast<R *>(take(n1 * sizeof(R), true));
    k.cn = static_cast<R *>(take(n1 * sizeof(R), want_v));
    if (c) *c = k;
    return off;
}

template <class T>
struct KernelArgs {
    using R = core::real_t<T>;
    Chunk<T> c;
    std::int64_t B;  // matrices in this chunk
    int n;
    bool want_vl, want_vr;
    T *w;    // eigenvalues of the chunk's first matrix (column-major batch)
    R *wi;   // real types only
    int *info;
    int max_iterations;
};

template <class T>
__global__ __launch_bounds__(kThreads) void geev_kernel(KernelArgs<T> k) {
    using R = core::real_t<T>;
    const std::int64_t b = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (b >= k.B) return;
    const std::int64_t B = k.B, n = k.n;
    core::MatView<T> a{k.c.a + b, n, B};
    core::MatView<T> vl{k.c.vl ? k.c.vl + b : nullptr, n, B};
    core::MatView<T> vr{k.c.vr ? k.c.vr + b : nullptr, n, B};
    core::VecView<T> w{k.w + b * n, 1};
    core::VecView<R> wi{k.wi ? k.wi + b * n : nullptr, 1};
    core::GeevWork<T> ws;
    ws.tau = core::VecView<T>{k.c.tau + b, B};
    ws.xt = core::VecView<T>{k.c.xt ? k.c.xt + b : nullptr, B};
    ws.scale = core::VecView<R>{k.c.scale + b, B};
    ws.cn = core::VecView<R>{k.c.cn ? k.c.cn + b : nullptr, B};
    k.info[b] = core::geev<T>(k.want_vl, k.want_vr, n, a, w, wi, vl, vr, ws, k.max_iterations);
}

// ---- The same, with each thread's matrix in shared memory --------------------
// For small n a block's matrices, vectors and scratch fit in shared memory,
// interleaved as in global memory (element e of the block's matrix m at
// [e * S + m], S = blockDim.x + 1: the threads of a warp touch consecutive
// words at every step, and the cooperative loads and stores, which walk one
// matrix per warp, hit 16 distinct banks). Every access of the QR iteration
// then stays in the SM, and no interleaved copy of the batch is needed. The
// arithmetic is the one of geev_kernel, so the results are bitwise the same.

// Shared bytes one thread's problem takes (for S = 1).
template <class T>
__host__ __device__ inline std::size_t shared_thread_bytes(int n, bool want_vl, bool want_vr) {
    using R = core::real_t<T>;
    const std::size_t nn = std::size_t(n) * n, vec = (want_vl || want_vr) ? 1 : 0;
    return sizeof(T) * (nn * (1 + std::size_t(want_vl) + std::size_t(want_vr)) + std::size_t(n) * (1 + 3 * vec)) +
           sizeof(R) * std::size_t(n) * (1 + vec);
}

template <class T>
__global__ __launch_bounds__(kThreads) void geev_shared_kernel(GeevProblem<T> p, std::int64_t b0) {
    using R = core::real_t<T>;
    extern __shared__ __align__(16) unsigned char smem[];
    const int n = p.n, nn = n * n, S = int(blockDim.x) + 1;
    const bool want_v = p.want_vl || p.want_vr;
    const std::int64_t first = b0 + std::int64_t(blockIdx.x) * blockDim.x;
    const std::int64_t left = p.batch - first;
    const int count = left < std::int64_t(blockDim.x) ? int(left) : int(blockDim.x);
    // The arrays are carved here, from smem itself, and the views built
    // below, rather than through chunk_bytes() and a per-thread helper
    // shared with geev_kernel: that form ran 25-35 % slower (H200,
    // 2026-11-22, n = 5 and 8), probably because the pointers lost their
    // shared-memory address space on the way.
    T *a = reinterpret_cast<T *>(smem);
    T *vl = a + std::size_t(nn) * S;
    T *vr = vl + (p.want_vl ? std::size_t(nn) * S : 0);
    T *tau = vr + (p.want_vr ? std::size_t(nn) * S : 0);
    T *xt = tau + std::size_t(n) * S;
    R *scale = reinterpret_cast<R *>(xt + (want_v ? 3 * std::size_t(n) * S : 0));
    R *cn = scale + std::size_t(n) * S;
    const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5, warps = int(blockDim.x) >> 5;

    for (int m = warp; m < count; m += warps) {
        const T *src = p.A + (first + m) * std::int64_t(p.lda) * n;
        for (int e = lane; e < nn; e += 32) {
            const int j = e / n, i = e - j * n;
            a[e * S + m] = src[j * p.lda + i];
        }
    }
    __syncthreads();
    const int t = int(threadIdx.x);
    if (t < count) {
        const std::int64_t b = first + t;
        core::MatView<T> av{a + t, n, S};
        core::MatView<T> vlv{p.want_vl ? vl + t : nullptr, n, S};
        core::MatView<T> vrv{p.want_vr ? vr + t : nullptr, n, S};
        core::VecView<T> w{p.w + b * n, 1};
        core::VecView<R> wi{p.wi ? p.wi + b * n : nullptr, 1};
        core::GeevWork<T> ws;
        ws.tau = core::VecView<T>{tau + t, S};
        ws.xt = core::VecView<T>{want_v ? xt + t : nullptr, S};
        ws.scale = core::VecView<R>{scale + t, S};
        ws.cn = core::VecView<R>{want_v ? cn + t : nullptr, S};
        p.info[b] = core::geev<T>(p.want_vl, p.want_vr, n, av, w, wi, vlv, vrv, ws, p.max_iterations);
    }
    if (!want_v) return;
    __syncthreads();
    for (int m = warp; m < count; m += warps) {
        T *dl = p.want_vl ? p.VL + (first + m) * std::int64_t(p.ldvl) * n : nullptr;
        T *dr = p.want_vr ? p.VR + (first + m) * std::int64_t(p.ldvr) * n : nullptr;
        for (int e = lane; e < nn; e += 32) {
            const int j = e / n, i = e - j * n;
            if (dl) dl[j * p.ldvl + i] = vl[e * S + m];
            if (dr) dr[j * p.ldvr + i] = vr[e * S + m];
        }
    }
}

// Threads per block of the shared form (a multiple of 32, at most
// kThreads), or 0 when even 32 threads' problems exceed the budget.
template <class T>
int shared_block_threads(int n, bool want_vl, bool want_vr) {
    const std::size_t per = shared_thread_bytes<T>(n, want_vl, want_vr);
    const std::size_t budget = std::size_t(plan::tuning::cuda_geev_thread_shared_bytes);
    for (int t = kThreads; t >= 32; t /= 2)
        if (std::size_t(t + 1) * per <= budget) return t;
    return 0;
}

template <class T>
std::int64_t chunk_size(int batch) {
    return std::min<std::int64_t>(batch, plan::tuning::cuda_geev_thread_chunk);
}

}  // namespace geev_thread_detail

// True when the variant keeps each thread's problem in shared memory. It
// depends on (precision, n) only: the storage never changes the arithmetic,
// but one rule for every jobs keeps that obvious. The budget must hold 32
// threads' problems with both vector matrices.
template <class T>
bool geev_thread_in_shared(int n) {
    return n <= plan::tuning::cuda_geev_thread_shared_max_n &&
           geev_thread_detail::shared_block_threads<T>(n, true, true) > 0;
}

// Workspace of the variant (device arrays).
template <class T>
std::size_t geev_thread_workspace_bytes(int n, bool want_vl, bool want_vr, int batch) {
    using namespace geev_thread_detail;
    if (geev_thread_in_shared<T>(n)) return 0;
    return chunk_bytes<T>(n, want_vl, want_vr, chunk_size<T>(batch), nullptr, nullptr);
}

// The shared-memory form: one launch per kLaunchMatrices matrices.
template <class T>
batcheigStatus_t geev_thread_shared(cudaStream_t s, const GeevProblem<T> &p) {
    using namespace geev_thread_detail;
    const int threads = shared_block_threads<T>(p.n, p.want_vl, p.want_vr);
    const std::size_t bytes = std::size_t(threads + 1) * shared_thread_bytes<T>(p.n, p.want_vl, p.want_vr);
    batcheigStatus_t st = allow_shared(geev_shared_kernel<T>, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        const unsigned blocks = unsigned((count + threads - 1) / threads);
        GeevProblem<T> q = p;
        q.batch = int(b0 + count);  // the kernel stops at this matrix
        geev_shared_kernel<T><<<blocks, threads, bytes, s>>>(q, b0);
    });
}

// Enqueue the whole batch (device arrays) on stream s.
template <class T>
batcheigStatus_t geev_thread(cudaStream_t s, const GeevProblem<T> &p, void *work) {
    using namespace geev_thread_detail;
    if (geev_thread_in_shared<T>(p.n)) return geev_thread_shared<T>(s, p);
    const std::int64_t chunk = chunk_size<T>(p.batch);
    const std::int64_t n = p.n;
    for (std::int64_t b0 = 0; b0 < p.batch; b0 += chunk) {
        const std::int64_t B = std::min<std::int64_t>(chunk, p.batch - b0);
        KernelArgs<T> k;
        chunk_bytes<T>(p.n, p.want_vl, p.want_vr, B, work, &k.c);
        k.B = B;
        k.n = p.n;
        k.want_vl = p.want_vl;
        k.want_vr = p.want_vr;
        k.w = p.w + b0 * n;
        k.wi = p.wi ? p.wi + b0 * n : nullptr;
        k.info = p.info + b0;
        k.max_iterations = p.max_iterations;
        const dim3 lg = layout_grid(p.n, B), lb(kTile, kTileRows);
        to_interleaved<T><<<lg, lb, 0, s>>>(p.A + b0 * p.lda * n, p.n, p.lda, k.c.a, B);
        BATCHEIG_CUDA_CHECK_LAUNCH();
        const unsigned blocks = static_cast<unsigned>((B + kThreads - 1) / kThreads);
        geev_kernel<T><<<blocks, kThreads, 0, s>>>(k);
        BATCHEIG_CUDA_CHECK_LAUNCH();
        if (p.want_vl) {
            from_interleaved<T><<<lg, lb, 0, s>>>(k.c.vl, p.n, B, p.VL + b0 * p.ldvl * n, p.ldvl);
            BATCHEIG_CUDA_CHECK_LAUNCH();
        }
        if (p.want_vr) {
            from_interleaved<T><<<lg, lb, 0, s>>>(k.c.vr, p.n, B, p.VR + b0 * p.ldvr * n, p.ldvr);
            BATCHEIG_CUDA_CHECK_LAUNCH();
        }
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace batcheig::cuda

