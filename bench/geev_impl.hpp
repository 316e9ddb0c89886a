// The geev workload's implementations: batcheig itself and the anchors it is
// compared with. Each one owns its outputs and workspace; everything that is
// not the computation (allocation, workspace queries, handle creation) happens
// in prepare(), outside the timed region.
//
// To add an anchor, derive from GeevImpl<T>, put it in its own source file,
// and append it in make_geev_impls() in workload_geev.cpp.
//
// Memory spaces. A host implementation gets A in host memory and is timed
// with the wall clock around run() (batcheig on a CUDA handle too: the call
// returns when its results are in host memory). A device implementation gets A in device
// memory (the workload's gpu::DeviceInput, restored from a pristine device
// copy before every run), times itself with CUDA events on its stream
// (timed_run) and copies its outputs to host memory in fetch_outputs(),
// after which eigenvalue() and info() read them.
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
    // Where run() expects A and writes its outputs.
    virtual Memory memory() const { return Memory::host; }
    // How many matrices of the batch run() is timed on. Fewer than the batch
    // (the cuSOLVER loop) means the time is extrapolated linearly to it.
    virtual long long timed_count(long long batch) const { return batch; }
    // Whether the untimed warm-up call runs on all the timed matrices (GPU
    // code: launch configurations and device buffers as in the timed call)
    // rather than on --warmup of them.
    virtual bool full_warmup() const { return false; }
    // batcheig: the variant forced through the params (0: auto); anchors: -1.
    virtual int algorithm() const { return -1; }
    // batcheig on host arrays: whether its handle runs on the CUDA backend
    // (the call then streams the batch through the GPU; host_streaming.hpp).
    virtual bool host_arrays_on_gpu() const { return false; }

    // Allocate outputs and workspace for p.batch matrices (not timed).
    virtual void prepare(const GeevProblem<T> &p) = 0;
    // Compute the first `count` matrices of A (overwritten). Device
    // implementations may return before the work is done.
    virtual void run(T *A, long long count) = 0;
    // One timed run(); returns seconds. Host: wall clock around run().
    virtual double timed_run(T *A, long long count) {
        const auto t0 = Clock::now();
        run(A, count);
        return seconds(t0, Clock::now());
    }
    // Device implementations: copy the outputs of the first `count` matrices
    // of the last run to host memory. Returns the duration of the copy in
    // seconds when this implementation reports its transfers, else -1.
    virtual double fetch_outputs(long long count) {
        (void)count;
        return -1;
    }
    // Results of the last run() (after fetch_outputs()).
    virtual std::complex<double> eigenvalue(long long b, int i) const = 0;
    virtual int info(long long b) const = 0;
    // Give the memory back before the next size.
    virtual void release() = 0;
};

// Host arrays (pageable or, with --host-memory pinned, cudaMallocHost); `name`
// is the row's ("batcheig-1gpu" for the first --devices entry alone).
template <class T>
std::unique_ptr<GeevImpl<T>> make_geev_batcheig(const Options &opt, const std::string &name = "batcheig");
template <class T> std::unique_ptr<GeevImpl<T>> make_geev_lapacke_omp(const Options &opt);  // anchor

// The accuracy reference of one matrix (geev_lapacke_omp.cpp): LAPACKE ?geev
// with left and right eigenvectors on a copy of the n x n matrix A (leading
// dimension lda). mu: its eigenvalues; kappa: their first-order condition
// numbers 1 / |y_j^H x_j| (unit left and right vectors as LAPACK normalizes
// them; infinity where y_j^H x_j = 0). Returns LAPACKE's info.
template <class T>
int geev_reference(const T *A, int n, int lda, std::vector<std::complex<double>> &mu, std::vector<double> &kappa);
#if BATCHEIG_HAVE_CUDA
template <class T> std::unique_ptr<GeevImpl<T>> make_geev_batcheig_device(const Options &opt);  // device arrays
template <class T> std::unique_ptr<GeevImpl<T>> make_geev_cusolver(const Options &opt);         // anchor
#endif

}  // namespace bench
