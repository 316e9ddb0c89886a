// geev_probe_api.hpp: what the geev probes of bench/experiments share: a
// status check that stops the probe, the library's real geev entry points
// per precision, the random batch and the count of failed matrices.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "batcheig.h"
#include "cuda_util.hpp"

namespace geev_probe {

inline void must(batcheigStatus_t s, const char *what) {
    if (s != BATCHEIG_STATUS_SUCCESS) {
        std::fprintf(stderr, "%s: %s\n", what, batcheigGetStatusString(s));
        std::exit(1);
    }
}

// batcheig{D,S,Z,C}geevBatched and their _bufferSize, by element type
// (the real types take wr and wi, the complex ones W).
template <class T> struct Geev;
template <> struct Geev<double> {
    static constexpr auto size = &batcheigDgeevBatched_bufferSize;
    static constexpr auto run = &batcheigDgeevBatched;
};
template <> struct Geev<float> {
    static constexpr auto size = &batcheigSgeevBatched_bufferSize;
    static constexpr auto run = &batcheigSgeevBatched;
};
template <> struct Geev<batcheigDoubleComplex> {
    static constexpr auto size = &batcheigZgeevBatched_bufferSize;
    static constexpr auto run = &batcheigZgeevBatched;
};
template <> struct Geev<batcheigComplex> {
    static constexpr auto size = &batcheigCgeevBatched_bufferSize;
    static constexpr auto run = &batcheigCgeevBatched;
};

// `batch` column-major n x n matrices, entries uniform in [-1, 1] (seed
// 12345); with group > 1, each run of `group` consecutive matrices are
// copies of its first.
template <class T> std::vector<T> uniform_batch(int n, int batch, int group = 1) {
    const std::size_t nn = std::size_t(n) * n;
    std::vector<T> a(nn * batch);
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int b = 0; b < batch; b += group) {
        for (std::size_t e = 0; e < nn; ++e) a[b * nn + e] = T(u(rng));
        for (int c = 1; c < group && b + c < batch; ++c)
            std::copy(a.begin() + b * nn, a.begin() + (b + 1) * nn, a.begin() + (b + c) * nn);
    }
    return a;
}

// Matrices whose info (device array of `batch` entries) is not 0.
inline long failed(const bench::cuda::DeviceArray<int> &dinfo, int batch) {
    std::vector<int> info(batch);
    bench::cuda::check(cudaMemcpy(info.data(), dinfo.get(), batch * sizeof(int), cudaMemcpyDeviceToHost),
                       "cudaMemcpy");
    return long(std::count_if(info.begin(), info.end(), [](int i) { return i != 0; }));
}

}  // namespace geev_probe
