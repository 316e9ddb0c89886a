// Explicit instantiation of the CUDA syevj backend for one precision.
#include "cuda/syevj/syevj_cuda.cuh"

BATCHEIG_INSTANTIATE_CUDA_SYEVJ(batcheig::core::complex<float>)
