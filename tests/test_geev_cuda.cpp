// geevBatched on the CUDA backend with device pointers: the asynchronous
// cuSOLVER-style path. Results must be bitwise identical to the same call
// with host arrays (which the backend stages through the same kernels), for
// every precision and variant, with a user stream and user workspace; and
// they must agree with the host backend. Each variant runs with the first
// job combination it claims (geev_jobs_claimed(): (V,V), or (N,N) for a
// variant that computes no vectors). Skipped without a usable GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <cstring>
#include <vector>

#include "catch_compat.hpp"
#include "support/backend.hpp"
#include "support/generators.hpp"
#include "support/geev_api.hpp"

using namespace bt;

namespace {

#define CUDA_REQUIRE(call) REQUIRE((call) == cudaSuccess)

template <class T>
struct DeviceBuffer {
    T *p = nullptr;
    size_t count = 0;
    explicit DeviceBuffer(size_t c) : count(c) {
        if (c) CUDA_REQUIRE(cudaMalloc(&p, c * sizeof(T)));
    }
    ~DeviceBuffer() { cudaFree(p); }
    void upload(const std::vector<T> &h) { CUDA_REQUIRE(cudaMemcpy(p, h.data(), count * sizeof(T), cudaMemcpyHostToDevice)); }
    std::vector<T> download() const {
        std::vector<T> h(count);
        if (count) CUDA_REQUIRE(cudaMemcpy(h.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost));
        return h;
    }
};

template <class T>
struct Outputs {
    std::vector<T> A, w, VL, VR;
    std::vector<real_t<T>> wi;
    std::vector<int> info;
};

constexpr GeevJobCombo kBothVectors{BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_EIG_MODE_VECTOR};

/// Arguments of one call; VL/VR (may be NULL where not wanted) with ld n
/// where wanted, else 1.
template <class T>
GeevArgs<T> args_for(batcheigHandle_t h, GeevJobCombo jobs, int n, int batch, T *A, T *w, real_t<T> *wi, T *VL,
                     T *VR, int *info, void *work, size_t lwork, batcheigParams_t params) {
    GeevArgs<T> g;
    g.handle = h;
    g.jobvl = jobs.jobvl;
    g.jobvr = jobs.jobvr;
    g.n = n;
    g.A = A;
    g.lda = n;
    if constexpr (is_complex_v<T>) {
        g.W = w;
    } else {
        g.wr = w;
        g.wi = wi;
    }
    g.VL = VL;
    g.ldvl = jobs.want_vl() ? n : 1;
    g.VR = VR;
    g.ldvr = jobs.want_vr() ? n : 1;
    g.work = work;
    g.lwork = lwork;
    g.info = info;
    g.params = params;
    g.batch = batch;
    return g;
}

// One call on host arrays (outputs zero-filled first; VL/VR only where wanted).
template <class T>
Outputs<T> run_host_arrays(batcheigHandle_t h, GeevJobCombo jobs, const std::vector<T> &A, int n, int batch,
                           batcheigParams_t params) {
    const size_t nn = size_t(n) * n * batch, n1 = size_t(n) * batch;
    Outputs<T> o;
    o.A = A;
    o.w.assign(n1, T(0));
    o.wi.assign(is_complex_v<T> ? 0 : n1, real_t<T>(0));
    o.VL.assign(jobs.want_vl() ? nn : 0, T(0));
    o.VR.assign(jobs.want_vr() ? nn : 0, T(0));
    o.info.assign(batch, -7);
    REQUIRE(geev_dispatch(args_for<T>(h, jobs, n, batch, o.A.data(), o.w.data(),
                                      is_complex_v<T> ? nullptr : o.wi.data(), o.VL.empty() ? nullptr : o.VL.data(),
                                      o.VR.empty() ? nullptr : o.VR.data(), o.info.data(), nullptr, 0, params)) ==
            BATCHEIG_STATUS_SUCCESS);
    return o;
}

// Largest distance between the eigenvalues of `a` and `b` (batch matrices
// of order n) after pairing them greedily per matrix: the order may differ
// where a rounding difference changes which eigenvalue deflates first.
template <class T>
double worst_paired_distance(const Outputs<T> &a, const Outputs<T> &b, int n, int batch) {
    auto eig = [](const Outputs<T> &o, size_t k) {
        if constexpr (is_complex_v<T>) return std::complex<double>(o.w[k]);
        else return std::complex<double>(double(o.w[k]), double(o.wi[k]));
    };
    double worst = 0;
    for (int m = 0; m < batch; ++m) {
        std::vector<bool> used(n, false);
        for (int i = 0; i < n; ++i) {
            double best = std::numeric_limits<double>::infinity();
            int bj = -1;
            for (int j = 0; j < n; ++j) {
                if (used[j]) continue;
                const double d = std::abs(eig(a, size_t(m) * n + i) - eig(b, size_t(m) * n + j));
                if (bj < 0 || d < best) {
                    best = d;
                    bj = j;
                }
            }
            used[bj] = true;
            worst = std::isnan(best) ? std::numeric_limits<double>::infinity() : std::max(worst, best);
        }
    }
    return worst;
}

template <class T>
void device_vs_host_arrays() {
    using R = real_t<T>;
    HandleGuard cuda;
    BT_CREATE_HANDLE_OR_SKIP(cuda, BATCHEIG_BACKEND_CUDA);
    HandleGuard host;
    REQUIRE(batcheigCreateWithBackend(&host.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);
    cudaStream_t stream;
    CUDA_REQUIRE(cudaStreamCreate(&stream));
    REQUIRE(batcheigSetStream(cuda, reinterpret_cast<batcheigStream_t>(stream)) == BATCHEIG_STATUS_SUCCESS);

    for (batcheigAlgorithm_t alg : geev_variants(BATCHEIG_BACKEND_CUDA)) {
        ParamsGuard params;
        REQUIRE(batcheigParamsSetAlgorithm(params, alg) == BATCHEIG_STATUS_SUCCESS);
        for (int n : {1, 2, 3, 5, 8, 13, 21, 32, 45}) {
            // (V,V); (N,N) for a variant that computes no vectors; none:
            // refused (the next test case checks the refusals).
            const std::vector<GeevJobCombo> claimed = geev_jobs_claimed<T>(alg, n);
            if (claimed.empty()) continue;
            const GeevJobCombo jobs = claimed.front();
            INFO("n = " << n << ", variant " << algorithm_name(alg) << ", jobs (" << (jobs.want_vl() ? 'V' : 'N')
                        << "," << (jobs.want_vr() ? 'V' : 'N') << ")");
            const int batch = 33;
            std::vector<T> A(size_t(n) * n * batch);
            for (int b = 0; b < batch; ++b) {
                auto m = make_matrix<T>(b % 5 == 0 ? Family::Companion : Family::RandomDense, Magnitude::Unit, n,
                                        make_seed(5150, n, b));
                std::memcpy(A.data() + size_t(b) * n * n, m.a.data(), sizeof(T) * n * n);
            }
            const size_t nn = size_t(n) * n * batch, n1 = size_t(n) * batch;

            // Host arrays on the CUDA backend (staged).
            const Outputs<T> ref = run_host_arrays<T>(cuda, jobs, A, n, batch, params);

            // Device arrays, user workspace, user stream (VL/VR only where wanted).
            DeviceBuffer<T> dA(nn), dw(n1), dVL(jobs.want_vl() ? nn : 0), dVR(jobs.want_vr() ? nn : 0);
            DeviceBuffer<R> dwi(is_complex_v<T> ? 0 : n1);
            DeviceBuffer<int> dinfo(batch);
            dA.upload(A);
            size_t lwork = 0;
            GeevArgs<T> g =
                args_for<T>(cuda, jobs, n, batch, dA.p, dw.p, dwi.p, dVL.p, dVR.p, dinfo.p, nullptr, 0, params);
            REQUIRE(geev_buffersize_dispatch(g, &lwork) == BATCHEIG_STATUS_SUCCESS);
            DeviceBuffer<char> work(lwork);
            g.work = work.p;
            g.lwork = lwork;
            REQUIRE(geev_dispatch(g) == BATCHEIG_STATUS_SUCCESS);
            CUDA_REQUIRE(cudaStreamSynchronize(stream));
            CHECK(dinfo.download() == ref.info);
            CHECK(std::memcmp(dw.download().data(), ref.w.data(), n1 * sizeof(T)) == 0);
            if constexpr (!is_complex_v<T>) CHECK(std::memcmp(dwi.download().data(), ref.wi.data(), n1 * sizeof(R)) == 0);
            if (jobs.want_vl()) CHECK(std::memcmp(dVL.download().data(), ref.VL.data(), nn * sizeof(T)) == 0);
            if (jobs.want_vr()) CHECK(std::memcmp(dVR.download().data(), ref.VR.data(), nn * sizeof(T)) == 0);

            // Agreement with the host backend (the GPU contracts a*b+c into
            // fused multiply-adds, so only up to rounding). Random matrices
            // of these sizes have well-separated, well-conditioned eigenvalues.
            const Outputs<T> hb = run_host_arrays<T>(host, jobs, A, n, batch, nullptr);
            CHECK(hb.info == ref.info);
            const double worst = worst_paired_distance(ref, hb, n, batch);
            const double u = std::numeric_limits<R>::epsilon() / 2;
            INFO("largest distance to the host backend's eigenvalues " << worst);
            CHECK(worst <= 1e5 * u * n);
        }
    }
    REQUIRE(batcheigSetStream(cuda, nullptr) == BATCHEIG_STATUS_SUCCESS);
    CUDA_REQUIRE(cudaStreamDestroy(stream));
}

// The lane variant claims real types, eigenvalues only, n = 1..32 while the
// block's 32 matrices fit in shared memory (geev_variant_claims; checked
// here against that contract): every such n for float, n <= 30 for double
// (32 x 31 x 31 x 8 bytes > 227 KiB). On device arrays everything else is
// refused with NOT_SUPPORTED, by the query and the call, before anything is
// written; what it claims succeeds, info = 0, and the eigenvalues agree
// with the host backend's.
template <class T>
void lanes_refuse_and_claim(batcheigHandle_t cuda, batcheigHandle_t host) {
    using R = real_t<T>;
    const batcheigAlgorithm_t alg = BATCHEIG_ALG_GEEV_CUDA_LANES;
    constexpr batcheigEigMode_t V = BATCHEIG_EIG_MODE_VECTOR, N = BATCHEIG_EIG_MODE_NOVECTOR;
    ParamsGuard params;
    REQUIRE(batcheigParamsSetAlgorithm(params, alg) == BATCHEIG_STATUS_SUCCESS);
    const int batch = 33;  // a block's 32 matrices and one more
    for (int n = 1; n <= 33; ++n) {
        std::vector<T> A(size_t(n) * n * batch);
        for (int b = 0; b < batch; ++b) {
            auto m = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(2323, n, b));
            std::memcpy(A.data() + size_t(b) * n * n, m.a.data(), sizeof(T) * n * n);
        }
        const size_t nn = size_t(n) * n * batch, n1 = size_t(n) * batch;
        for (const GeevJobCombo jobs : {GeevJobCombo{V, V}, GeevJobCombo{N, N}, GeevJobCombo{V, N}, GeevJobCombo{N, V}}) {
            INFO(precision_name<T>() << ", n = " << n << ", variant " << algorithm_name(alg) << ", jobs ("
                                     << (jobs.want_vl() ? 'V' : 'N') << "," << (jobs.want_vr() ? 'V' : 'N') << ")");
            const bool claimed = geev_variant_claims<T>(alg, n, jobs.want_vl(), jobs.want_vr());
            const bool in_domain = !is_complex_v<T> && !jobs.vectors() && n <= 32;
            if (!in_domain) CHECK(!claimed);  // complex, any vectors, n = 33
            if (in_domain && (sizeof(R) == 4 || n <= 30)) CHECK(claimed);
            DeviceBuffer<T> dA(nn), dw(n1), dVL(jobs.want_vl() ? nn : 0), dVR(jobs.want_vr() ? nn : 0);
            DeviceBuffer<R> dwi(is_complex_v<T> ? 0 : n1);
            DeviceBuffer<int> dinfo(batch);
            dA.upload(A);
            dinfo.upload(std::vector<int>(batch, -7));
            GeevArgs<T> g =
                args_for<T>(cuda, jobs, n, batch, dA.p, dw.p, dwi.p, dVL.p, dVR.p, dinfo.p, nullptr, 0, params);
            size_t lwork = 0;
            const batcheigStatus_t expect = claimed ? BATCHEIG_STATUS_SUCCESS : BATCHEIG_STATUS_NOT_SUPPORTED;
            CHECK(geev_buffersize_dispatch(g, &lwork) == expect);
            CHECK(geev_dispatch(g) == expect);
            CUDA_REQUIRE(cudaDeviceSynchronize());
            if (!claimed) {
                CHECK(dinfo.download() == std::vector<int>(batch, -7));  // nothing written
                continue;
            }
            CHECK(dinfo.download() == std::vector<int>(batch, 0));
            Outputs<T> got;
            got.w = dw.download();
            got.wi = dwi.download();
            const Outputs<T> hb = run_host_arrays<T>(host, jobs, A, n, batch, nullptr);
            const double worst = worst_paired_distance(got, hb, n, batch);
            const double u = std::numeric_limits<R>::epsilon() / 2;
            INFO("largest distance to the host backend's eigenvalues " << worst);
            CHECK(worst <= 1e5 * u * n);
        }
    }
}

}  // namespace

TEST_CASE("geev CUDA: device arrays match host arrays bitwise and the host backend closely", "[geev][cuda]") {
    SECTION("float") { device_vs_host_arrays<float>(); }
    SECTION("double") { device_vs_host_arrays<double>(); }
    SECTION("complex<float>") { device_vs_host_arrays<std::complex<float>>(); }
    SECTION("complex<double>") { device_vs_host_arrays<std::complex<double>>(); }
}

TEST_CASE("geev CUDA: the shared-memory variants refuse what they do not claim, and claim what fits",
          "[geev][cuda]") {
    // Warp and block variants, complex<double> with both vector matrices:
    // n = 70 needs 3 x 71 x 70 x 16 bytes of shared memory (> 227 KiB),
    // n = 60 fits (geev_variant_claims).
    using T = std::complex<double>;
    HandleGuard cuda;
    BT_CREATE_HANDLE_OR_SKIP(cuda, BATCHEIG_BACKEND_CUDA);
    for (batcheigAlgorithm_t alg : {BATCHEIG_ALG_GEEV_CUDA_WARP, BATCHEIG_ALG_GEEV_CUDA_BLOCK}) {
        ParamsGuard params;
        REQUIRE(batcheigParamsSetAlgorithm(params, alg) == BATCHEIG_STATUS_SUCCESS);
        for (int n : {60, 70}) {
            INFO("n = " << n << ", variant " << algorithm_name(alg));
            const bool claimed = geev_variant_claims<T>(alg, n, true, true);
            CHECK(claimed == (n == 60));
            const int batch = 2;
            std::vector<T> A(size_t(n) * n * batch), w(size_t(n) * batch), VL(A.size()), VR(A.size());
            for (int b = 0; b < batch; ++b) {
                auto m = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(7070, n, b));
                std::memcpy(A.data() + size_t(b) * n * n, m.a.data(), sizeof(T) * n * n);
            }
            std::vector<int> info(batch, -7);
            GeevArgs<T> g = args_for<T>(cuda, kBothVectors, n, batch, A.data(), w.data(), nullptr, VL.data(),
                                        VR.data(), info.data(), nullptr, 0, params);
            size_t lwork = 0;
            const batcheigStatus_t expect = claimed ? BATCHEIG_STATUS_SUCCESS : BATCHEIG_STATUS_NOT_SUPPORTED;
            CHECK(geev_buffersize_dispatch(g, &lwork) == expect);
            CHECK(geev_dispatch(g) == expect);
            if (claimed) CHECK(info == std::vector<int>(batch, 0));
            else CHECK(info == std::vector<int>(batch, -7));  // nothing written
        }
    }
    // The lane variant: real types, eigenvalues only, n <= 32.
    HandleGuard host;
    REQUIRE(batcheigCreateWithBackend(&host.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);
    lanes_refuse_and_claim<float>(cuda, host);
    lanes_refuse_and_claim<double>(cuda, host);
    lanes_refuse_and_claim<std::complex<float>>(cuda, host);
    lanes_refuse_and_claim<std::complex<double>>(cuda, host);
}
