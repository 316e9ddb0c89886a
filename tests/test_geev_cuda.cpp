// geevBatched on the CUDA backend with device pointers: the asynchronous
// cuSOLVER-style path. Results must be bitwise identical to the same call
// with host arrays (which the backend stages through the same kernels), for
// every precision and variant, with a user stream and user workspace; and
// they must agree with the host backend. Skipped without a usable GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <complex>
#include <limits>
#include <cstring>
#include <thread>
#include <vector>

#include "catch_compat.hpp"
#include "plan/tuning.hpp"
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
    // Complete on return (a pageable copy's DMA may still be in flight when
    // cudaMemcpy returns; the calls under test may run on non-blocking streams).
    void upload(const std::vector<T> &h) {
        CUDA_REQUIRE(cudaMemcpy(p, h.data(), count * sizeof(T), cudaMemcpyHostToDevice));
        CUDA_REQUIRE(cudaDeviceSynchronize());
    }
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

template <class T>
GeevArgs<T> args_for(batcheigHandle_t h, int n, int batch, T *A, T *w, real_t<T> *wi, T *VL, T *VR, int *info,
                     void *work, size_t lwork, batcheigParams_t params, bool vectors = true) {
    GeevArgs<T> g;
    g.handle = h;
    g.jobvl = vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
    g.jobvr = g.jobvl;
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
    g.ldvl = n;
    g.VR = VR;
    g.ldvr = n;
    g.work = work;
    g.lwork = lwork;
    g.info = info;
    g.params = params;
    g.batch = batch;
    return g;
}

// One call on host arrays (outputs zero-filled first).
template <class T>
Outputs<T> run_host_arrays(batcheigHandle_t h, const std::vector<T> &A, int n, int batch, batcheigParams_t params,
                           bool vectors = true) {
    const size_t nn = size_t(n) * n * batch, n1 = size_t(n) * batch;
    Outputs<T> o;
    o.A = A;
    o.w.assign(n1, T(0));
    o.wi.assign(is_complex_v<T> ? 0 : n1, real_t<T>(0));
    o.VL.assign(nn, T(0));
    o.VR.assign(nn, T(0));
    o.info.assign(batch, -7);
    REQUIRE(geev_dispatch(args_for<T>(h, n, batch, o.A.data(), o.w.data(), is_complex_v<T> ? nullptr : o.wi.data(),
                                      o.VL.data(), o.VR.data(), o.info.data(), nullptr, 0, params, vectors)) ==
            BATCHEIG_STATUS_SUCCESS);
    return o;
}

// Matrix b's eigenvalues in two outputs, paired greedily one to one (each
// of a's takes the nearest of b's not yet taken): the largest distance of a
// pair, each divided by (1 + |a's eigenvalue|) when relative. The order of
// two runs' eigenvalues may differ where a rounding difference changes which
// one deflates first.
template <class T>
double worst_pairing(const Outputs<T> &a, const Outputs<T> &b, int n, int matrix, bool relative) {
    auto eig = [&](const Outputs<T> &o, int i) {
        const size_t k = size_t(matrix) * n + i;
        if constexpr (is_complex_v<T>) return std::complex<double>(o.w[k]);
        else return std::complex<double>(double(o.w[k]), double(o.wi[k]));
    };
    double worst = 0;
    std::vector<bool> used(n, false);
    for (int i = 0; i < n; ++i) {
        double best = std::numeric_limits<double>::infinity();
        int bj = -1;
        for (int j = 0; j < n; ++j) {
            if (used[j]) continue;
            const double d = std::abs(eig(a, i) - eig(b, j));
            if (bj < 0 || d < best) {
                best = d;
                bj = j;
            }
        }
        used[bj] = true;
        worst = std::max(worst, relative ? best / (1.0 + std::abs(eig(a, i))) : best);
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
        for (int n : {1, 2, 3, 5, 8, 10, 13, 21, 32, 45, 55})
            for (bool vectors : {true, false}) {
                // Eigenvalues only take other launches (from n ~ 12 the warp
                // variant's QR on the packed band, cuda/geev/geev_team.cuh).
                INFO("n = " << n << ", variant " << algorithm_name(alg)
                            << (vectors ? ", both vectors" : ", eigenvalues only"));
                const int batch = 33;
                std::vector<T> A(size_t(n) * n * batch);
                for (int b = 0; b < batch; ++b) {
                    auto m = make_matrix<T>(b % 5 == 0 ? Family::Companion : Family::RandomDense, Magnitude::Unit, n,
                                            make_seed(5150, n, b));
                    std::memcpy(A.data() + size_t(b) * n * n, m.a.data(), sizeof(T) * n * n);
                }
                const size_t nn = size_t(n) * n * batch, n1 = size_t(n) * batch;

                // Host arrays on the CUDA backend (staged).
                const Outputs<T> ref = run_host_arrays<T>(cuda, A, n, batch, params, vectors);

                // Device arrays, user workspace, user stream.
                DeviceBuffer<T> dA(nn), dw(n1), dVL(nn), dVR(nn);
                DeviceBuffer<R> dwi(is_complex_v<T> ? 0 : n1);
                DeviceBuffer<int> dinfo(batch);
                dA.upload(A);
                size_t lwork = 0;
                GeevArgs<T> g =
                    args_for<T>(cuda, n, batch, dA.p, dw.p, dwi.p, dVL.p, dVR.p, dinfo.p, nullptr, 0, params, vectors);
                REQUIRE(geev_buffersize_dispatch(g, &lwork) == BATCHEIG_STATUS_SUCCESS);
                DeviceBuffer<char> work(lwork);
                g.work = work.p;
                g.lwork = lwork;
                REQUIRE(geev_dispatch(g) == BATCHEIG_STATUS_SUCCESS);
                CUDA_REQUIRE(cudaStreamSynchronize(stream));
                CHECK(dinfo.download() == ref.info);
                CHECK(std::memcmp(dw.download().data(), ref.w.data(), n1 * sizeof(T)) == 0);
                if constexpr (!is_complex_v<T>)
                    CHECK(std::memcmp(dwi.download().data(), ref.wi.data(), n1 * sizeof(R)) == 0);
                if (vectors) {
                    CHECK(std::memcmp(dVL.download().data(), ref.VL.data(), nn * sizeof(T)) == 0);
                    CHECK(std::memcmp(dVR.download().data(), ref.VR.data(), nn * sizeof(T)) == 0);
                }

                // Agreement with the host backend (the GPU contracts a*b+c into
                // fused multiply-adds, so only up to rounding).
                const Outputs<T> hb = run_host_arrays<T>(host, A, n, batch, nullptr, vectors);
                CHECK(hb.info == ref.info);
                // Eigenvalues agree up to rounding (random matrices of these
                // sizes have well-separated, well-conditioned eigenvalues).
                double worst = 0;
                for (int b = 0; b < batch; ++b) worst = std::max(worst, worst_pairing(ref, hb, n, b, false));
                const double u = std::numeric_limits<R>::epsilon() / 2;
                CHECK(worst <= 1e5 * u * n);
            }
    }
    REQUIRE(batcheigSetStream(cuda, nullptr) == BATCHEIG_STATUS_SUCCESS);
    CUDA_REQUIRE(cudaStreamDestroy(stream));
}

// One geevBatched call on device arrays of `count` matrices at a (host),
// the outputs downloaded into o, with the workspace the call asks for
// (its size returned). vectors: right vectors, and left ones unless
// `left` is false. lda_pad > 0: A's leading dimension is n + lda_pad, its
// padding rows quiet NaNs, and A as the call leaves it (padding included)
// goes to o.A.
template <class T>
size_t run_device_call(batcheigHandle_t cuda, batcheigParams_t params, int n, int count, const T *a, bool vectors,
                       Outputs<T> &o, bool left = true, int lda_pad = 0) {
    const bool want_vl = vectors && left;
    const int lda = n + lda_pad;
    const size_t nn = size_t(n) * n, na = size_t(lda) * n, vn = vectors ? nn * count : 0;
    DeviceBuffer<T> dA(na * count), dw(size_t(n) * count), dVL(want_vl ? vn : 0), dVR(vn);
    DeviceBuffer<real_t<T>> dwi(is_complex_v<T> ? 0 : size_t(n) * count);
    DeviceBuffer<int> dinfo(count);
    std::vector<T> h(na * count, T(std::numeric_limits<real_t<T>>::quiet_NaN()));
    for (size_t c = 0; c < size_t(n) * count; ++c) std::copy(a + c * n, a + (c + 1) * n, h.begin() + c * lda);
    dA.upload(h);
    GeevArgs<T> g = args_for<T>(cuda, n, count, dA.p, dw.p, dwi.p, dVL.p, dVR.p, dinfo.p, nullptr, 0, params, vectors);
    g.lda = lda;
    if (!want_vl) g.jobvl = BATCHEIG_EIG_MODE_NOVECTOR;
    size_t lwork = 0;
    REQUIRE(geev_buffersize_dispatch(g, &lwork) == BATCHEIG_STATUS_SUCCESS);
    DeviceBuffer<char> work(lwork);
    g.work = work.p;
    g.lwork = lwork;
    REQUIRE(geev_dispatch(g) == BATCHEIG_STATUS_SUCCESS);
    CUDA_REQUIRE(cudaDeviceSynchronize());
    o.w = dw.download();
    if constexpr (!is_complex_v<T>) o.wi = dwi.download();
    if (want_vl) o.VL = dVL.download();
    if (vectors) o.VR = dVR.download();
    o.info = dinfo.download();
    if (lda_pad > 0) o.A = dA.download();
    return lwork;
}

// Matrix b of a batch call's outputs `all` against a call on that matrix
// alone (`one`), bitwise.
template <class T>
void check_same_outputs(const Outputs<T> &one, const Outputs<T> &all, int b, int n, bool vectors) {
    const size_t nn = size_t(n) * n;
    CHECK(one.info[0] == all.info[b]);
    CHECK(std::memcmp(one.w.data(), all.w.data() + size_t(b) * n, n * sizeof(T)) == 0);
    if constexpr (!is_complex_v<T>)
        CHECK(std::memcmp(one.wi.data(), all.wi.data() + size_t(b) * n, n * sizeof(real_t<T>)) == 0);
    if (vectors) {
        CHECK(std::memcmp(one.VL.data(), all.VL.data() + size_t(b) * nn, nn * sizeof(T)) == 0);
        CHECK(std::memcmp(one.VR.data(), all.VR.data() + size_t(b) * nn, nn * sizeof(T)) == 0);
    }
}

// The warp and block variants run two launches over pieces of the batch,
// the state of a piece in the workspace: with vectors, pieces of
// tuning::cuda_geev_split_chunk matrices; eigenvalues only with the QR
// phase on the band, pieces of tuning::cuda_geev_band_chunk. A batch just
// over one piece, device arrays, checked at the ends and around the piece
// boundary against one-matrix calls.
template <class T>
void geev_split_pieces(batcheigAlgorithm_t alg, int n, bool vectors, int piece) {
    const int batch = piece + 37;
    HandleGuard cuda;
    BT_CREATE_HANDLE_OR_SKIP(cuda, BATCHEIG_BACKEND_CUDA);
    ParamsGuard params;
    REQUIRE(batcheigParamsSetAlgorithm(params, alg) == BATCHEIG_STATUS_SUCCESS);
    const size_t nn = size_t(n) * n;
    std::vector<T> A(nn * batch);
    const int checked[] = {0, 1, piece - 1, piece, piece + 1, batch - 1};
    for (int b = 0; b < batch; ++b) {
        // Random entries everywhere, a companion matrix (complex pairs,
        // more QR iterations) at the checked ones.
        const bool hard = std::find(std::begin(checked), std::end(checked), b) != std::end(checked);
        auto m = make_matrix<T>(hard ? Family::Companion : Family::RandomDense, Magnitude::Unit, n,
                                make_seed(9001, n, hard ? b : b % 97));
        std::memcpy(A.data() + size_t(b) * nn, m.a.data(), sizeof(T) * nn);
    }
    Outputs<T> all;
    CHECK(run_device_call(cuda.h, params.p, n, batch, A.data(), vectors, all) > 0);  // the pieces' state
    CHECK(std::count(all.info.begin(), all.info.end(), 0) == batch);
    for (int b : checked) {
        INFO("matrix " << b);
        Outputs<T> one;
        CHECK(run_device_call(cuda.h, params.p, n, 1, A.data() + size_t(b) * nn, vectors, one) > 0);
        check_same_outputs(one, all, b, n, vectors);
    }
}

// Eigenvalues of a batch of at least tuning::cuda_geev_band_stage_min_batch
// matrices run the QR iteration on the band in stages (a launch per stage,
// the later ones holding only the unfinished columns; cuda/geev/
// geev_team.cuh, qr_in_band), a single matrix in one stage. Every checked
// matrix of such a batch (hard families, one whose rows balancing isolates,
// a triangular one, a NaN) must get the single call's eigenvalues and info
// bitwise, also with an iteration cap that some matrices exceed in an
// early stage.
template <class T>
void geev_band_stages(batcheigAlgorithm_t alg, int n, int max_iterations) {
    const int batch = int(batcheig::plan::tuning::cuda_geev_band_stage_min_batch) + 37;
    REQUIRE(batcheig::plan::tuning::cuda_geev_band_stage(n, n, batch, is_complex_v<T>, sizeof(real_t<T>)) > 0);
    REQUIRE(batcheig::plan::tuning::cuda_geev_band_stage(n, n, 1, is_complex_v<T>, sizeof(real_t<T>)) == 0);
    HandleGuard cuda;
    BT_CREATE_HANDLE_OR_SKIP(cuda, BATCHEIG_BACKEND_CUDA);
    ParamsGuard params;
    REQUIRE(batcheigParamsSetAlgorithm(params, alg) == BATCHEIG_STATUS_SUCCESS);
    if (max_iterations > 0) REQUIRE(batcheigParamsSetMaxIterations(params, max_iterations) == BATCHEIG_STATUS_SUCCESS);
    const size_t nn = size_t(n) * n;
    const Family families[] = {Family::Companion,  Family::ZeroRowsCols,    Family::Graded,     Family::JordanOrth,
                               Family::IllCluster, Family::UpperTriangular, Family::RandomDense, Family::OrthCluster};
    const int nf = int(sizeof(families) / sizeof(families[0]));
    std::vector<int> checked;
    for (int k = 0; k < 3 * nf + 1; ++k) checked.push_back(int((std::int64_t(k) * 7919) % batch));
    std::vector<T> A(nn * batch);
    for (int b = 0; b < batch; ++b) {
        const auto at = std::find(checked.begin(), checked.end(), b);
        const int k = int(at - checked.begin());
        const Family f = at == checked.end() ? Family::RandomDense : families[k % nf];
        auto m = make_matrix<T>(f, Magnitude::Unit, n, make_seed(9103, n, at == checked.end() ? b % 89 : b));
        std::memcpy(A.data() + size_t(b) * nn, m.a.data(), sizeof(T) * nn);
    }
    // The last checked matrix: a NaN entry.
    A[size_t(checked.back()) * nn + 3] = T(std::numeric_limits<real_t<T>>::quiet_NaN());
    Outputs<T> all;
    run_device_call(cuda.h, params.p, n, batch, A.data(), false, all);
    if (max_iterations == 0) CHECK(std::count(all.info.begin(), all.info.end(), 0) == batch - 1);
    for (int b : checked) {
        INFO("matrix " << b);
        Outputs<T> one;
        run_device_call(cuda.h, params.p, n, 1, A.data() + size_t(b) * nn, false, one);
        check_same_outputs(one, all, b, n, false);
    }
    CHECK(all.info[checked.back()] == BATCHEIG_INFO_NONFINITE);
}

// The global variant without vectors runs the block variant's two
// launches (the reduction in shared memory, the QR iteration on the band)
// where the matrix fits and tuning::cuda_geev_global_band_max_n allows
// (cuda/geev/geev_team.cuh, global_uses_band), and in place in global
// memory elsewhere; with vectors always in place. Either way a batch's
// eigenvalues and info must be bitwise those of the call with both vector
// matrices (hard families, a triangular matrix whose rows balancing
// isolates, a NaN), and agree with the host backend.
template <class T>
void geev_global_jobs(int n) {
    HandleGuard cuda;
    BT_CREATE_HANDLE_OR_SKIP(cuda, BATCHEIG_BACKEND_CUDA);
    HandleGuard host;
    REQUIRE(batcheigCreateWithBackend(&host.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);
    ParamsGuard params;
    REQUIRE(batcheigParamsSetAlgorithm(params, BATCHEIG_ALG_GEEV_CUDA_GLOBAL) == BATCHEIG_STATUS_SUCCESS);
    const size_t nn = size_t(n) * n;
    const Family families[] = {Family::RandomDense, Family::Companion, Family::Graded,
                               Family::ZeroRowsCols, Family::UpperTriangular, Family::RandomDense};
    const int batch = int(sizeof(families) / sizeof(families[0]));
    std::vector<T> A(nn * batch);
    for (int b = 0; b < batch; ++b) {
        auto m = make_matrix<T>(families[b], Magnitude::Unit, n, make_seed(8585, n, b));
        std::memcpy(A.data() + size_t(b) * nn, m.a.data(), sizeof(T) * nn);
    }
    A[size_t(batch - 1) * nn + 5] = T(std::numeric_limits<real_t<T>>::quiet_NaN());
    Outputs<T> with, without;
    run_device_call(cuda.h, params.p, n, batch, A.data(), true, with);
    run_device_call(cuda.h, params.p, n, batch, A.data(), false, without);
    CHECK(std::count(with.info.begin(), with.info.end(), 0) == batch - 1);
    CHECK(with.info[batch - 1] == BATCHEIG_INFO_NONFINITE);
    CHECK(without.info == with.info);
    CHECK(std::memcmp(without.w.data(), with.w.data(), with.w.size() * sizeof(T)) == 0);
    if constexpr (!is_complex_v<T>)
        CHECK(std::memcmp(without.wi.data(), with.wi.data(), with.wi.size() * sizeof(real_t<T>)) == 0);
    // The same without vectors with lda = n + 3 (NaN padding rows, which
    // the call must neither read, else info would flag the matrix, nor
    // write: beyond the fit the band moves within A, store_band_in_place).
    Outputs<T> padded;
    run_device_call(cuda.h, params.p, n, batch, A.data(), false, padded, true, 3);
    CHECK(padded.info == with.info);
    CHECK(std::memcmp(padded.w.data(), with.w.data(), with.w.size() * sizeof(T)) == 0);
    if constexpr (!is_complex_v<T>)
        CHECK(std::memcmp(padded.wi.data(), with.wi.data(), with.wi.size() * sizeof(real_t<T>)) == 0);
    int pad_touched = 0;
    const T nan = T(std::numeric_limits<real_t<T>>::quiet_NaN());
    for (size_t c = 0; c < size_t(n) * batch; ++c)
        for (int i = n; i < n + 3; ++i) pad_touched += std::memcmp(&padded.A[c * (n + 3) + i], &nan, sizeof(T)) != 0;
    CHECK(pad_touched == 0);
    // And close to the host backend's, the eigenvalues of a random and of
    // the triangular matrix paired one to one.
    const Outputs<T> ref = run_host_arrays<T>(host, A, n, batch, nullptr, false);
    CHECK(ref.info == with.info);
    const double tol = 1e3 * n * double(std::numeric_limits<real_t<T>>::epsilon());
    for (int b : {0, batch - 2}) {
        INFO("matrix " << b);
        CHECK(worst_pairing(with, ref, n, b, true) <= tol);
    }
}

// The block and global variants run the same routines with the same block
// (in shared memory, in place in global memory), so wherever the block
// variant claims a call with vectors the two give bitwise the same
// outputs; the global variant relies on it when it runs the block's
// launches (global_uses_band, global_uses_block_vectors). (The global
// variant's blocked reduction, core::gehrd_panels, starts beyond
// global_uses_band's sizes, which cover every call with vectors that the
// block claims.) Right vectors alone, or both.
template <class T>
void geev_global_is_block(int n, bool want_vl) {
    REQUIRE(geev_variant_claims<T>(BATCHEIG_ALG_GEEV_CUDA_BLOCK, n, want_vl, true));
    HandleGuard cuda;
    BT_CREATE_HANDLE_OR_SKIP(cuda, BATCHEIG_BACKEND_CUDA);
    const size_t nn = size_t(n) * n;
    const Family families[] = {Family::RandomDense, Family::Companion, Family::Graded, Family::ZeroRowsCols};
    const int batch = int(sizeof(families) / sizeof(families[0]));
    std::vector<T> A(nn * batch);
    for (int b = 0; b < batch; ++b) {
        auto m = make_matrix<T>(families[b], Magnitude::Unit, n, make_seed(8686, n, b));
        std::memcpy(A.data() + size_t(b) * nn, m.a.data(), sizeof(T) * nn);
    }
    Outputs<T> out[2];
    const batcheigAlgorithm_t algs[2] = {BATCHEIG_ALG_GEEV_CUDA_BLOCK, BATCHEIG_ALG_GEEV_CUDA_GLOBAL};
    for (int k = 0; k < 2; ++k) {
        ParamsGuard params;
        REQUIRE(batcheigParamsSetAlgorithm(params, algs[k]) == BATCHEIG_STATUS_SUCCESS);
        run_device_call(cuda.h, params.p, n, batch, A.data(), true, out[k], want_vl);
    }
    CHECK(out[0].info == std::vector<int>(batch, 0));
    CHECK(out[1].info == out[0].info);
    CHECK(std::memcmp(out[1].w.data(), out[0].w.data(), out[0].w.size() * sizeof(T)) == 0);
    if constexpr (!is_complex_v<T>)
        CHECK(std::memcmp(out[1].wi.data(), out[0].wi.data(), out[0].wi.size() * sizeof(real_t<T>)) == 0);
    CHECK(std::memcmp(out[1].VR.data(), out[0].VR.data(), out[0].VR.size() * sizeof(T)) == 0);
    if (want_vl) CHECK(std::memcmp(out[1].VL.data(), out[0].VL.data(), out[0].VL.size() * sizeof(T)) == 0);
}

}  // namespace

TEST_CASE("geev CUDA: the global variant's eigenvalues without vectors are bitwise those with vectors",
          "[geev][cuda]") {
    // Sizes inside and beyond tuning::cuda_geev_global_band_max_n and the
    // shared-memory bound of the two launches (double: the matrix fits to
    // n ~ 169, float ~ 239, complex float ~ 169 with the bound 144, complex
    // double ~ 119 with the bound 80), where the band's stage runs on warp
    // teams and on blocks (tuning::cuda_geev_band_block_min_m: double from
    // 128 columns, float 200, complex float 144), and beyond the fit, where
    // the real types reduce in place and move the band within A
    // (tuning::cuda_geev_global_reduce_band_max_n).
    // And n = 4..6, where the band does not fit in A, so the eigenvalues
    // alone run in place while a call with vectors runs the block
    // variant's launches: the reduction must be gehd2 in both.
    SECTION("small n") {
        for (int n = 3; n <= 8; ++n) {
            geev_global_jobs<double>(n);
            geev_global_jobs<float>(n);
            geev_global_jobs<std::complex<float>>(n);
            geev_global_jobs<std::complex<double>>(n);
        }
    }
    SECTION("double") {
        geev_global_jobs<double>(100);
        geev_global_jobs<double>(150);
        geev_global_jobs<double>(180);
        geev_global_jobs<double>(203);
    }
    SECTION("float") {
        geev_global_jobs<float>(150);
        geev_global_jobs<float>(220);
        geev_global_jobs<float>(251);
    }
    SECTION("complex<float>") {
        geev_global_jobs<std::complex<float>>(100);
        geev_global_jobs<std::complex<float>>(144);
        geev_global_jobs<std::complex<float>>(150);
    }
    SECTION("complex<double>") {
        geev_global_jobs<std::complex<double>>(72);
        geev_global_jobs<std::complex<double>>(100);
    }
}

TEST_CASE("geev CUDA: the global variant gives bitwise the block variant's outputs wherever that one claims the jobs",
          "[geev][cuda]") {
    // Both vector matrices where AUTO's block bound applies, right vectors
    // alone beyond it (double to n ~ 118, float ~ 168), and complex double,
    // where the global variant stays in place.
    SECTION("double") {
        geev_global_is_block<double>(64, true);
        geev_global_is_block<double>(100, false);
        geev_global_is_block<double>(116, false);
    }
    SECTION("float") {
        geev_global_is_block<float>(120, true);
        geev_global_is_block<float>(150, false);
    }
    SECTION("complex<float>") { geev_global_is_block<std::complex<float>>(80, true); }
    SECTION("complex<double>") { geev_global_is_block<std::complex<double>>(56, true); }
}

TEST_CASE("geev CUDA: device arrays match host arrays bitwise and the host backend closely", "[geev][cuda]") {
    SECTION("float") { device_vs_host_arrays<float>(); }
    SECTION("double") { device_vs_host_arrays<double>(); }
    SECTION("complex<float>") { device_vs_host_arrays<std::complex<float>>(); }
    SECTION("complex<double>") { device_vs_host_arrays<std::complex<double>>(); }
}

TEST_CASE("geev CUDA: the shared-memory variants refuse what they do not claim, and claim what fits",
          "[geev][cuda]") {
    // complex<double> with both vector matrices: n = 70 needs 3 x 71 x 70 x 16
    // bytes of shared memory (> 227 KiB), n = 60 fits (geev_variant_claims).
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
            GeevArgs<T> g = args_for<T>(cuda, n, batch, A.data(), w.data(), nullptr, VL.data(), VR.data(),
                                        info.data(), nullptr, 0, params);
            size_t lwork = 0;
            const batcheigStatus_t expect = claimed ? BATCHEIG_STATUS_SUCCESS : BATCHEIG_STATUS_NOT_SUPPORTED;
            CHECK(geev_buffersize_dispatch(g, &lwork) == expect);
            CHECK(geev_dispatch(g) == expect);
            if (claimed) CHECK(info == std::vector<int>(batch, 0));
            else CHECK(info == std::vector<int>(batch, -7));  // nothing written
        }
    }
}

TEST_CASE("geev CUDA: the warp and block variants with vectors give every matrix of a batch of several pieces "
          "the results of a single call",
          "[geev][cuda]") {
    for (batcheigAlgorithm_t alg : {BATCHEIG_ALG_GEEV_CUDA_WARP, BATCHEIG_ALG_GEEV_CUDA_BLOCK}) {
        INFO("variant " << algorithm_name(alg));
        geev_split_pieces<double>(alg, 9, true, int(batcheig::plan::tuning::cuda_geev_split_chunk));
    }
}

TEST_CASE("geev CUDA: the eigenvalues on the band give every matrix of a batch of several pieces the results of a "
          "single call",
          "[geev][cuda]") {
    // complex<double> takes the band from n = 7 on (tuning::cuda_geev_band_min_n):
    // the smallest matrices that run there, 784 bytes each.
    using T = std::complex<double>;
    const int n = int(batcheig::plan::tuning::cuda_geev_band_min_n(true, sizeof(double)));
    for (batcheigAlgorithm_t alg : {BATCHEIG_ALG_GEEV_CUDA_WARP, BATCHEIG_ALG_GEEV_CUDA_BLOCK}) {
        INFO("variant " << algorithm_name(alg));
        geev_split_pieces<T>(alg, n, false, int(batcheig::plan::tuning::cuda_geev_band_chunk));
    }
}

TEST_CASE("geev CUDA: the eigenvalues' QR iteration in stages gives every matrix of a large batch the results of "
          "a single call",
          "[geev][cuda]") {
    auto each = [](auto run) {
        for (batcheigAlgorithm_t alg : {BATCHEIG_ALG_GEEV_CUDA_WARP, BATCHEIG_ALG_GEEV_CUDA_BLOCK})
            for (const int maxit : {0, 2}) {
                INFO("variant " << algorithm_name(alg) << ", max iterations " << maxit);
                run(alg, maxit);
            }
    };
    SECTION("double") {
        each([](batcheigAlgorithm_t alg, int maxit) {
            geev_band_stages<double>(alg, 30, maxit);
            geev_band_stages<double>(alg, 41, maxit);
        });
    }
    SECTION("double, the first stage on blocks") {
        // tuning::cuda_geev_band_block_min_m: the stage of 136 columns runs
        // with a block per matrix and pauses at 110, the rest on warp teams.
        REQUIRE(batcheig::plan::tuning::cuda_geev_band_block_min_m(false, sizeof(double)) <= 136);
        geev_band_stages<double>(BATCHEIG_ALG_GEEV_CUDA_BLOCK, 136, 0);
    }
    SECTION("float") { each([](batcheigAlgorithm_t alg, int maxit) { geev_band_stages<float>(alg, 40, maxit); }); }
    SECTION("complex<double>") {
        each([](batcheigAlgorithm_t alg, int maxit) { geev_band_stages<std::complex<double>>(alg, 20, maxit); });
    }
    SECTION("complex<float>") {
        each([](batcheigAlgorithm_t alg, int maxit) { geev_band_stages<std::complex<float>>(alg, 25, maxit); });
    }
}

TEST_CASE("geev CUDA: host threads launching one kernel with different shared-memory sizes all succeed",
          "[geev][cuda]") {
    // The block variant with vectors launches one Schur kernel per precision
    // whose dynamic shared memory grows with n: double n = 56 needs about
    // 51 KB and n = 64 about 67 KB, both beyond the 48 KB that need the
    // kernel's opt-in attribute. That attribute belongs to the kernel, not to
    // a launch, so a thread must never lower it under another thread's
    // launch. Two threads, each with its own handle, call it over and over;
    // every call must succeed and give the results of a call made alone.
    // (A stress test: a race shows up only when the threads interleave.)
    using T = double;
    HandleGuard probe;
    BT_CREATE_HANDLE_OR_SKIP(probe, BATCHEIG_BACKEND_CUDA);
    ParamsGuard params;
    REQUIRE(batcheigParamsSetAlgorithm(params, BATCHEIG_ALG_GEEV_CUDA_BLOCK) == BATCHEIG_STATUS_SUCCESS);
    const int sizes[2] = {56, 64}, batch = 4, rounds = 40;
    std::vector<T> A[2];
    Outputs<T> ref[2];
    for (int t = 0; t < 2; ++t) {
        const int n = sizes[t];
        REQUIRE(geev_variant_claims<T>(BATCHEIG_ALG_GEEV_CUDA_BLOCK, n, true, true));
        A[t].resize(size_t(n) * n * batch);
        for (int b = 0; b < batch; ++b) {
            auto m = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(4848, n, b));
            std::memcpy(A[t].data() + size_t(b) * n * n, m.a.data(), sizeof(T) * n * n);
        }
        ref[t] = run_host_arrays<T>(probe, A[t], n, batch, params);
        REQUIRE(ref[t].info == std::vector<int>(batch, 0));
    }
    // No Catch assertions inside the threads: they record, the main thread checks.
    std::atomic<int> failed_calls{0}, mismatches{0};
    auto worker = [&](int t) {
        const int n = sizes[t];
        batcheigHandle_t h = nullptr;
        if (batcheigCreateWithBackend(&h, BATCHEIG_BACKEND_CUDA) != BATCHEIG_STATUS_SUCCESS) {
            failed_calls += rounds;
            return;
        }
        for (int r = 0; r < rounds; ++r) {
            Outputs<T> o;
            o.A = A[t];
            o.w.assign(size_t(n) * batch, T(0));
            o.wi.assign(size_t(n) * batch, T(0));
            o.VL.assign(size_t(n) * n * batch, T(0));
            o.VR.assign(size_t(n) * n * batch, T(0));
            o.info.assign(batch, -7);
            const batcheigStatus_t st = geev_dispatch(args_for<T>(h, n, batch, o.A.data(), o.w.data(), o.wi.data(),
                                                                  o.VL.data(), o.VR.data(), o.info.data(), nullptr,
                                                                  0, params));
            if (st != BATCHEIG_STATUS_SUCCESS) {
                ++failed_calls;
                continue;
            }
            if (o.info != ref[t].info || o.w != ref[t].w || o.wi != ref[t].wi || o.VL != ref[t].VL ||
                o.VR != ref[t].VR)
                ++mismatches;
        }
        batcheigDestroy(h);
    };
    std::thread other(worker, 1);
    worker(0);
    other.join();
    CHECK(failed_calls.load() == 0);
    CHECK(mismatches.load() == 0);
}
