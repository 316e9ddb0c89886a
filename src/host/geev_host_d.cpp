// Explicit instantiation of the host geev backend for one precision.
#include "host/geev_host_impl.hpp"

BATCHEIG_INSTANTIATE_HOST_GEEV(double)
