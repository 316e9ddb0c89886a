// geevBatched: the four extern "C" wrappers (S/D/C/Z) and their workspace
// queries forward to geev_impl<T>, which checks the arguments in a fixed
// order, answers the size query and prepares the workspace; the dispatcher
// (plan/geev_plan.hpp) chooses the variant and runs the backend.
#include <type_traits>

#include "api/api_common.hpp"
#include "plan/geev_plan.hpp"

namespace batcheig::api {
namespace {

// 1-based positions of the arguments; the complex routines have one
// eigenvalue array (W) instead of two (wr, wi), which shifts what follows.
struct GeevPositions {
    int jobvl = 2, jobvr = 3, n = 4, A = 5, lda = 6, w = 7, wi, VL, ldvl, VR, ldvr;
    int work, lwork, info, params, batch;          // the computing routine
    int q_lwork, q_params, q_batch;                // the _bufferSize query
    explicit GeevPositions(bool complex_type) {
        int k = complex_type ? 7 : 8;              // last eigenvalue array
        wi = complex_type ? 0 : 8;
        VL = k + 1; ldvl = k + 2; VR = k + 3; ldvr = k + 4;
        work = k + 5; lwork = k + 6; info = k + 7; params = k + 8; batch = k + 9;
        q_lwork = k + 5; q_params = k + 6; q_batch = k + 7;
    }
};

// Argument checks shared by the routine and its query: enums and sizes.
template <class T>
batcheigStatus_t check_sizes(Context *h, const GeevPositions &pos, int jobvl, int jobvr, int n, int lda,
                             int ldvl, int ldvr, int batch, int batch_pos) {
    if (!valid_mode(jobvl)) return invalid(h, pos.jobvl);
    if (!valid_mode(jobvr)) return invalid(h, pos.jobvr);
    if (n < 0) return invalid(h, pos.n);
    const int nmin = n > 1 ? n : 1;
    if (lda < nmin) return invalid(h, pos.lda);
    if (ldvl < (jobvl == BATCHEIG_EIG_MODE_VECTOR ? nmin : 1)) return invalid(h, pos.ldvl);
    if (ldvr < (jobvr == BATCHEIG_EIG_MODE_VECTOR ? nmin : 1)) return invalid(h, pos.ldvr);
    if (batch < 0) return invalid(h, batch_pos);
    return BATCHEIG_STATUS_SUCCESS;
}

template <class T>
GeevProblem<T> make_problem(int jobvl, int jobvr, int n, T *A, int lda,
                            T *w, core::real_t<T> *wi, T *VL, int ldvl, T *VR, int ldvr, int *info,
                            int batch, const Params &params) {
    GeevProblem<T> p;
    p.want_vl = jobvl == BATCHEIG_EIG_MODE_VECTOR;
    p.want_vr = jobvr == BATCHEIG_EIG_MODE_VECTOR;
    p.n = n; p.A = A; p.lda = lda; p.w = w; p.wi = wi;
    p.VL = VL; p.ldvl = ldvl; p.VR = VR; p.ldvr = ldvr;
    p.info = info; p.batch = batch;
    p.max_iterations = params.max_iterations;
    p.streaming = {params.stream_chunk, params.stream_count};
    return p;
}

template <class T>
batcheigStatus_t geev_buffer_size_impl(Context *h, int jobvl, int jobvr, int n, int lda, int ldvl, int ldvr, std::size_t *lwork,
                                       const Params *params, int batch) {
    if (!h) return BATCHEIG_STATUS_NOT_INITIALIZED;
    h->error_argument = 0;
    const GeevPositions pos(core::is_complex<T>);
    batcheigStatus_t st = check_sizes<T>(h, pos, jobvl, jobvr, n, lda, ldvl, ldvr, batch, pos.q_batch);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    if (!lwork) return invalid(h, pos.q_lwork);
    if (n == 0 || batch == 0) {
        *lwork = 0;
        return BATCHEIG_STATUS_SUCCESS;
    }
    const Params &prm = params ? *params : default_params();
    auto p = make_problem<T>(jobvl, jobvr, n, nullptr, lda, nullptr, nullptr, nullptr, ldvl, nullptr,
                             ldvr, nullptr, batch, prm);
    plan::GeevPlan plan;
    st = plan::plan_geev<T>(*h, p, prm, &plan);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    *lwork = plan.workspace_bytes;
    return BATCHEIG_STATUS_SUCCESS;
}

template <class T>
batcheigStatus_t geev_impl(Context *h, int jobvl, int jobvr, int n, T *A,
                           int lda, T *w, core::real_t<T> *wi, T *VL, int ldvl, T *VR, int ldvr,
                           void *work, std::size_t lwork, int *info, const Params *params, int batch) {
    if (!h) return BATCHEIG_STATUS_NOT_INITIALIZED;
    h->error_argument = 0;
    const GeevPositions pos(core::is_complex<T>);
    batcheigStatus_t st = check_sizes<T>(h, pos, jobvl, jobvr, n, lda, ldvl, ldvr, batch, pos.batch);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    if (n == 0 || batch == 0) return BATCHEIG_STATUS_SUCCESS;
    if (!A) return invalid(h, pos.A);
    if (!w) return invalid(h, pos.w);
    if constexpr (!core::is_complex<T>) {
        if (!wi) return invalid(h, pos.wi);
    }
    if (jobvl == BATCHEIG_EIG_MODE_VECTOR && !VL) return invalid(h, pos.VL);
    if (jobvr == BATCHEIG_EIG_MODE_VECTOR && !VR) return invalid(h, pos.VR);
    if (!info) return invalid(h, pos.info);

    const Params &prm = params ? *params : default_params();
    auto p = make_problem<T>(jobvl, jobvr, n, A, lda, w, wi, VL, ldvl, VR, ldvr, info, batch, prm);
    p.streaming.host_arrays = streams_host_arrays(*h, A);
    plan::GeevPlan plan;
    st = plan::plan_geev<T>(*h, p, prm, &plan);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    if (work) {
        if (lwork < plan.workspace_bytes) return invalid(h, pos.lwork);
    } else if (p.streaming.host_arrays) {
        lwork = 0;  // the pipeline's own buffers (api_common.hpp)
    } else {
        work = workspace_of(*h, plan.workspace_bytes, &lwork);
        if (!work && plan.workspace_bytes) return BATCHEIG_STATUS_ALLOC_FAILED;
    }
    return plan::run_geev<T>(*h, plan, p, work, lwork);
}


}  // namespace
}  // namespace batcheig::api

using namespace batcheig;
using api::cast;

#define BATCHEIG_GEEV_REAL(X, T)                                                                        \
    batcheigStatus_t batcheig##X##geevBatched_bufferSize(                                               \
        batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n, const T *,   \
        int lda, const T *, const T *, const T *, int ldvl, const T *, int ldvr, size_t *lwork,        \
        batcheigParams_t params, int batch) {                                                           \
        return api::guarded([&] {                                                                       \
            return api::geev_buffer_size_impl<T>(handle, api::enum_arg(&jobvl), api::enum_arg(&jobvr), n, lda, ldvl, ldvr, lwork,       \
                                                 params, batch);                                        \
        });                                                                                             \
    }                                                                                                   \
    batcheigStatus_t batcheig##X##geevBatched(batcheigHandle_t handle, batcheigEigMode_t jobvl,        \
                                              batcheigEigMode_t jobvr, int n, T *A, int lda, T *wr,    \
                                              T *wi, T *VL, int ldvl, T *VR, int ldvr, void *work,     \
                                              size_t lwork, int *info, batcheigParams_t params,        \
                                              int batch) {                                              \
        return api::guarded([&] {                                                                       \
            return api::geev_impl<T>(handle, api::enum_arg(&jobvl), api::enum_arg(&jobvr), n, A, lda, wr, wi, VL, ldvl, VR, ldvr, work, \
                                     lwork, info, params, batch);                                       \
        });                                                                                             \
    }

#define BATCHEIG_GEEV_COMPLEX(X, T)                                                                     \
    batcheigStatus_t batcheig##X##geevBatched_bufferSize(                                               \
        batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n, const T *,   \
        int lda, const T *, const T *, int ldvl, const T *, int ldvr, size_t *lwork,                   \
        batcheigParams_t params, int batch) {                                                           \
        using U = api::core_of<T>::type;                                                                \
        return api::guarded([&] {                                                                       \
            return api::geev_buffer_size_impl<U>(handle, api::enum_arg(&jobvl), api::enum_arg(&jobvr), n, lda, ldvl, ldvr, lwork,       \
                                                 params, batch);                                        \
        });                                                                                             \
    }                                                                                                   \
    batcheigStatus_t batcheig##X##geevBatched(batcheigHandle_t handle, batcheigEigMode_t jobvl,        \
                                              batcheigEigMode_t jobvr, int n, T *A, int lda, T *W,     \
                                              T *VL, int ldvl, T *VR, int ldvr, void *work,            \
                                              size_t lwork, int *info, batcheigParams_t params,        \
                                              int batch) {                                              \
        using U = api::core_of<T>::type;                                                                \
        return api::guarded([&] {                                                                       \
            return api::geev_impl<U>(handle, api::enum_arg(&jobvl), api::enum_arg(&jobvr), n, cast(A), lda, cast(W), nullptr,          \
                                     cast(VL), ldvl, cast(VR), ldvr, work, lwork, info, params, batch); \
        });                                                                                             \
    }

extern "C" {
BATCHEIG_GEEV_REAL(S, float)
BATCHEIG_GEEV_REAL(D, double)
BATCHEIG_GEEV_COMPLEX(C, batcheigComplex)
BATCHEIG_GEEV_COMPLEX(Z, batcheigDoubleComplex)
}
