/* Calls of the syevj/heevj entry points with enum arguments given as plain
 * ints, compiled as C (syevj_raw.c). In C any int converts to an enum type;
 * in C++ an enum object holding a value outside the enumeration's range is
 * undefined behaviour (UBSan reports every load of one), so the argument
 * tests pass invalid jobz/uplo/algorithm values through these helpers. */
#ifndef BATCHEIG_TESTS_SUPPORT_SYEVJ_RAW_H
#define BATCHEIG_TESTS_SUPPORT_SYEVJ_RAW_H

#include <stddef.h>

#include "batcheig.h"

#ifdef __cplusplus
extern "C" {
#endif

batcheigStatus_t bt_ssyevj_raw(batcheigHandle_t h, int jobz, int uplo, int n, float *A, int lda, float *W, void *work,
                               size_t lwork, int *info, batcheigParams_t params, int batch);
batcheigStatus_t bt_dsyevj_raw(batcheigHandle_t h, int jobz, int uplo, int n, double *A, int lda, double *W,
                               void *work, size_t lwork, int *info, batcheigParams_t params, int batch);
batcheigStatus_t bt_cheevj_raw(batcheigHandle_t h, int jobz, int uplo, int n, batcheigComplex *A, int lda, float *W,
                               void *work, size_t lwork, int *info, batcheigParams_t params, int batch);
batcheigStatus_t bt_zheevj_raw(batcheigHandle_t h, int jobz, int uplo, int n, batcheigDoubleComplex *A, int lda,
                               double *W, void *work, size_t lwork, int *info, batcheigParams_t params, int batch);

batcheigStatus_t bt_ssyevj_buffersize_raw(batcheigHandle_t h, int jobz, int uplo, int n, const float *A, int lda,
                                          const float *W, size_t *lwork, batcheigParams_t params, int batch);
batcheigStatus_t bt_dsyevj_buffersize_raw(batcheigHandle_t h, int jobz, int uplo, int n, const double *A, int lda,
                                          const double *W, size_t *lwork, batcheigParams_t params, int batch);
batcheigStatus_t bt_cheevj_buffersize_raw(batcheigHandle_t h, int jobz, int uplo, int n, const batcheigComplex *A,
                                          int lda, const float *W, size_t *lwork, batcheigParams_t params, int batch);
batcheigStatus_t bt_zheevj_buffersize_raw(batcheigHandle_t h, int jobz, int uplo, int n,
                                          const batcheigDoubleComplex *A, int lda, const double *W, size_t *lwork,
                                          batcheigParams_t params, int batch);

batcheigStatus_t bt_params_set_algorithm_raw(batcheigParams_t params, int algorithm);

#ifdef __cplusplus
}
#endif

#endif /* BATCHEIG_TESTS_SUPPORT_SYEVJ_RAW_H */
