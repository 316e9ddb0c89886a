// geev_copies_probe.cpp: what the teams of a warp lose to each other in the
// CUDA geev launches. The batch is filled so that groups of G consecutive
// matrices are copies of one random matrix (uniform in [-1, 1]); with G at
// least the teams per warp, every team of a warp runs the same work at the
// same time, with the same distribution of matrices as G = 1 (distinct
// matrices). The difference of the two times is what the teams of a warp
// spend waiting for each other (the longest sweep of each pass, the
// deflations and the end of a stage).
// Built on request (CUDA builds):
//   ninja -C build/release batcheig_geev_copies_probe
//   batcheig_geev_copies_probe N BATCH G [REPS=5] [PRECISION=d|s] [VECTORS=0|1]
// Prints the median and best time of REPS device-array calls (CUDA events,
// after one warm-up call) and the number of matrices with info != 0.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "batcheig.h"
#include "cuda_util.hpp"
#include "experiments/geev_probe_api.hpp"

namespace {

using geev_probe::Geev;
using geev_probe::must;

template <class T> int probe(int n, int batch, int g, int reps, bool vectors) {
    namespace bc = bench::cuda;
    const std::size_t nn = std::size_t(n) * n;
    const std::vector<T> a = geev_probe::uniform_batch<T>(n, batch, g);
    bc::DeviceArray<T> da(a.size()), dwr(std::size_t(n) * batch), dwi(std::size_t(n) * batch),
        dvr(vectors ? a.size() : 1);
    bc::DeviceArray<int> dinfo(batch);
    batcheigHandle_t h;
    must(batcheigCreate(&h), "batcheigCreate");
    const batcheigEigMode_t jr = vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
    size_t lw = 0;
    must(Geev<T>::size(h, BATCHEIG_EIG_MODE_NOVECTOR, jr, n, da.get(), n, dwr.get(), dwi.get(), nullptr, 1, dvr.get(),
                       n, &lw, nullptr, batch),
         "bufferSize");
    bc::DeviceArray<unsigned char> work(lw ? lw : 1);
    cudaEvent_t e0, e1;
    bc::check(cudaEventCreate(&e0), "cudaEventCreate");
    bc::check(cudaEventCreate(&e1), "cudaEventCreate");
    std::vector<float> ms;
    for (int r = 0; r <= reps; ++r) {
        bc::check(cudaMemcpy(da.get(), a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
        bc::check(cudaEventRecord(e0, nullptr), "cudaEventRecord");
        must(Geev<T>::run(h, BATCHEIG_EIG_MODE_NOVECTOR, jr, n, da.get(), n, dwr.get(), dwi.get(), nullptr, 1,
                          dvr.get(), n, work.get(), lw, dinfo.get(), nullptr, batch),
             "geevBatched");
        bc::check(cudaEventRecord(e1, nullptr), "cudaEventRecord");
        bc::check(cudaEventSynchronize(e1), "cudaEventSynchronize");
        float t = 0;
        bc::check(cudaEventElapsedTime(&t, e0, e1), "cudaEventElapsedTime");
        if (r > 0) ms.push_back(t);  // r = 0: warm-up
    }
    const long bad = geev_probe::failed(dinfo, batch);
    std::sort(ms.begin(), ms.end());
    std::printf("%s n=%d batch=%d G=%d vectors=%d: median %.4f ms, best %.4f ms, info!=0: %ld\n",
                sizeof(T) == 8 ? "double" : "float", n, batch, g, int(vectors), ms[ms.size() / 2], ms.front(), bad);
    bc::check(cudaEventDestroy(e0), "cudaEventDestroy");
    bc::check(cudaEventDestroy(e1), "cudaEventDestroy");
    must(batcheigDestroy(h), "batcheigDestroy");
    return 0;
}

}  // namespace

int main(int argc, char **argv) try {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s N BATCH G [REPS=5] [PRECISION=d|s] [VECTORS=0|1]\n", argv[0]);
        return 2;
    }
    const int n = std::atoi(argv[1]), batch = std::atoi(argv[2]), g = std::atoi(argv[3]);
    const int reps = argc > 4 ? std::atoi(argv[4]) : 5;
    const char prec = argc > 5 ? argv[5][0] : 'd';
    const bool vectors = argc > 6 && std::atoi(argv[6]) != 0;
    if (n < 1 || batch < 1 || g < 1 || reps < 1) {
        std::fprintf(stderr, "N, BATCH, G and REPS must be positive\n");
        return 2;
    }
    return prec == 's' ? probe<float>(n, batch, g, reps, vectors) : probe<double>(n, batch, g, reps, vectors);
} catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
