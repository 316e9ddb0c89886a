// The syevj workload's implementations: batcheig itself (host or device
// arrays) and the anchors it is compared with. As for geev (geev_impl.hpp),
// each one owns its outputs and workspace; everything that is not the
// computation (allocation, workspace queries, handle creation) happens in
// prepare(), outside the timed region.
//
// To add an anchor, derive from SyevjImpl<T>, put it in its own source file,
// and append it in make_syevj_impls() in workload_syevj.cpp.
//
// Memory spaces. A host implementation gets A in host memory and is timed
// with the wall clock around run() (batcheig on a CUDA handle too: the call
// returns when its results are in host memory). A device implementation gets A in device
// memory (the workload's gpu::DeviceInput, restored from a pristine device
// copy before every run), times itself with CUDA events on its stream
// (timed_run) and copies its outputs to host memory in fetch_outputs(),
// after which eigenvalue(), info() and vectors() read them.
//
// Every implementation reads the lower triangle (uplo = LOWER) and, with
// vectors, overwrites A by the eigenvectors (jobz = VECTOR), as
// ?syevjBatched, ?syevd and cusolverDn?syevjBatched / XsyevBatched do.
#pragma once

#include <memory>
#include <string>

#include "bench_common.hpp"

namespace bench {

struct SyevjProblem {
    int n = 0;
    long long batch = 0;
    bool vectors = false;  // jobz = VECTOR
};

template <class T> class SyevjImpl {
public:
    using R = typename scalar_traits<T>::real;
    virtual ~SyevjImpl() = default;
    virtual std::string name() const = 0;
    // Where run() expects A and writes its outputs.
    virtual Memory memory() const { return Memory::host; }
    // Whether the untimed warm-up call runs on the whole batch (GPU code:
    // launch configurations and device buffers as in the timed call) rather
    // than on --warmup matrices.
    virtual bool full_warmup() const { return false; }
    // batcheig: the variant forced through the params (0: auto); anchors: -1.
    virtual int algorithm() const { return -1; }
    // batcheig on host arrays: whether its handle runs on the CUDA backend
    // (the call then streams the batch through the GPU; host_streaming.hpp).
    virtual bool host_arrays_on_gpu() const { return false; }
    // Empty when this implementation can solve p; otherwise the short status
    // the table shows instead of a time (cusolverDn?syevjBatched: "n/a (n>32)").
    virtual std::string unsupported(const SyevjProblem &p) const {
        (void)p;
        return {};
    }

    // Allocate outputs and workspace for p.batch matrices (not timed).
    virtual void prepare(const SyevjProblem &p) = 0;
    // Solve the first `count` matrices of A (overwritten). Device
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
    // Results of the last run() (after fetch_outputs()): eigenvalue i of
    // matrix b (ascending), its info, and with vectors its eigenvectors
    // (column-major n x n in host memory; nullptr: not available here). The
    // host implementations' vectors are in the A they ran on: valid until
    // the workload overwrites it for the next implementation.
    virtual double eigenvalue(long long b, int i) const = 0;
    virtual int info(long long b) const = 0;
    virtual const T *vectors(long long b) const {
        (void)b;
        return nullptr;
    }
    // Mean Jacobi sweeps per matrix of the last run (batcheig); < 0: not reported.
    virtual double mean_sweeps(long long count) const {
        (void)count;
        return -1;
    }
    // Device implementations: free the device memory of this size once its
    // runs are done, keeping the host copies of the results readable, so
    // that the implementations measured after this one (the cuSOLVER
    // anchors) get the device memory it used.
    virtual void release_device() {}
    // Give the memory back before the next size.
    virtual void release() = 0;
};

// Host arrays (pageable or, with --host-memory pinned, cudaMallocHost); the
// row's name gets `suffix` ("-1gpu" for the first --devices entry alone).
template <class T>
std::unique_ptr<SyevjImpl<T>> make_syevj_batcheig(const Options &opt, const std::string &suffix = "");
template <class T> std::unique_ptr<SyevjImpl<T>> make_syevj_lapacke_omp(const Options &opt);  // anchor
#if BATCHEIG_HAVE_CUDA
template <class T> std::unique_ptr<SyevjImpl<T>> make_syevj_batcheig_device(const Options &opt);  // device arrays
// Anchors on device arrays: cusolverDn?syevjBatched / ?heevjBatched (n <= 32)
// and cusolverDnXsyevBatched (CUDA >= 12.6; otherwise every row says so).
template <class T> std::unique_ptr<SyevjImpl<T>> make_syevj_cusolver_jacobi(const Options &opt);
template <class T> std::unique_ptr<SyevjImpl<T>> make_syevj_cusolver_xsyev(const Options &opt);
#endif

}  // namespace bench
