/* batcheigParamsSetAlgorithm with the variant as a plain int. The enum is set
 * from C, where any int converts to an enum type; in C++ a value outside
 * batcheigAlgorithm_t's range (e.g. a variant newer than the header the bench
 * was built against, given as --algorithm NUMBER) would be undefined
 * behaviour. */
#ifndef BENCH_PARAMS_SHIM_H
#define BENCH_PARAMS_SHIM_H

#include <batcheig.h>

#ifdef __cplusplus
extern "C" {
#endif

batcheigStatus_t bench_params_set_algorithm(batcheigParams_t params, int algorithm);

#ifdef __cplusplus
}
#endif

#endif
