// The GPU as the workloads see it. Declared in every build; in a build
// without CUDA (BATCHEIG_HAVE_CUDA unset) unavailable_reason() says so and
// DeviceInput cannot be constructed, so the workloads are written once and
// skip their GPU parts with a note.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace bench::gpu {

// Empty when a CUDA device can be used; otherwise why not (for the
// "skipped: no CUDA device (...)" notes).
std::string unavailable_reason();

// Clears the CUDA runtime's last (non-sticky) error, e.g. after a failed
// cudaMalloc that a workload reported and went past. No-op without CUDA.
void clear_last_error();

// One line naming device 0, its memory and the CUDA runtime / driver versions.
std::string describe_device();

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

}  // namespace bench::gpu
