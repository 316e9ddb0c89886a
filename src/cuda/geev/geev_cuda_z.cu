// Explicit instantiation of the CUDA geev backend for one precision.
#include "cuda/geev/geev_cuda.cuh"

BATCHEIG_INSTANTIATE_CUDA_GEEV(batcheig::core::complex<double>)
