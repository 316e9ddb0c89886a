// Explicit instantiation of the host syevj backend for one precision.
#include "host/syevj_host_impl.hpp"

BATCHEIG_INSTANTIATE_HOST_SYEVJ(batcheig::core::complex<double>)
