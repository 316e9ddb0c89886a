// The GPU as the workloads see it. Declared in every build; in a build
// without CUDA (BATCHEIG_HAVE_CUDA unset) unavailable_reason() says so,
// device_count() is 0, and DeviceInput, PinnedTransfer and alloc_pinned()
// throw, so the workloads are written once and skip their GPU parts with a
// note.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bench::gpu {

// Empty when a CUDA device can be used; otherwise why not (for the
// "skipped: no CUDA device (...)" notes).
std::string unavailable_reason();

// Clears the CUDA runtime's last (non-sticky) error, e.g. after a failed
// cudaMalloc that a workload reported and went past. No-op without CUDA.
void clear_last_error();

// Number of CUDA devices (0 when none can be used).
int device_count();

// One line naming a device (default 0), its memory and the CUDA runtime /
// driver versions.
std::string describe_device(int ordinal = 0);

// Page-locked host memory (cudaMallocHost): what --host-memory pinned gives
// batcheig's host arrays. With unified addressing (every 64-bit CUDA
// platform) it is page-locked for every device, not only the current one.
void *alloc_pinned(std::size_t bytes);
void free_pinned(void *p) noexcept;

// The device-resident input of the implementations that compute on device
// memory: a pristine device copy of the batch, uploaded from page-locked host
// memory (that upload is the H2D time reported), and a working copy that the
// implementations overwrite (geev destroys A), restored from the pristine one
// before every run, untimed.
class DeviceInput {
public:
    // `host` holds `count` matrices of `bytes_per_matrix` bytes each; it is
    // page-locked (cudaHostRegister) for the lifetime of this object, which
    // it must outlive.
    DeviceInput(const void *host, std::size_t bytes_per_matrix, long long count);
    ~DeviceInput();
    DeviceInput(const DeviceInput &) = delete;
    DeviceInput &operator=(const DeviceInput &) = delete;

    // Copies the whole batch host -> pristine device copy; returns its
    // duration in seconds, measured with CUDA events around the copy.
    double upload();
    // working <- pristine for the first `count` matrices; returns when done.
    void restore(long long count);
    void *working() const;
    long long count() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

// The bare transfers of a call on host arrays, the floor a streaming
// pipeline on one GPU is compared with (the pinned-transfer row): the input
// arrays host -> device from page-locked memory, then the output arrays
// device -> host into page-locked memory, one cudaMemcpyAsync per array, all
// on one stream of `device`, timed with CUDA events (the two directions in
// sequence, never overlapped). With `duplex` the outputs go on a second
// stream that starts with the first, so both directions run at once (the
// floor of a pipeline that overlaps its copies in and out). The buffers are
// allocated in the constructor
// and freed by the destructor; their contents are whatever they hold (a copy
// does not depend on the bytes).
class PinnedTransfer {
public:
    // Bytes of each input array and of each output array.
    PinnedTransfer(int device, const std::vector<std::size_t> &input_bytes,
                   const std::vector<std::size_t> &output_bytes, bool duplex = false);
    ~PinnedTransfer();
    PinnedTransfer(const PinnedTransfer &) = delete;
    PinnedTransfer &operator=(const PinnedTransfer &) = delete;

    struct Times {
        double h2d = 0, d2h = 0;  // seconds (duplex: each from the common start)
    };
    // One pass: every input host -> device, then (duplex: at the same time)
    // every output device -> host.
    Times measure();
    // The same pass in two halves: start() enqueues it and returns, finish()
    // waits for it (so several devices' passes can run at once).
    void start();
    Times finish();

private:
    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace bench::gpu
