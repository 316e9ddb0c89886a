/* C shims for calling the library with enum arguments given as int.
 *
 * In C++, converting an int outside an enumeration's range of values to the
 * enumeration type (e.g. (batcheigEigMode_t)7) is undefined behaviour, and
 * UBSan (-fsanitize=enum) flags it. In C an enumeration is just an integer
 * type, so the tests pass deliberately invalid enum values through these C
 * functions, exactly as a C or Fortran caller would. */
#ifndef BATCHEIG_TESTS_SUPPORT_C_SHIMS_H
#define BATCHEIG_TESTS_SUPPORT_C_SHIMS_H

#include <stddef.h>

#include "batcheig.h"

#ifdef __cplusplus
extern "C" {
#endif

batcheigStatus_t bt_c_create_with_backend(batcheigHandle_t *handle, int backend);
const char *bt_c_get_status_string(int status);
batcheigStatus_t bt_c_params_set_algorithm(batcheigParams_t params, int algorithm);

batcheigStatus_t bt_c_sgeev(batcheigHandle_t h, int jobvl, int jobvr, int n, float *A, int lda, float *wr,
                            float *wi, float *VL, int ldvl, float *VR, int ldvr, void *work, size_t lwork,
                            int *info, batcheigParams_t params, int batch);
batcheigStatus_t bt_c_dgeev(batcheigHandle_t h, int jobvl, int jobvr, int n, double *A, int lda, double *wr,
                            double *wi, double *VL, int ldvl, double *VR, int ldvr, void *work, size_t lwork,
                            int *info, batcheigParams_t params, int batch);
batcheigStatus_t bt_c_cgeev(batcheigHandle_t h, int jobvl, int jobvr, int n, batcheigComplex *A, int lda,
                            batcheigComplex *W, batcheigComplex *VL, int ldvl, batcheigComplex *VR, int ldvr,
                            void *work, size_t lwork, int *info, batcheigParams_t params, int batch);
batcheigStatus_t bt_c_zgeev(batcheigHandle_t h, int jobvl, int jobvr, int n, batcheigDoubleComplex *A, int lda,
                            batcheigDoubleComplex *W, batcheigDoubleComplex *VL, int ldvl,
                            batcheigDoubleComplex *VR, int ldvr, void *work, size_t lwork, int *info,
                            batcheigParams_t params, int batch);

batcheigStatus_t bt_c_sgeev_buffersize(batcheigHandle_t h, int jobvl, int jobvr, int n, const float *A, int lda,
                                       const float *wr, const float *wi, const float *VL, int ldvl,
                                       const float *VR, int ldvr, size_t *lwork, batcheigParams_t params,
                                       int batch);
batcheigStatus_t bt_c_dgeev_buffersize(batcheigHandle_t h, int jobvl, int jobvr, int n, const double *A, int lda,
                                       const double *wr, const double *wi, const double *VL, int ldvl,
                                       const double *VR, int ldvr, size_t *lwork, batcheigParams_t params,
                                       int batch);
batcheigStatus_t bt_c_cgeev_buffersize(batcheigHandle_t h, int jobvl, int jobvr, int n, const batcheigComplex *A,
                                       int lda, const batcheigComplex *W, const batcheigComplex *VL, int ldvl,
                                       const batcheigComplex *VR, int ldvr, size_t *lwork,
                                       batcheigParams_t params, int batch);
batcheigStatus_t bt_c_zgeev_buffersize(batcheigHandle_t h, int jobvl, int jobvr, int n,
                                       const batcheigDoubleComplex *A, int lda, const batcheigDoubleComplex *W,
                                       const batcheigDoubleComplex *VL, int ldvl,
                                       const batcheigDoubleComplex *VR, int ldvr, size_t *lwork,
                                       batcheigParams_t params, int batch);

#ifdef __cplusplus
}
#endif

#endif /* BATCHEIG_TESTS_SUPPORT_C_SHIMS_H */
