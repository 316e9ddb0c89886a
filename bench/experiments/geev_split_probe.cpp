// geev_split_probe.cpp: how a geev call's time splits between the
// Hessenberg reduction and the QR iteration, with the library as it is.
// The same batch (entries uniform in [-1, 1]) is solved twice on device
// arrays: once as usual, once with batcheigParamsSetMaxIterations(1), so
// that the QR iteration stops after its first sweep of each matrix (the
// matrices then report info > 0, and no eigenvectors are formed). The
// second time is the call's fixed part (balancing, the reduction, with
// vectors the orthogonal factor, one sweep); the difference is the rest
// of the QR iteration and, with vectors, the eigenvectors.
// Built on request (CUDA builds):
//   ninja -C build/release batcheig_geev_split_probe
//   batcheig_geev_split_probe N BATCH [REPS=3] [PRECISION=d|s|c|z] [VECTORS=0|1]
// Prints the median of REPS calls (CUDA events, after one warm-up call) of
// each form, and the matrices with info != 0 in each.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include "batcheig.h"
#include "cuda_util.hpp"
#include "experiments/geev_probe_api.hpp"

namespace {

using geev_probe::Geev;
using geev_probe::must;

// Real parts and imaginary parts (the complex types) per entry.
template <class T, class R> constexpr int kScalars = int(sizeof(T) / sizeof(R));
template <class T, class R> constexpr bool kReal = kScalars<T, R> == 1;

template <class T, class R>
int probe(int n, int batch, int reps, bool vectors, const char *name) {
    namespace bc = bench::cuda;
    const std::size_t nn = std::size_t(n) * n;
    // Random real (and imaginary) parts: kScalars real n x n matrices per
    // matrix of the batch, read as its interleaved entries.
    const std::vector<R> parts = geev_probe::uniform_batch<R>(n, batch * kScalars<T, R>);
    std::vector<T> a(nn * batch);
    std::memcpy(a.data(), parts.data(), a.size() * sizeof(T));
    bc::DeviceArray<T> da(a.size()), dw(std::size_t(n) * batch), dvr(vectors ? a.size() : 1);
    bc::DeviceArray<R> dwi(kReal<T, R> ? std::size_t(n) * batch : 1);
    bc::DeviceArray<int> dinfo(batch);
    batcheigHandle_t h;
    must(batcheigCreate(&h), "batcheigCreate");
    batcheigParams_t capped;
    must(batcheigCreateParams(&capped), "batcheigCreateParams");
    must(batcheigParamsSetMaxIterations(capped, 1), "batcheigParamsSetMaxIterations");
    const batcheigEigMode_t nv = BATCHEIG_EIG_MODE_NOVECTOR;
    const batcheigEigMode_t jr = vectors ? BATCHEIG_EIG_MODE_VECTOR : nv;
    auto call = [&](bool sizing, batcheigParams_t params, void *work, size_t lw, size_t *lwork) {
        if constexpr (kReal<T, R>) {
            if (sizing)
                return Geev<T>::size(h, nv, jr, n, da.get(), n, dw.get(), dwi.get(), (T *)nullptr, 1, dvr.get(), n,
                                     lwork, params, batch);
            return Geev<T>::run(h, nv, jr, n, da.get(), n, dw.get(), dwi.get(), (T *)nullptr, 1, dvr.get(), n, work,
                                lw, dinfo.get(), params, batch);
        } else {
            if (sizing)
                return Geev<T>::size(h, nv, jr, n, da.get(), n, dw.get(), (T *)nullptr, 1, dvr.get(), n, lwork,
                                     params, batch);
            return Geev<T>::run(h, nv, jr, n, da.get(), n, dw.get(), (T *)nullptr, 1, dvr.get(), n, work, lw,
                                dinfo.get(), params, batch);
        }
    };
    size_t lw = 0;
    must(call(true, nullptr, nullptr, 0, &lw), "bufferSize");
    bc::DeviceArray<unsigned char> work(lw ? lw : 1);
    cudaEvent_t e0, e1;
    bc::check(cudaEventCreate(&e0), "cudaEventCreate");
    bc::check(cudaEventCreate(&e1), "cudaEventCreate");
    double med[2];
    long bad[2];
    for (int form = 0; form < 2; ++form) {
        std::vector<float> ms;
        for (int r = 0; r <= reps; ++r) {
            bc::check(cudaMemcpy(da.get(), a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
            bc::check(cudaEventRecord(e0, nullptr), "cudaEventRecord");
            must(call(false, form == 0 ? nullptr : capped, work.get(), lw, nullptr), "geevBatched");
            bc::check(cudaEventRecord(e1, nullptr), "cudaEventRecord");
            bc::check(cudaEventSynchronize(e1), "cudaEventSynchronize");
            float t = 0;
            bc::check(cudaEventElapsedTime(&t, e0, e1), "cudaEventElapsedTime");
            if (r > 0) ms.push_back(t);  // r = 0: warm-up
        }
        std::sort(ms.begin(), ms.end());
        med[form] = ms[ms.size() / 2];
        bad[form] = geev_probe::failed(dinfo, batch);
    }
    std::printf("%s n=%d batch=%d vectors=%d: whole %.3f ms (info!=0: %ld), one sweep %.3f ms (info!=0: %ld), "
                "rest %.3f ms (%.1f %%)\n",
                name, n, batch, int(vectors), med[0], bad[0], med[1], bad[1], med[0] - med[1],
                100.0 * (med[0] - med[1]) / med[0]);
    bc::check(cudaEventDestroy(e0), "cudaEventDestroy");
    bc::check(cudaEventDestroy(e1), "cudaEventDestroy");
    must(batcheigDestroyParams(capped), "batcheigDestroyParams");
    must(batcheigDestroy(h), "batcheigDestroy");
    return 0;
}

}  // namespace

int main(int argc, char **argv) try {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s N BATCH [REPS=3] [PRECISION=d|s|c|z] [VECTORS=0|1]\n", argv[0]);
        return 2;
    }
    const int n = std::atoi(argv[1]), batch = std::atoi(argv[2]);
    const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
    const char prec = argc > 4 ? argv[4][0] : 'd';
    const bool vectors = argc > 5 && std::atoi(argv[5]) != 0;
    if (n < 1 || batch < 1 || reps < 1) {
        std::fprintf(stderr, "N, BATCH and REPS must be positive\n");
        return 2;
    }
    switch (prec) {
        case 's': return probe<float, float>(n, batch, reps, vectors, "float");
        case 'c': return probe<batcheigComplex, float>(n, batch, reps, vectors, "complex float");
        case 'z': return probe<batcheigDoubleComplex, double>(n, batch, reps, vectors, "complex double");
        default: return probe<double, double>(n, batch, reps, vectors, "double");
    }
} catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
