/* See c_shims.h: forwards int enum arguments unchanged, as a C caller would. */
#include "c_shims.h"

batcheigStatus_t bt_c_create_with_backend(batcheigHandle_t *handle, int backend) {
    return batcheigCreateWithBackend(handle, (batcheigBackend_t)backend);
}
const char *bt_c_get_status_string(int status) { return batcheigGetStatusString((batcheigStatus_t)status); }
batcheigStatus_t bt_c_params_set_algorithm(batcheigParams_t params, int algorithm) {
    return batcheigParamsSetAlgorithm(params, (batcheigAlgorithm_t)algorithm);
}

batcheigStatus_t bt_c_sgeev(batcheigHandle_t h, int jobvl, int jobvr, int n, float *A, int lda, float *wr,
                            float *wi, float *VL, int ldvl, float *VR, int ldvr, void *work, size_t lwork,
                            int *info, batcheigParams_t params, int batch) {
    return batcheigSgeevBatched(h, (batcheigEigMode_t)jobvl, (batcheigEigMode_t)jobvr, n, A, lda, wr, wi, VL, ldvl,
                                VR, ldvr, work, lwork, info, params, batch);
}
batcheigStatus_t bt_c_dgeev(batcheigHandle_t h, int jobvl, int jobvr, int n, double *A, int lda, double *wr,
                            double *wi, double *VL, int ldvl, double *VR, int ldvr, void *work, size_t lwork,
                            int *info, batcheigParams_t params, int batch) {
    return batcheigDgeevBatched(h, (batcheigEigMode_t)jobvl, (batcheigEigMode_t)jobvr, n, A, lda, wr, wi, VL, ldvl,
                                VR, ldvr, work, lwork, info, params, batch);
}
batcheigStatus_t bt_c_cgeev(batcheigHandle_t h, int jobvl, int jobvr, int n, batcheigComplex *A, int lda,
                            batcheigComplex *W, batcheigComplex *VL, int ldvl, batcheigComplex *VR, int ldvr,
                            void *work, size_t lwork, int *info, batcheigParams_t params, int batch) {
    return batcheigCgeevBatched(h, (batcheigEigMode_t)jobvl, (batcheigEigMode_t)jobvr, n, A, lda, W, VL, ldvl, VR,
                                ldvr, work, lwork, info, params, batch);
}
batcheigStatus_t bt_c_zgeev(batcheigHandle_t h, int jobvl, int jobvr, int n, batcheigDoubleComplex *A, int lda,
                            batcheigDoubleComplex *W, batcheigDoubleComplex *VL, int ldvl,
                            batcheigDoubleComplex *VR, int ldvr, void *work, size_t lwork, int *info,
                            batcheigParams_t params, int batch) {
    return batcheigZgeevBatched(h, (batcheigEigMode_t)jobvl, (batcheigEigMode_t)jobvr, n, A, lda, W, VL, ldvl, VR,
                                ldvr, work, lwork, info, params, batch);
}

batcheigStatus_t bt_c_sgeev_buffersize(batcheigHandle_t h, int jobvl, int jobvr, int n, const float *A, int lda,
                                       const float *wr, const float *wi, const float *VL, int ldvl,
                                       const float *VR, int ldvr, size_t *lwork, batcheigParams_t params,
                                       int batch) {
    return batcheigSgeevBatched_bufferSize(h, (batcheigEigMode_t)jobvl, (batcheigEigMode_t)jobvr, n, A, lda, wr, wi,
                                           VL, ldvl, VR, ldvr, lwork, params, batch);
}
batcheigStatus_t bt_c_dgeev_buffersize(batcheigHandle_t h, int jobvl, int jobvr, int n, const double *A, int lda,
                                       const double *wr, const double *wi, const double *VL, int ldvl,
                                       const double *VR, int ldvr, size_t *lwork, batcheigParams_t params,
                                       int batch) {
    return batcheigDgeevBatched_bufferSize(h, (batcheigEigMode_t)jobvl, (batcheigEigMode_t)jobvr, n, A, lda, wr, wi,
                                           VL, ldvl, VR, ldvr, lwork, params, batch);
}
batcheigStatus_t bt_c_cgeev_buffersize(batcheigHandle_t h, int jobvl, int jobvr, int n, const batcheigComplex *A,
                                       int lda, const batcheigComplex *W, const batcheigComplex *VL, int ldvl,
                                       const batcheigComplex *VR, int ldvr, size_t *lwork,
                                       batcheigParams_t params, int batch) {
    return batcheigCgeevBatched_bufferSize(h, (batcheigEigMode_t)jobvl, (batcheigEigMode_t)jobvr, n, A, lda, W, VL,
                                           ldvl, VR, ldvr, lwork, params, batch);
}
batcheigStatus_t bt_c_zgeev_buffersize(batcheigHandle_t h, int jobvl, int jobvr, int n,
                                       const batcheigDoubleComplex *A, int lda, const batcheigDoubleComplex *W,
                                       const batcheigDoubleComplex *VL, int ldvl,
                                       const batcheigDoubleComplex *VR, int ldvr, size_t *lwork,
                                       batcheigParams_t params, int batch) {
    return batcheigZgeevBatched_bufferSize(h, (batcheigEigMode_t)jobvl, (batcheigEigMode_t)jobvr, n, A, lda, W, VL,
                                           ldvl, VR, ldvr, lwork, params, batch);
}
