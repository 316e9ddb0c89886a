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
// usage: batcheig_geev_bitcheck [--n 7,12,...] [--batch B] [--vectors]
//   defaults: n = 7,12,15,16,20,25,30,31,40,55,64,80; batch 20 000
//   (1 500 with --vectors); complex types run batch / 2.
#include <batcheig.h>

#include "cuda_util.hpp"

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <random>
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

template <class T> struct RealOf { using type = T; };
template <class T> struct RealOf<std::complex<T>> { using type = T; };

using bench::cuda::check;
using bench::cuda::DeviceArray;

template <class T> std::vector<T> make_batch(int n, int lda, int batch) {
    using R = typename RealOf<T>::type;
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

template <class T> batcheigStatus_t call(batcheigHandle_t h, batcheigEigMode_t jobvr, int n, T *A, int lda,
                                         void *w, void *wi, T *VR, int ldvr, int *info, int batch) {
    const auto novec = BATCHEIG_EIG_MODE_NOVECTOR;
    if constexpr (std::is_same_v<T, float>)
        return batcheigSgeevBatched(h, novec, jobvr, n, A, lda, static_cast<float *>(w), static_cast<float *>(wi),
                                    nullptr, 1, VR, ldvr, nullptr, 0, info, nullptr, batch);
    else if constexpr (std::is_same_v<T, double>)
        return batcheigDgeevBatched(h, novec, jobvr, n, A, lda, static_cast<double *>(w), static_cast<double *>(wi),
                                    nullptr, 1, VR, ldvr, nullptr, 0, info, nullptr, batch);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return batcheigCgeevBatched(h, novec, jobvr, n, reinterpret_cast<batcheigComplex *>(A), lda,
                                    static_cast<batcheigComplex *>(w), nullptr, 1,
                                    reinterpret_cast<batcheigComplex *>(VR), ldvr, nullptr, 0, info, nullptr, batch);
    else
        return batcheigZgeevBatched(h, novec, jobvr, n, reinterpret_cast<batcheigDoubleComplex *>(A), lda,
                                    static_cast<batcheigDoubleComplex *>(w), nullptr, 1,
                                    reinterpret_cast<batcheigDoubleComplex *>(VR), ldvr, nullptr, 0, info, nullptr,
                                    batch);
}

template <class T> void run(batcheigHandle_t h, const char *name, int n, int lda, int batch, bool vectors) {
    using R = typename RealOf<T>::type;
    constexpr bool is_complex = !std::is_same_v<T, R>;
    const std::vector<T> a = make_batch<T>(n, lda, batch);
    const size_t nw = size_t(n) * batch, nv = vectors ? size_t(n) * n * batch : 0;
    DeviceArray<T> dA(a.size()), dVR(nv);
    DeviceArray<int> dinfo(batch);
    // Eigenvalues: W (complex) or wr and wi (real), as bytes.
    const size_t wbytes = nw * sizeof(T);
    DeviceArray<unsigned char> dw(is_complex ? wbytes : 2 * wbytes);
    check(cudaMemcpy(dA.get(), a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice), "copy in");
    const batcheigStatus_t st = call<T>(h, vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR, n, dA.get(),
                                        lda, dw.get(), is_complex ? nullptr : dw.get() + wbytes, vectors ? dVR.get() : nullptr,
                                        vectors ? n : 1, dinfo.get(), batch);
    check(cudaDeviceSynchronize(), "geevBatched");
    std::vector<unsigned char> w(is_complex ? wbytes : 2 * wbytes);
    std::vector<int> info(batch);
    check(cudaMemcpy(w.data(), dw.get(), w.size(), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(info.data(), dinfo.get(), info.size() * sizeof(int), cudaMemcpyDeviceToHost), "copy out");
    u64 hash = fnv1a(w.data(), w.size(), fnv_basis);
    hash = fnv1a(info.data(), info.size() * sizeof(int), hash);
    u64 vhash = 0;
    if (vectors) {
        std::vector<T> vr(nv);
        check(cudaMemcpy(vr.data(), dVR.get(), nv * sizeof(T), cudaMemcpyDeviceToHost), "copy out");
        vhash = fnv1a(vr.data(), nv * sizeof(T), fnv_basis);
    }
    int noconv = 0, nonfinite = 0;
    for (int x : info) {
        noconv += x > 0;
        nonfinite += x < 0;
    }
    std::printf("%s n=%d lda=%d batch=%d status=%d hash=%016llx vhash=%016llx noconv=%d nonfinite=%d\n", name, n,
                lda, batch, int(st), hash, vhash, noconv, nonfinite);
}

std::vector<int> parse_list(const char *s) {
    std::vector<int> v;
    for (const char *p = s; *p;) {
        char *end = nullptr;
        const long x = std::strtol(p, &end, 10);
        if (end == p || x < 1) {
            std::fprintf(stderr, "batcheig_geev_bitcheck: bad --n list '%s'\n", s);
            std::exit(2);
        }
        v.push_back(int(x));
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') {
            std::fprintf(stderr, "batcheig_geev_bitcheck: bad --n list '%s'\n", s);
            std::exit(2);
        }
    }
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<int> ns{7, 12, 15, 16, 20, 25, 30, 31, 40, 55, 64, 80};
    bool vectors = false;
    int batch = 0;
    for (int k = 1; k < argc; ++k) {
        if (!std::strcmp(argv[k], "--vectors")) vectors = true;
        else if (!std::strcmp(argv[k], "--n") && k + 1 < argc) ns = parse_list(argv[++k]);
        else if (!std::strcmp(argv[k], "--batch") && k + 1 < argc) batch = std::atoi(argv[++k]);
        else {
            std::fprintf(stderr, "usage: batcheig_geev_bitcheck [--n 7,12,...] [--batch B] [--vectors]\n");
            return 2;
        }
    }
    if (batch <= 0) batch = vectors ? 1500 : 20000;
    batcheigHandle_t h = nullptr;
    if (batcheigCreateWithBackend(&h, BATCHEIG_BACKEND_CUDA) != BATCHEIG_STATUS_SUCCESS) {
        std::fprintf(stderr, "batcheig_geev_bitcheck: no CUDA backend or no usable GPU\n");
        return 1;
    }
    int rc = 0;
    try {
        for (int n : ns) {
            run<float>(h, "S", n, n, batch, vectors);
            run<double>(h, "D", n, n, batch, vectors);
            run<double>(h, "D", n, n + 3, batch, vectors);
            run<std::complex<float>>(h, "C", n, n, (batch + 1) / 2, vectors);
            run<std::complex<double>>(h, "Z", n, n, (batch + 1) / 2, vectors);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "batcheig_geev_bitcheck: %s\n", e.what());
        rc = 1;
    }
    batcheigDestroy(h);
    return rc;
}
