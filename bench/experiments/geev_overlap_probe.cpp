// geev_overlap_probe.cpp: does a device-array eigenvalue batch run faster
// when it is cut into pieces issued on several streams, so that one piece's
// reduction launch can share the SMs with another piece's QR launches?
// (The reduction launch is bound by shared-memory throughput, the QR
// launches by instruction issue; one call runs them one after the other.)
// The batch (uniform in [-1, 1]) is cut into PIECES equal pieces; piece k
// goes to handle k % STREAMS, each handle with its own stream and its own
// workspace. The time runs from an event before the first piece to one
// after the last piece of every stream (CUDA events, after one warm-up).
// Built on request (CUDA builds):
//   ninja -C build/release batcheig_geev_overlap_probe
//   batcheig_geev_overlap_probe N BATCH PIECES STREAMS [REPS=5] [PRECISION=d|s]
// Prints the median and best time, the number of matrices with info != 0 and
// the sum of the squared real parts (the same for every arrangement).
// Results: docs/performance.md, "Session 84".
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

template <class T> int probe(int n, int batch, int pieces, int streams, int reps) {
    namespace bc = bench::cuda;
    const std::size_t nn = std::size_t(n) * n;
    const std::vector<T> a = geev_probe::uniform_batch<T>(n, batch);
    bc::DeviceArray<T> da(a.size()), pristine(a.size()), dwr(std::size_t(n) * batch), dwi(std::size_t(n) * batch);
    bc::check(cudaMemcpy(pristine.get(), a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    bc::DeviceArray<int> dinfo(batch);
    const int piece = (batch + pieces - 1) / pieces;
    std::vector<batcheigHandle_t> h(streams);
    std::vector<cudaStream_t> st(streams);
    std::vector<cudaEvent_t> done(streams);
    std::vector<bc::DeviceArray<unsigned char>> work;
    std::vector<size_t> lw(streams);
    for (int s = 0; s < streams; ++s) {
        bc::check(cudaStreamCreateWithFlags(&st[s], cudaStreamNonBlocking), "cudaStreamCreate");
        bc::check(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming), "cudaEventCreate");
        must(batcheigCreate(&h[s]), "batcheigCreate");
        must(batcheigSetStream(h[s], st[s]), "batcheigSetStream");
        must(Geev<T>::size(h[s], BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, da.get(), n, dwr.get(),
                           dwi.get(), nullptr, 1, nullptr, 1, &lw[s], nullptr, piece),
             "bufferSize");
        work.emplace_back(lw[s] ? lw[s] : 1);
    }
    cudaEvent_t e0, e1;
    bc::check(cudaEventCreate(&e0), "cudaEventCreate");
    bc::check(cudaEventCreate(&e1), "cudaEventCreate");
    std::vector<float> ms;
    for (int r = 0; r <= reps; ++r) {
        bc::check(cudaMemcpy(da.get(), pristine.get(), a.size() * sizeof(T), cudaMemcpyDeviceToDevice), "cudaMemcpy");
        bc::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        bc::check(cudaEventRecord(e0, st[0]), "cudaEventRecord");
        for (int s = 1; s < streams; ++s) bc::check(cudaStreamWaitEvent(st[s], e0, 0), "cudaStreamWaitEvent");
        for (int k = 0; k < pieces; ++k) {
            const int b0 = k * piece, count = std::min(piece, batch - b0);
            if (count <= 0) break;
            const int s = k % streams;
            must(Geev<T>::run(h[s], BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, da.get() + b0 * nn, n,
                              dwr.get() + std::size_t(b0) * n, dwi.get() + std::size_t(b0) * n, nullptr, 1, nullptr,
                              1, work[s].get(), lw[s], dinfo.get() + b0, nullptr, count),
                 "geevBatched");
        }
        for (int s = 1; s < streams; ++s) {
            bc::check(cudaEventRecord(done[s], st[s]), "cudaEventRecord");
            bc::check(cudaStreamWaitEvent(st[0], done[s], 0), "cudaStreamWaitEvent");
        }
        bc::check(cudaEventRecord(e1, st[0]), "cudaEventRecord");
        bc::check(cudaEventSynchronize(e1), "cudaEventSynchronize");
        float t = 0;
        bc::check(cudaEventElapsedTime(&t, e0, e1), "cudaEventElapsedTime");
        if (r > 0) ms.push_back(t);  // r = 0: warm-up
    }
    const long bad = geev_probe::failed(dinfo, batch);
    // A checksum of the eigenvalues, so that every arrangement can be seen to compute the same.
    std::vector<T> wr(std::size_t(n) * batch);
    bc::check(cudaMemcpy(wr.data(), dwr.get(), wr.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    double sum = 0;
    for (T x : wr) sum += double(x) * double(x);
    std::sort(ms.begin(), ms.end());
    std::printf("%s n=%d batch=%d pieces=%d streams=%d: median %.4f ms, best %.4f ms, info!=0: %ld, sum wr^2 %.10e\n",
                sizeof(T) == 8 ? "double" : "float", n, batch, pieces, streams, ms[ms.size() / 2], ms.front(), bad,
                sum);
    bc::check(cudaEventDestroy(e0), "cudaEventDestroy");
    bc::check(cudaEventDestroy(e1), "cudaEventDestroy");
    for (int s = 0; s < streams; ++s) {
        must(batcheigDestroy(h[s]), "batcheigDestroy");
        bc::check(cudaEventDestroy(done[s]), "cudaEventDestroy");
        bc::check(cudaStreamDestroy(st[s]), "cudaStreamDestroy");
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) try {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s N BATCH PIECES STREAMS [REPS=5] [PRECISION=d|s]\n", argv[0]);
        return 2;
    }
    const int n = std::atoi(argv[1]), batch = std::atoi(argv[2]), pieces = std::atoi(argv[3]),
              streams = std::atoi(argv[4]);
    const int reps = argc > 5 ? std::atoi(argv[5]) : 5;
    const char prec = argc > 6 ? argv[6][0] : 'd';
    if (n < 1 || batch < 1 || pieces < 1 || streams < 1 || reps < 1) {
        std::fprintf(stderr, "N, BATCH, PIECES, STREAMS and REPS must be positive\n");
        return 2;
    }
    return prec == 's' ? probe<float>(n, batch, pieces, streams, reps) : probe<double>(n, batch, pieces, streams, reps);
} catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
