// Host arrays on the CUDA backend: what a workload run with --memory host and
// a CUDA handle (--backend cuda, or auto on a machine with a GPU) adds to
// the geev and syevj workloads. Such a batcheig call streams the batch
// through the GPU(s) in chunks and returns when the results are in host
// memory, so its wall-clock time includes every transfer.
//
//   --host-memory pageable|pinned  how batcheig's host arrays (A, eigenvalues,
//                   vectors, info, Jacobi diagnostics) are allocated:
//                   std::vector (the library stages them through its pinned
//                   ring; the default) or cudaMallocHost (copied directly)
//   --chunk N, --streams S   batcheigParamsSetStreaming(params, N, S)
//   --devices LIST  batcheigSetDevices(handle, LIST); with two or more
//                   devices a batcheig-1gpu row runs the same call on the
//                   first one alone, and the batcheig row's note and the
//                   CSV's gpu_scaling give time(batcheig-1gpu) / time(batcheig)
//
// These options imply --backend cuda (as --memory device does) and are an
// error with --memory device or --backend host. Without a usable GPU they
// are dropped with a note, as the CUDA backend is.
//
// The pinned-transfer row (every run with host arrays on a CUDA handle)
// times, in the same run, the bare transfers of the call's bytes on the
// first device (gpu::PinnedTransfer): its input arrays host -> device from
// pinned memory, then its output arrays device -> host into pinned memory,
// one after the other, CUDA events, median of --reps passes after an untimed
// one. Each batcheig row's note and the CSV's transfer_ratio give the row's
// time / that time: what the pipeline costs above moving the bytes once.
// The pinned-transfer-duplex row moves the same bytes with each device's
// copies in and out at the same time, on every device of the call: the
// floor of a pipeline that overlaps them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "gpu.hpp"

namespace bench {

// A host array of batcheig's: pageable (a std::vector, as the bench always
// used) or pinned (gpu::alloc_pinned, i.e. cudaMallocHost), chosen at
// construction.
template <class T> class HostArray {
public:
    explicit HostArray(bool pinned = false) : pinned_(pinned) {}
    ~HostArray() { clear(); }
    HostArray(const HostArray &) = delete;
    HostArray &operator=(const HostArray &) = delete;

    // `count` copies of `value`, replacing the contents (this touches every
    // page, so first-touch costs stay outside the timed region).
    void assign(std::size_t count, const T &value) {
        clear();
        if (!pinned_) {
            v_.assign(count, value);
            return;
        }
        p_ = static_cast<T *>(gpu::alloc_pinned(count * sizeof(T)));
        n_ = count;
        std::fill_n(p_, count, value);
    }
    // Frees the memory.
    void clear() {
        std::vector<T>().swap(v_);
        gpu::free_pinned(p_);
        p_ = nullptr;
        n_ = 0;
    }
    T *data() { return pinned_ ? p_ : v_.data(); }
    const T *data() const { return pinned_ ? p_ : v_.data(); }
    std::size_t size() const { return pinned_ ? n_ : v_.size(); }
    T &operator[](std::size_t i) { return data()[i]; }
    const T &operator[](std::size_t i) const { return data()[i]; }
    bool pinned() const { return pinned_; }

private:
    bool pinned_ = false;
    std::vector<T> v_;
    T *p_ = nullptr;
    std::size_t n_ = 0;
};

// What a workload's plan decided about host arrays on the CUDA backend.
struct HostStreamingPlan {
    bool on_gpu = false;    // batcheig runs host arrays on a CUDA handle (the workload confirms
                            // with the handle's backend once it is created)
    bool scaling = false;   // --devices lists two or more: batcheig-1gpu runs too
    int first_device = 0;   // where the pinned-transfer row and batcheig-1gpu run
};

// The workloads' common set-up of where batcheig runs. Checks --memory
// (host or device, else std::runtime_error), calls
// resolve_host_streaming_options(), and makes --memory device imply
// --backend cuda (an error with --backend host). Then looks for a GPU:
// with one, a note names it; without, device memory and --backend cuda
// fall back to host memory on the host backend (with a note), and the
// cuSOLVER anchors, `cusolver_anchors` in the note, are noted as skipped
// when --cusolver-subset asks for them. Returns why no GPU is usable ("":
// one is).
std::string resolve_memory_and_gpu(Options &o, std::vector<std::string> &notes, const std::string &cusolver_anchors);

// Before looking for a GPU: --host-memory, --chunk, --streams and --devices
// imply --backend cuda unless --backend was given; with --memory device or
// --backend host they are an error (std::runtime_error).
void resolve_host_streaming_options(Options &o);

// After looking for a GPU (`gpu_usable`) and the workload's own fallbacks:
// the plan, and the notes printed above the table (`transfer_bytes` says
// which arrays the pinned-transfer row moves). Without a GPU, or when
// batcheig does not run host arrays on CUDA, the options are reset to their
// defaults (with a note when they were given). Throws for a --devices
// ordinal the machine does not have.
HostStreamingPlan plan_host_streaming(Options &o, bool gpu_usable, const std::string &transfer_bytes,
                                      std::vector<std::string> &notes);

// The options of the batcheig-1gpu row: --devices cut to its first entry.
Options first_device_only(const Options &o);

// The transfer rows of one size, measured before the implementations run
// (their buffers are freed on return), for these input and output array
// sizes:
// - pinned-transfer: gpu::PinnedTransfer on the first device, an untimed
//   pass, then --reps timed ones; time = median of h2d + d2h per pass, h2d
//   and d2h columns = their medians;
// - pinned-transfer-all (several devices only): the same bytes split evenly
//   over the devices (each array's share rounded up), every device's share
//   on its own stream, all devices at once: the bound the host's PCIe and
//   memory system puts on a multi-GPU call; time = wall clock of one pass on
//   every device (inputs, then outputs), median of --reps after an untimed
//   one; h2d/d2h columns = the slowest device's;
// - pinned-transfer-duplex: as pinned-transfer-all on the call's devices
//   (one or several), each device's outputs at the same time as its
//   inputs: the floor of a pipeline that overlaps them.
// A failure (e.g. no memory for the buffers) gives a row with a status.
struct TransferRows {
    Measurement one, all, duplex;
};
TransferRows measure_transfers(const Options &o, const HostStreamingPlan &plan,
                               const std::vector<std::size_t> &input_bytes,
                               const std::vector<std::size_t> &output_bytes);
// Their names, in the order the table lists them, appended to `names`.
void add_transfer_names(std::vector<std::string> &names, const HostStreamingPlan &plan);

// The host_memory, chunk, streams and devices fields of a batcheig row run
// with options `o` on host arrays of a CUDA handle.
void tag_host_streaming_row(Measurement &m, const Options &o);

// After all rows of a size are measured: time / pinned-transfer time on the
// first `batcheig_rows` rows (batcheig, then batcheig-1gpu with --devices),
// the multi-GPU scaling on row 0 when there are two, row 0's ratios to the
// concurrent (several devices) and duplex transfers, their notes; then the
// transfer rows inserted after them.
void add_transfer_results(CaseResult &r, std::size_t batcheig_rows, const TransferRows &t, const Options &o,
                          const HostStreamingPlan &plan);

}  // namespace bench
