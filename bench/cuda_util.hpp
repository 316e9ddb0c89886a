// Small CUDA runtime wrappers for the bench sources that talk to the GPU
// (gpu.cpp, geev_batcheig_device.cpp, geev_cusolver.cpp). Only compiled in
// builds with CUDA (BATCHEIG_HAVE_CUDA); the rest of the bench goes through
// gpu.hpp, which exists in every build.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace bench::cuda {

inline void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorName(e) + " (" +
                                 cudaGetErrorString(e) + ")");
}

// `count` elements of T in device memory (cudaMalloc), freed on destruction.
template <class T> class DeviceArray {
public:
    DeviceArray() = default;
    explicit DeviceArray(std::size_t count) : count_(count) {
        if (count) check(cudaMalloc(reinterpret_cast<void **>(&p_), count * sizeof(T)), "cudaMalloc");
    }
    ~DeviceArray() { cudaFree(p_); }
    DeviceArray(const DeviceArray &) = delete;
    DeviceArray &operator=(const DeviceArray &) = delete;
    DeviceArray(DeviceArray &&o) noexcept : p_(o.p_), count_(o.count_) { o.p_ = nullptr, o.count_ = 0; }
    DeviceArray &operator=(DeviceArray &&o) noexcept {
        if (this != &o) {
            cudaFree(p_);
            p_ = o.p_, count_ = o.count_;
            o.p_ = nullptr, o.count_ = 0;
        }
        return *this;
    }
    T *get() const { return p_; }
    std::size_t count() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    T *p_ = nullptr;
    std::size_t count_ = 0;
};

// `count` elements of T in page-locked host memory (cudaMallocHost), so that
// copies to and from the device run at full DMA speed and asynchronously.
template <class T> class PinnedArray {
public:
    PinnedArray() = default;
    explicit PinnedArray(std::size_t count) : count_(count) {
        if (count) check(cudaMallocHost(reinterpret_cast<void **>(&p_), count * sizeof(T)), "cudaMallocHost");
    }
    ~PinnedArray() { cudaFreeHost(p_); }
    PinnedArray(const PinnedArray &) = delete;
    PinnedArray &operator=(const PinnedArray &) = delete;
    PinnedArray(PinnedArray &&o) noexcept : p_(o.p_), count_(o.count_) { o.p_ = nullptr, o.count_ = 0; }
    PinnedArray &operator=(PinnedArray &&o) noexcept {
        if (this != &o) {
            cudaFreeHost(p_);
            p_ = o.p_, count_ = o.count_;
            o.p_ = nullptr, o.count_ = 0;
        }
        return *this;
    }
    T *get() const { return p_; }
    T &operator[](std::size_t i) const { return p_[i]; }
    std::size_t count() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    T *p_ = nullptr;
    std::size_t count_ = 0;
};

// A stream of its own (blocking: it also orders with the legacy default stream).
class Stream {
public:
    Stream() { check(cudaStreamCreate(&s_), "cudaStreamCreate"); }
    ~Stream() { cudaStreamDestroy(s_); }
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    cudaStream_t get() const { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

// Elapsed GPU time between two points of a stream, measured with CUDA events:
// start() records the first event, stop() the second, waits for it and
// returns the seconds between them.
class EventTimer {
public:
    EventTimer() {
        check(cudaEventCreate(&a_), "cudaEventCreate");
        check(cudaEventCreate(&b_), "cudaEventCreate");
    }
    ~EventTimer() {
        cudaEventDestroy(a_);
        cudaEventDestroy(b_);
    }
    EventTimer(const EventTimer &) = delete;
    EventTimer &operator=(const EventTimer &) = delete;
    void start(cudaStream_t s) { check(cudaEventRecord(a_, s), "cudaEventRecord"); }
    double stop(cudaStream_t s) {
        check(cudaEventRecord(b_, s), "cudaEventRecord");
        // Also reports errors of the work between the events (e.g. a failed kernel).
        check(cudaEventSynchronize(b_), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, a_, b_), "cudaEventElapsedTime");
        return ms * 1e-3;
    }

private:
    cudaEvent_t a_ = nullptr, b_ = nullptr;
};

}  // namespace bench::cuda
