// Explicit instantiation of the one-matrix-per-thread geev variant for one precision.
#include "cuda/geev/geev_thread.cuh"

BATCHEIG_INSTANTIATE_CUDA_GEEV_THREAD(float)
