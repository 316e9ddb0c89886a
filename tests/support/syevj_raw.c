/* See syevj_raw.h: C shims that turn int arguments into batcheig enums. */
#include "syevj_raw.h"

#define BT_SYEVJ_RAW(fn, api, T, R)                                                                        \
    batcheigStatus_t fn(batcheigHandle_t h, int jobz, int uplo, int n, T *A, int lda, R *W, void *work,  \
                        size_t lwork, int *info, batcheigParams_t params, int batch)                     \
    {                                                                                                      \
        return api(h, (batcheigEigMode_t)jobz, (batcheigFillMode_t)uplo, n, A, lda, W, work, lwork, info, \
                   params, batch);                                                                         \
    }
#define BT_SYEVJ_SIZE_RAW(fn, api, T, R)                                                                  \
    batcheigStatus_t fn(batcheigHandle_t h, int jobz, int uplo, int n, const T *A, int lda, const R *W,  \
                        size_t *lwork, batcheigParams_t params, int batch)                               \
    {                                                                                                      \
        return api(h, (batcheigEigMode_t)jobz, (batcheigFillMode_t)uplo, n, A, lda, W, lwork, params, batch); \
    }

BT_SYEVJ_RAW(bt_ssyevj_raw, batcheigSsyevjBatched, float, float)
BT_SYEVJ_RAW(bt_dsyevj_raw, batcheigDsyevjBatched, double, double)
BT_SYEVJ_RAW(bt_cheevj_raw, batcheigCheevjBatched, batcheigComplex, float)
BT_SYEVJ_RAW(bt_zheevj_raw, batcheigZheevjBatched, batcheigDoubleComplex, double)
BT_SYEVJ_SIZE_RAW(bt_ssyevj_buffersize_raw, batcheigSsyevjBatched_bufferSize, float, float)
BT_SYEVJ_SIZE_RAW(bt_dsyevj_buffersize_raw, batcheigDsyevjBatched_bufferSize, double, double)
BT_SYEVJ_SIZE_RAW(bt_cheevj_buffersize_raw, batcheigCheevjBatched_bufferSize, batcheigComplex, float)
BT_SYEVJ_SIZE_RAW(bt_zheevj_buffersize_raw, batcheigZheevjBatched_bufferSize, batcheigDoubleComplex, double)

batcheigStatus_t bt_params_set_algorithm_raw(batcheigParams_t params, int algorithm)
{
    return batcheigParamsSetAlgorithm(params, (batcheigAlgorithm_t)algorithm);
}
