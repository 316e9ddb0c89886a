// syevjBatched / heevjBatched: the four extern "C" wrappers (S/D real
// symmetric, C/Z complex Hermitian) and their workspace queries forward to
// syevj_impl<T>, which checks the arguments in a fixed order, answers the
// size query and prepares the workspace; the dispatcher
// (plan/syevj_plan.hpp) chooses the Jacobi variant and runs the backend.
#include <cstring>
#include <type_traits>

#include "api/api_common.hpp"
#include "plan/syevj_plan.hpp"

namespace batcheig::api {
namespace {

// 1-based positions of the arguments (the same for all four precisions).
struct SyevjPositions {
    static constexpr int jobz = 2, uplo = 3, n = 4, A = 5, lda = 6, W = 7;
    static constexpr int work = 8, lwork = 9, info = 10, params = 11, batch = 12;  // the computing routine
    static constexpr int q_lwork = 8, q_params = 9, q_batch = 10;                // the _bufferSize query
};

inline bool valid_jobz(int m) { return m == BATCHEIG_EIG_MODE_NOVECTOR || m == BATCHEIG_EIG_MODE_VECTOR; }
inline bool valid_fill(int f) { return f == BATCHEIG_FILL_MODE_LOWER || f == BATCHEIG_FILL_MODE_UPPER; }

// Argument checks shared by the routine and its query: enums and sizes.
inline batcheigStatus_t check_sizes(Context *h, int jobz, int uplo, int n, int lda, int batch, int batch_pos) {
    using P = SyevjPositions;
    if (!valid_jobz(jobz)) return invalid(h, P::jobz);
    if (!valid_fill(uplo)) return invalid(h, P::uplo);
    if (n < 0) return invalid(h, P::n);
    if (lda < (n > 1 ? n : 1)) return invalid(h, P::lda);
    if (batch < 0) return invalid(h, batch_pos);
    return BATCHEIG_STATUS_SUCCESS;
}

template <class T>
SyevjProblem<T> make_problem(int jobz, int uplo, int n, T *A, int lda,
                             core::real_t<T> *W, int *info, int batch, const Params &params) {
    SyevjProblem<T> p;
    p.want_v = jobz == BATCHEIG_EIG_MODE_VECTOR;
    p.lower = uplo == BATCHEIG_FILL_MODE_LOWER;
    p.n = n; p.A = A; p.lda = lda; p.w = W; p.info = info; p.batch = batch;
    p.tolerance = params.tolerance;
    p.max_sweeps = params.max_sweeps;
    p.sort = params.sort;
    p.sweeps = params.jacobi_sweeps;
    p.residual = params.jacobi_residual;
    p.streaming = {params.stream_chunk, params.stream_count};
    return p;
}

template <class T>
batcheigStatus_t syevj_buffer_size_impl(Context *h, int jobz, int uplo, int n, int lda, std::size_t *lwork,
                                        const Params *params, int batch) {
    using P = SyevjPositions;
    if (!h) return BATCHEIG_STATUS_NOT_INITIALIZED;
    h->error_argument = 0;
    batcheigStatus_t st = check_sizes(h, jobz, uplo, n, lda, batch, P::q_batch);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    if (!lwork) return invalid(h, P::q_lwork);
    if (n == 0 || batch == 0) {
        *lwork = 0;
        return BATCHEIG_STATUS_SUCCESS;
    }
    const Params &prm = params ? *params : default_params();
    auto p = make_problem<T>(jobz, uplo, n, nullptr, lda, nullptr, nullptr, batch, prm);
    plan::SyevjPlan plan;
    st = plan::plan_syevj<T>(*h, p, prm, &plan);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    *lwork = plan.workspace_bytes;
    return BATCHEIG_STATUS_SUCCESS;
}

template <class T>
batcheigStatus_t syevj_impl(Context *h, int jobz, int uplo, int n, T *A, int lda, core::real_t<T> *W, void *work,
                            std::size_t lwork, int *info, const Params *params, int batch) {
    using P = SyevjPositions;
    if (!h) return BATCHEIG_STATUS_NOT_INITIALIZED;
    h->error_argument = 0;
    batcheigStatus_t st = check_sizes(h, jobz, uplo, n, lda, batch, P::batch);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    if (n == 0 || batch == 0) return BATCHEIG_STATUS_SUCCESS;
    if (!A) return invalid(h, P::A);
    if (!W) return invalid(h, P::W);
    if (!info) return invalid(h, P::info);

    const Params &prm = params ? *params : default_params();
    auto p = make_problem<T>(jobz, uplo, n, A, lda, W, info, batch, prm);
    p.streaming.host_arrays = streams_host_arrays(*h, A);
    plan::SyevjPlan plan;
    st = plan::plan_syevj<T>(*h, p, prm, &plan);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    if (work) {
        if (lwork < plan.workspace_bytes) return invalid(h, P::lwork);
    } else if (p.streaming.host_arrays) {
        lwork = 0;  // the pipeline's own buffers (api_common.hpp)
    } else {
        work = workspace_of(*h, plan.workspace_bytes, &lwork);
        if (!work && plan.workspace_bytes) return BATCHEIG_STATUS_ALLOC_FAILED;
    }
    return plan::run_syevj<T>(*h, plan, p, work, lwork);
}


}  // namespace
}  // namespace batcheig::api

using namespace batcheig;
using api::cast;

// X: precision letter, NAME: syevj or heevj, T: public element type, R: real type.
#define BATCHEIG_SYEVJ(X, NAME, T, R)                                                                   \
    batcheigStatus_t batcheig##X##NAME##Batched_bufferSize(                                            \
        batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n, const T *,    \
        int lda, const R *, size_t *lwork, batcheigParams_t params, int batch) {                       \
        using U = api::core_of<T>::type;                                                                \
        const int jobz_ = api::enum_arg(&jobz), uplo_ = api::enum_arg(&uplo);                           \
        return api::guarded([&] {                                                                       \
            return api::syevj_buffer_size_impl<U>(handle, jobz_, uplo_, n, lda, lwork, params, batch);  \
        });                                                                                             \
    }                                                                                                   \
    batcheigStatus_t batcheig##X##NAME##Batched(batcheigHandle_t handle, batcheigEigMode_t jobz,       \
                                                batcheigFillMode_t uplo, int n, T *A, int lda, R *W,   \
                                                void *work, size_t lwork, int *info,                   \
                                                batcheigParams_t params, int batch) {                  \
        using U = api::core_of<T>::type;                                                                \
        const int jobz_ = api::enum_arg(&jobz), uplo_ = api::enum_arg(&uplo);                           \
        return api::guarded([&] {                                                                       \
            return api::syevj_impl<U>(handle, jobz_, uplo_, n, cast(A), lda, W, work, lwork, info, params, \
                                      batch);                                                           \
        });                                                                                             \
    }

extern "C" {
BATCHEIG_SYEVJ(S, syevj, float, float)
BATCHEIG_SYEVJ(D, syevj, double, double)
BATCHEIG_SYEVJ(C, heevj, batcheigComplex, float)
BATCHEIG_SYEVJ(Z, heevj, batcheigDoubleComplex, double)
}
