// The workloads batcheig_bench can run. Each one measures batcheig and its
// anchors on the same data and adds one row per problem size to the report.
#pragma once

#include "bench_common.hpp"

namespace bench {

void run_geev(const Options &opt, Report &report);
void run_syevj(const Options &opt, Report &report);        // workload_syevj.cpp
void run_syevj_block(const Options &opt, Report &report);  // workload_syevj.cpp

struct Workload {
    const char *name;
    const char *description;
    void (*run)(const Options &, Report &);
};

inline const Workload workloads[] = {
    {"geev",
     "non-symmetric eigenvalues (and right vectors with --vectors), batcheig on host or (--memory device) device "
     "arrays, vs an OpenMP loop over LAPACKE ?geev_work and, with a GPU, a cusolverDnXgeev loop",
     run_geev},
    {"syevj",
     "symmetric (s, d) / Hermitian (c, z: heevj) Jacobi, with vectors unless --no-vectors, batcheig on host or "
     "(--memory device) device arrays, vs an OpenMP loop over LAPACKE ?syevd/?heevd and, with a GPU, "
     "cusolverDn?syevjBatched (n <= 32) and cusolverDnXsyevBatched",
     run_syevj},
    {"syevj-block", "as syevj with the one-sided block Jacobi variant forced", run_syevj_block},
};

}  // namespace bench
