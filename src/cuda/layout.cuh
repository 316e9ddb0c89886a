// Layout transforms between the API's column-major batch (matrix b at
// A + b*ld*n) and the element-interleaved layout used by one-matrix-per-
// thread kernels (element (i,j) of matrix b at I[(i + j*n)*B + b]), so that
// consecutive threads touch consecutive addresses. Both directions go through
// a 32x32 shared-memory tile: reads run along the elements of a column,
// writes along the matrices, and the reverse.
#pragma once

#include <cstdint>

namespace batcheig::cuda {

inline constexpr int kTile = 32;
inline constexpr int kTileRows = 8;

// src: column-major batch from matrix b0 on; dst: interleaved, B matrices.
template <class T>
__global__ __launch_bounds__(kTile *kTileRows) void to_interleaved(const T *__restrict__ src, int n, int ld,
                                                                  T *__restrict__ dst, std::int64_t B) {
    // Raw storage: complex types have constructors, which __shared__ arrays cannot run.
    __shared__ alignas(16) unsigned char smem[kTile * (kTile + 1) * sizeof(T)];
    T(*tile)[kTile + 1] = reinterpret_cast<T(*)[kTile + 1]>(smem);
    const std::int64_t ne = std::int64_t(n) * n;
    const std::int64_t e0 = std::int64_t(blockIdx.x) * kTile;  // element tile
    const std::int64_t m0 = std::int64_t(blockIdx.y) * kTile;  // matrix tile
    // Read: threadIdx.x along elements, threadIdx.y along matrices.
    for (int r = threadIdx.y; r < kTile; r += kTileRows) {
        std::int64_t m = m0 + r, e = e0 + threadIdx.x;
        if (m < B && e < ne) {
            std::int64_t i = e % n, j = e / n;
            tile[r][threadIdx.x] = src[m * ld * n + i + j * ld];
        }
    }
    __syncthreads();
    // Write: threadIdx.x along matrices.
    for (int r = threadIdx.y; r < kTile; r += kTileRows) {
        std::int64_t e = e0 + r, m = m0 + threadIdx.x;
        if (m < B && e < ne) dst[e * B + m] = tile[threadIdx.x][r];
    }
}

// The inverse: src interleaved (B matrices), dst column-major with leading dimension ld.
template <class T>
__global__ __launch_bounds__(kTile *kTileRows) void from_interleaved(const T *__restrict__ src, int n,
                                                                    std::int64_t B, T *__restrict__ dst,
                                                                    int ld) {
    // Raw storage: complex types have constructors, which __shared__ arrays cannot run.
    __shared__ alignas(16) unsigned char smem[kTile * (kTile + 1) * sizeof(T)];
    T(*tile)[kTile + 1] = reinterpret_cast<T(*)[kTile + 1]>(smem);
    const std::int64_t ne = std::int64_t(n) * n;
    const std::int64_t e0 = std::int64_t(blockIdx.x) * kTile;
    const std::int64_t m0 = std::int64_t(blockIdx.y) * kTile;
    for (int r = threadIdx.y; r < kTile; r += kTileRows) {
        std::int64_t e = e0 + r, m = m0 + threadIdx.x;
        if (m < B && e < ne) tile[threadIdx.x][r] = src[e * B + m];
    }
    __syncthreads();
    for (int r = threadIdx.y; r < kTile; r += kTileRows) {
        std::int64_t m = m0 + r, e = e0 + threadIdx.x;
        if (m < B && e < ne) {
            std::int64_t i = e % n, j = e / n;
            dst[m * ld * n + i + j * ld] = tile[r][threadIdx.x];
        }
    }
}

inline dim3 layout_grid(int n, std::int64_t B) {
    std::int64_t ne = std::int64_t(n) * n;
    return dim3(static_cast<unsigned>((ne + kTile - 1) / kTile), static_cast<unsigned>((B + kTile - 1) / kTile));
}

}  // namespace batcheig::cuda
