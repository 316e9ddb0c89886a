#include "params_shim.h"

batcheigStatus_t bench_params_set_algorithm(batcheigParams_t params, int algorithm) {
    return batcheigParamsSetAlgorithm(params, (batcheigAlgorithm_t)algorithm);
}
