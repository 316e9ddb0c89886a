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
    T *a, *vl, *vr, *tau, *x0, *x1;
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
    k.x0 = static_cast<T *>(take(n1 * sizeof(T), want_v));
    k.x1 = static_cast<T *>(take(n1 * sizeof(T), want_v));
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
    ws.x0 = core::VecView<T>{k.c.x0 ? k.c.x0 + b : nullptr, B};
    ws.x1 = core::VecView<T>{k.c.x1 ? k.c.x1 + b : nullptr, B};
    ws.scale = core::VecView<R>{k.c.scale + b, B};
    ws.cn = core::VecView<R>{k.c.cn ? k.c.cn + b : nullptr, B};
    k.info[b] = core::geev<T>(k.want_vl, k.want_vr, n, a, w, wi, vl, vr, ws, k.max_iterations);
}

template <class T>
std::int64_t chunk_size(int batch) {
    return std::min<std::int64_t>(batch, plan::tuning::cuda_geev_thread_chunk);
}

}  // namespace geev_thread_detail

// Workspace of the variant (device arrays).
template <class T>
std::size_t geev_thread_workspace_bytes(int n, bool want_vl, bool want_vr, int batch) {
    using namespace geev_thread_detail;
    return chunk_bytes<T>(n, want_vl, want_vr, chunk_size<T>(batch), nullptr, nullptr);
}

// Enqueue the whole batch (device arrays) on stream s.
template <class T>
batcheigStatus_t geev_thread(cudaStream_t s, const GeevProblem<T> &p, void *work) {
    using namespace geev_thread_detail;
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

