// The geev workload's implementations: batcheig itself and the anchors it is
// compared with. Each one owns its outputs and workspace; everything that is
// not the computation (allocation, workspace queries, handle creation) happens
// in prepare(), outside the timed region.
//
// To add an anchor (e.g. a cuSOLVER loop in a later issue), derive from
// GeevImpl<T>, put it in its own header/source, and append it in
// make_geev_impls() in workload_geev.cpp.
#pragma once

#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace bench {

template <class T> struct GeevProblem {
    int n = 0;
    int lda = 0;
    long long batch = 0;
    bool vectors = false;  // right eigenvectors (jobvr = V); left ones are never requested
};

template <class T> class GeevImpl {
public:
    virtual ~GeevImpl() = default;
    virtual std::string name() const = 0;
    // Allocate outputs and workspace for p.batch matrices (not timed).
    virtual void prepare(const GeevProblem<T> &p) = 0;
    // Compute the first `count` matrices of A (overwritten). Timed.
    virtual void run(T *A, long long count) = 0;
    // Results of the last run().
    virtual std::complex<double> eigenvalue(long long b, int i) const = 0;
    virtual int info(long long b) const = 0;
    // Give the memory back before the next size.
    virtual void release() = 0;
};

template <class T> std::unique_ptr<GeevImpl<T>> make_geev_batcheig(const Options &opt);
template <class T> std::unique_ptr<GeevImpl<T>> make_geev_lapacke_omp(const Options &opt);

}  // namespace bench
