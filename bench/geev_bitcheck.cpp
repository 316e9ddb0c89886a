// batcheig_geev_bitcheck: fingerprints of geevBatched's results on device
// arrays, to show that a change of the CUDA kernels leaves the results
// bitwise unchanged (run it with the old and the new library and diff the
// output), and as a small, deterministic workload for compute-sanitizer.
//
// For each n and each precision (S, D with lda = n and lda = n + 3, C, Z)
// it runs one call on a fixed pseudo-random batch: random, scaled (2^-20 ..
// 2^19), upper Hessenberg and, every 97th matrix of its kind, one NaN. It
// prints an FNV-1a hash of the eigenvalues and info, of the right
// eigenvectors with --vectors, and the counts of info > 0 and info < 0.
//
// With --syevj it checks syevjBatched / heevjBatched instead (AUTO, lower
// triangle, with eigenvectors): Hermitian batches of random, scaled, nearly
// scalar (I + 2^-26 R: clustered eigenvalues) and, every 97th of its kind,
// NaN matrices; the hash covers w and info, vhash the eigenvectors, and the
// sweeps and residuals of the params' outputs. --algorithm K (geev or
// syevj) forces the variant whose batcheigAlgorithm_t value is K (a
// precision or size that does not have it prints its status,
// BATCHEIG_STATUS_NOT_SUPPORTED). --per-kind
// adds a line per kind of matrix with the same hashes over that kind's
// matrices alone, to tell which kinds a change moved.
//
// --precision P (a set of the letters s, d, c, z; default all) runs only
// those precisions, so that a compute-sanitizer run can target one launch
// (for example the staged QR launches, whose batches must be large).
//
// usage: batcheig_geev_bitcheck [--n LIST] [--batch B] [--vectors] [--precision P]
//                               [--algorithm K] [--syevj [--per-kind]]
//   LIST: values and ranges a:b[:step], as batcheig_bench --n;
//   defaults: n = 7,12,15,16,20,25,30,31,40,55,64,80; batch 20 000
//   (1 500 with --vectors, 2 000 with --syevj); complex types run batch / 2.
#include <batcheig.h>

#include "bench_common.hpp"
#include "cuda_util.hpp"
#include "geev_batcheig_call.hpp"
#include "syevj_batcheig_call.hpp"

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using u64 = unsigned long long;
constexpr u64 fnv_basis = 1469598103934665603ull;

u64 fnv1a(const void *p, size_t bytes, u64 h) {
    const auto *c = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < bytes; ++i) {
        h ^= c[i];
        h *= 1099511628211ull;
    }
    return h;
}

using bench::cuda::check;
using bench::cuda::DeviceArray;

template <class T> std::vector<T> make_batch(int n, int lda, int batch) {
    using R = typename bench::scalar_traits<T>::real;
    std::mt19937_64 gen(1234 + n);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<T> a(size_t(lda) * n * batch, T(0));
    auto draw = [&](double s) {
        if constexpr (std::is_same_v<T, R>) return T(s * u(gen));
        else return T(R(s * u(gen)), R(s * u(gen)));
    };
    for (int b = 0; b < batch; ++b) {
        const int kind = b % 5;  // 0, 1: random; 2: scaled; 3: Hessenberg; 4: random, some with a NaN
        const double s = kind == 2 ? std::ldexp(1.0, b % 40 - 20) : 1.0;
        T *m = a.data() + size_t(b) * lda * n;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                if (!(kind == 3 && i > j + 1)) m[i + size_t(j) * lda] = draw(s);
        if (kind == 4 && b % 97 == 4) m[n / 3 + size_t(n / 2) * lda] = T(std::numeric_limits<R>::quiet_NaN());
    }
    return a;
}

template <class T>
void run(batcheigHandle_t h, const char *name, int n, int lda, int batch, bool vectors, int algorithm) {
    using R = typename bench::scalar_traits<T>::real;
    constexpr bool is_complex = !std::is_same_v<T, R>;
    const std::vector<T> a = make_batch<T>(n, lda, batch);
    const size_t nw = size_t(n) * batch, nv = vectors ? size_t(n) * n * batch : 0;
    // Eigenvalues: W (complex) or wr and wi (real).
    DeviceArray<T> dA(a.size()), dw1(nw), dVR(nv);
    DeviceArray<R> dw2(is_complex ? 0 : nw);
    DeviceArray<int> dinfo(batch);
    check(cudaMemcpy(dA.get(), a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice), "copy in");
    batcheigParams_t prm = nullptr;
    if (algorithm != BATCHEIG_ALG_AUTO &&
        (batcheigCreateParams(&prm) != BATCHEIG_STATUS_SUCCESS ||
         batcheigParamsSetAlgorithm(prm, static_cast<batcheigAlgorithm_t>(algorithm)) != BATCHEIG_STATUS_SUCCESS))
        throw std::runtime_error("params");
    const batcheigStatus_t st =
        bench::geev_call::geev(h, vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR, n, dA.get(), lda,
                               dw1.get(), dw2.get(), dVR.get(), vectors ? n : 1, nullptr, 0, dinfo.get(), prm, batch);
    check(cudaDeviceSynchronize(), "geevBatched");
    batcheigDestroyParams(prm);
    std::vector<T> w1(nw);
    std::vector<R> w2(dw2.count());
    std::vector<int> info(batch);
    check(cudaMemcpy(w1.data(), dw1.get(), dw1.bytes(), cudaMemcpyDeviceToHost), "copy out");
    if (!is_complex) check(cudaMemcpy(w2.data(), dw2.get(), dw2.bytes(), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(info.data(), dinfo.get(), dinfo.bytes(), cudaMemcpyDeviceToHost), "copy out");
    u64 hash = fnv1a(w1.data(), dw1.bytes(), fnv_basis);
    hash = fnv1a(w2.data(), dw2.bytes(), hash);
    hash = fnv1a(info.data(), dinfo.bytes(), hash);
    u64 vhash = 0;
    if (vectors) {
        std::vector<T> vr(nv);
        check(cudaMemcpy(vr.data(), dVR.get(), dVR.bytes(), cudaMemcpyDeviceToHost), "copy out");
        vhash = fnv1a(vr.data(), dVR.bytes(), fnv_basis);
    }
    int noconv = 0, nonfinite = 0;
    for (int x : info) {
        noconv += x > 0;
        nonfinite += x < 0;
    }
    std::printf("%s n=%d lda=%d batch=%d status=%d hash=%016llx vhash=%016llx noconv=%d nonfinite=%d\n", name, n,
                lda, batch, int(st), hash, vhash, noconv, nonfinite);
}

// Hermitian batch (both triangles written) for --syevj.
template <class T> std::vector<T> make_hermitian_batch(int n, int batch) {
    using R = typename bench::scalar_traits<T>::real;
    std::mt19937_64 gen(4321 + n);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<T> a(size_t(n) * n * batch, T(0));
    for (int b = 0; b < batch; ++b) {
        const int kind = b % 4;  // 0: random; 1: scaled; 2: I + 2^-26 R; 3: random, some with a NaN
        const double s = kind == 1 ? std::ldexp(1.0, b % 40 - 20) : kind == 2 ? std::ldexp(1.0, -26) : 1.0;
        T *m = a.data() + size_t(b) * n * n;
        for (int j = 0; j < n; ++j)
            for (int i = j; i < n; ++i) {
                T x;
                if constexpr (std::is_same_v<T, R>) x = T(s * u(gen));
                else x = i == j ? T(R(s * u(gen)), R(0)) : T(R(s * u(gen)), R(s * u(gen)));
                if (kind == 2 && i == j) x += T(1);
                m[i + size_t(j) * n] = x;
                if constexpr (std::is_same_v<T, R>) m[j + size_t(i) * n] = x;
                else m[j + size_t(i) * n] = std::conj(x);
            }
        if (kind == 3 && b % 97 == 3) m[n - 1] = T(std::numeric_limits<R>::quiet_NaN());
    }
    return a;
}

template <class T>
void run_syevj(batcheigHandle_t h, const char *name, int n, int batch, int algorithm, bool per_kind) {
    using R = typename bench::scalar_traits<T>::real;
    std::vector<T> a = make_hermitian_batch<T>(n, batch);
    DeviceArray<T> dA(a.size());
    DeviceArray<R> dw(size_t(n) * batch);
    DeviceArray<int> dinfo(batch), dsweeps(batch);
    DeviceArray<double> dres(batch);
    check(cudaMemcpy(dA.get(), a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice), "copy in");
    batcheigParams_t prm = nullptr;
    if (batcheigCreateParams(&prm) != BATCHEIG_STATUS_SUCCESS ||
        batcheigParamsSetJacobiOutputs(prm, dsweeps.get(), dres.get()) != BATCHEIG_STATUS_SUCCESS ||
        batcheigParamsSetAlgorithm(prm, static_cast<batcheigAlgorithm_t>(algorithm)) != BATCHEIG_STATUS_SUCCESS)
        throw std::runtime_error("params");
    size_t lw = 0;
    batcheigStatus_t st = bench::syevj_call::buffer_size(h, BATCHEIG_EIG_MODE_VECTOR, n, dA.get(), dw.get(), &lw, prm,
                                                         batch);
    DeviceArray<unsigned char> wk(lw);
    if (st == BATCHEIG_STATUS_SUCCESS)
        st = bench::syevj_call::syevj(h, BATCHEIG_EIG_MODE_VECTOR, n, dA.get(), dw.get(), wk.get(), lw, dinfo.get(),
                                      prm, batch);
    check(cudaDeviceSynchronize(), "syevjBatched");
    batcheigDestroyParams(prm);
    std::vector<R> w(dw.count());
    std::vector<int> info(batch), sweeps(batch);
    std::vector<double> res(batch);
    check(cudaMemcpy(w.data(), dw.get(), dw.bytes(), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(info.data(), dinfo.get(), dinfo.bytes(), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(sweeps.data(), dsweeps.get(), dsweeps.bytes(), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(res.data(), dres.get(), dres.bytes(), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(a.data(), dA.get(), dA.bytes(), cudaMemcpyDeviceToHost), "copy out");
    u64 hash = fnv1a(w.data(), dw.bytes(), fnv_basis);
    hash = fnv1a(info.data(), dinfo.bytes(), hash);
    u64 shash = fnv1a(sweeps.data(), dsweeps.bytes(), fnv_basis);
    shash = fnv1a(res.data(), dres.bytes(), shash);
    const u64 vhash = fnv1a(a.data(), dA.bytes(), fnv_basis);
    long total = 0;
    int noconv = 0, nonfinite = 0;
    for (int b = 0; b < batch; ++b) {
        noconv += info[b] > 0;
        nonfinite += info[b] < 0;
        total += sweeps[b];
    }
    std::printf("%s syevj n=%d batch=%d status=%d hash=%016llx vhash=%016llx shash=%016llx sweeps=%ld noconv=%d "
                "nonfinite=%d\n",
                name, n, batch, int(st), hash, vhash, shash, total, noconv, nonfinite);
    if (!per_kind) return;
    // The same hashes over the matrices of one kind of make_hermitian_batch.
    const char *kinds[] = {"random", "scaled", "nearly-scalar", "random-nan"};
    const size_t nn = size_t(n) * n;
    for (int kind = 0; kind < 4; ++kind) {
        u64 kh = fnv_basis, kv = fnv_basis, ks = fnv_basis;
        long ksweeps = 0;
        for (int b = kind; b < batch; b += 4) {
            kh = fnv1a(w.data() + size_t(b) * n, size_t(n) * sizeof(R), kh);
            kh = fnv1a(&info[b], sizeof(int), kh);
            kv = fnv1a(a.data() + size_t(b) * nn, nn * sizeof(T), kv);
            ks = fnv1a(&sweeps[b], sizeof(int), ks);
            ks = fnv1a(&res[b], sizeof(double), ks);
            ksweeps += sweeps[b];
        }
        std::printf("  %s n=%d kind=%s hash=%016llx vhash=%016llx shash=%016llx sweeps=%ld\n", name, n, kinds[kind], kh,
                    kv, ks, ksweeps);
    }
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<int> ns{7, 12, 15, 16, 20, 25, 30, 31, 40, 55, 64, 80};
    bool vectors = false, syevj = false, per_kind = false;
    int batch = 0, algorithm = BATCHEIG_ALG_AUTO;
    std::string precisions = "sdcz";
    const char *usage =
        "usage: batcheig_geev_bitcheck [--n LIST] [--batch B] [--vectors] [--precision P]\n"
        "                              [--algorithm K] [--syevj [--per-kind]]\n"
        "  P: a set of the letters s, d, c, z (default all)\n";
    try {
        for (int k = 1; k < argc; ++k) {
            if (!std::strcmp(argv[k], "--vectors")) vectors = true;
            else if (!std::strcmp(argv[k], "--syevj")) syevj = true;
            else if (!std::strcmp(argv[k], "--per-kind")) per_kind = true;
            else if (!std::strcmp(argv[k], "--n") && k + 1 < argc) ns = bench::parse_list(argv[++k]);
            else if (!std::strcmp(argv[k], "--batch") && k + 1 < argc) batch = std::atoi(argv[++k]);
            else if (!std::strcmp(argv[k], "--algorithm") && k + 1 < argc) algorithm = std::atoi(argv[++k]);
            else if (!std::strcmp(argv[k], "--precision") && k + 1 < argc) {
                precisions = argv[++k];
                if (precisions.empty() || precisions.find_first_not_of("sdcz") != std::string::npos) {
                    std::fputs(usage, stderr);
                    return 2;
                }
            } else {
                std::fputs(usage, stderr);
                return 2;
            }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "batcheig_geev_bitcheck: %s\n%s", e.what(), usage);
        return 2;
    }
    if (batch <= 0) batch = syevj ? 2000 : vectors ? 1500 : 20000;
    batcheigHandle_t h = nullptr;
    if (batcheigCreateWithBackend(&h, BATCHEIG_BACKEND_CUDA) != BATCHEIG_STATUS_SUCCESS) {
        std::fprintf(stderr, "batcheig_geev_bitcheck: no CUDA backend or no usable GPU\n");
        return 1;
    }
    int rc = 0;
    try {
        for (int n : ns) {
            auto want = [&](char p) { return precisions.find(p) != std::string::npos; };
            if (syevj) {
                if (want('s')) run_syevj<float>(h, "S", n, batch, algorithm, per_kind);
                if (want('d')) run_syevj<double>(h, "D", n, batch, algorithm, per_kind);
                if (want('c')) run_syevj<std::complex<float>>(h, "C", n, (batch + 1) / 2, algorithm, per_kind);
                if (want('z')) run_syevj<std::complex<double>>(h, "Z", n, (batch + 1) / 2, algorithm, per_kind);
                continue;
            }
            if (want('s')) run<float>(h, "S", n, n, batch, vectors, algorithm);
            if (want('d')) {
                run<double>(h, "D", n, n, batch, vectors, algorithm);
                run<double>(h, "D", n, n + 3, batch, vectors, algorithm);
            }
            if (want('c')) run<std::complex<float>>(h, "C", n, n, (batch + 1) / 2, vectors, algorithm);
            if (want('z')) run<std::complex<double>>(h, "Z", n, n, (batch + 1) / 2, vectors, algorithm);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "batcheig_geev_bitcheck: %s\n", e.what());
        rc = 1;
    }
    batcheigDestroy(h);
    return rc;
}
