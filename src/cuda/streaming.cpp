// The host-memory streaming pipeline of the CUDA backend (streaming.hpp).
//
// Per device a ring of `streams` slots; a slot is a non-blocking stream with
// device buffers for one chunk (every array, then the chunk's workspace) and,
// for the arrays in pageable memory, pinned staging for one chunk. One loop
// on the caller's thread (Driver) drives the rings of all the call's
// devices: when a slot's chunk is done, it takes the next chunk number,
// copies that chunk's pageable inputs into the staging, enqueues its
// host-to-device copies and kernels, copies the finished chunk's pageable
// results out of the staging while they run, then enqueues the
// device-to-host copies. While the loop waits on one slot or copies, the
// others' transfers and kernels run. The host copies of one step run on all
// the caller's OpenMP threads at once (host_copy).
//
// One host thread for all devices: a thread per device, started per call or
// kept by the handle, began its work 1.5-7 ms late on a two-H100 host when
// the caller's OpenMP threads had just run (they spin a while after a
// parallel region and hold every core), longer than a whole call of
// 500 000 matrices of order 5. Enqueuing a chunk takes the host about
// 40 microseconds, so one thread keeps several GPUs fed.
//
// Pinned arrays are copied by the DMA engines straight from and to the
// caller's memory. The buffers are kept by the handle between calls.
#include "cuda/streaming.hpp"

#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <new>
#include <thread>
#include <vector>

#include "cuda/cuda_check.cuh"
#include "cuda/device.hpp"
#include "cuda/launch.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {
namespace {

// One stream of a device with the buffers of one chunk.
struct Slot {
    cudaStream_t stream = nullptr;
    void *dev = nullptr;
    std::size_t dev_bytes = 0;
    void *pinned = nullptr;
    std::size_t pinned_bytes = 0;
};

struct Ring {
    int device = 0;
    std::vector<Slot> slots;
};

}  // namespace

// What a handle keeps between calls (Context::streaming).
struct Streaming {
    std::vector<Ring> rings;
};

namespace {

bool in_pinned_memory(const void *p) {
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return attr.type == cudaMemoryTypeHost;
}

// Host copies through the pinned staging: `rows` runs of `width` bytes,
// `pitch` apart in both source and destination (width == pitch: one block).
struct HostCopy {
    char *dst;
    const char *src;
    std::size_t width, pitch;
    std::int64_t rows;
};

// Run the copies of `list` on `threads` OpenMP threads in one parallel
// region. Every copy is cut into pieces of about total / (4 threads) bytes
// (whole runs of a strided copy), so that each of a chunk's arrays, large
// or small, spreads over every thread: one thread copies about 9 GB/s, 16
// about 50 GB/s while the DMA engines read the staging (measured on the
// H100 machine's 16-core host, 11 MB chunks into three staging buffers).
void host_copy(const HostCopy *list, int count, int threads) {
    std::size_t total = 0;
    for (int k = 0; k < count; ++k) total += list[k].width * std::size_t(list[k].rows);
    if (threads <= 1 || total < (std::size_t(512) << 10)) {
        for (int k = 0; k < count; ++k) {
            const HostCopy &c = list[k];
            if (c.width == c.pitch) std::memcpy(c.dst, c.src, c.width * std::size_t(c.rows));
            else
                for (std::int64_t r = 0; r < c.rows; ++r)
                    std::memcpy(c.dst + r * c.pitch, c.src + r * c.pitch, c.width);
        }
        return;
    }
    const std::size_t piece =
        std::clamp<std::size_t>(total / (4 * std::size_t(threads)), std::size_t(64) << 10, std::size_t(1) << 20);
    struct Piece {
        int copy;
        std::int64_t lo, hi;  // bytes of a block, or runs of a strided copy
    };
    std::vector<Piece> pieces;
    for (int k = 0; k < count; ++k) {
        const HostCopy &c = list[k];
        const bool block = c.width == c.pitch;
        const std::int64_t units = block ? std::int64_t(c.width * std::size_t(c.rows)) : c.rows;
        const std::int64_t step =
            block ? std::int64_t(piece) : std::max<std::int64_t>(1, std::int64_t(piece / c.width));
        for (std::int64_t lo = 0; lo < units; lo += step) pieces.push_back(Piece{k, lo, std::min(units, lo + step)});
    }
    const std::int64_t np = std::int64_t(pieces.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (std::int64_t q = 0; q < np; ++q) {
        const Piece &pc = pieces[std::size_t(q)];
        const HostCopy &c = list[pc.copy];
        if (c.width == c.pitch)
            std::memcpy(c.dst + pc.lo, c.src + pc.lo, std::size_t(pc.hi - pc.lo));
        else
            for (std::int64_t r = pc.lo; r < pc.hi; ++r) std::memcpy(c.dst + r * c.pitch, c.src + r * c.pitch, c.width);
    }
}

// One call's state.
struct Call {
    const HostArray *arrays = nullptr;
    int count = 0;
    bool staged[kMaxHostArrays] = {};  // pageable: goes through the slot's pinned staging
    std::int64_t batch = 0;
    std::int64_t chunk = 0;   // the largest chunk: the size of every slot's buffers
    std::int64_t chunks = 0;
    std::vector<std::int64_t> starts;  // chunk c: matrices [starts[c], starts[c + 1])
    int streams = 0;
    int copy_threads = 1;
    const ChunkJob *job = nullptr;
    cudaEvent_t after = nullptr;  // recorded on the handle's stream
    std::int64_t next = 0;  // the next chunk to start
    bool failed = false;

    // One slot's buffers, laid out once per call: array i at dev + dev_off[i]
    // (and, pageable, its staging at pinned + pin_in[i] for the input and
    // pinned + pin_out[i] for the results: apart for an array that is both,
    // since a chunk's input goes in before the previous chunk's results
    // leave), the chunk's workspace at dev + work_off.
    std::size_t dev_off[kMaxHostArrays] = {};
    std::size_t pin_in[kMaxHostArrays] = {}, pin_out[kMaxHostArrays] = {};
    std::size_t work_off = 0, dev_bytes = 0, pinned_bytes = 0;

    bool any_staged() const {
        for (int i = 0; i < count; ++i)
            if (staged[i]) return true;
        return false;
    }
    std::int64_t first(std::int64_t c) const { return starts[std::size_t(c)]; }
    std::int64_t size(std::int64_t c) const { return starts[std::size_t(c) + 1] - starts[std::size_t(c)]; }

    void lay_out() {
        std::size_t d = 0, h = 0;
        for (int i = 0; i < count; ++i) {
            if (!arrays[i].host) continue;
            const std::size_t bytes = align256(std::size_t(chunk) * arrays[i].stride);
            dev_off[i] = d;
            d += bytes;
            if (staged[i]) {
                pin_in[i] = pin_out[i] = h;
                h += bytes;
                if (arrays[i].in && arrays[i].out) {
                    pin_out[i] = h;
                    h += bytes;
                }
            }
        }
        work_off = d;
        dev_bytes = d + align256(job->workspace_bytes(static_cast<int>(chunk)));
        pinned_bytes = h;
    }
};

// Grow a buffer to at least `want` bytes with alloc/release (its old
// contents are not kept). False when the allocation fails.
template <class Alloc, class Release>
bool grow(void **p, std::size_t *bytes, std::size_t want, Alloc alloc, Release release) {
    if (*bytes >= want) return true;
    release(*p);
    *p = nullptr;
    *bytes = 0;
    if (alloc(p, want) != cudaSuccess) {
        cudaGetLastError();
        *p = nullptr;
        return false;
    }
    *bytes = want;
    return true;
}

// The loop described at the top, over the rings of all the call's devices.
class Driver {
  public:
    Driver(const std::vector<Ring *> &rings, Call &call) : rings_(rings), call_(call) {}

    batcheigStatus_t run() {
        const std::size_t ndev = rings_.size();
        for (Ring *ring : rings_) {
            const batcheigStatus_t st = prepare(*ring);
            if (st != BATCHEIG_STATUS_SUCCESS) return st;  // nothing enqueued yet
        }
        devs_.assign(ndev, Device{});
        for (Device &v : devs_) v.busy.assign(std::size_t(call_.streams), -1);
        batcheigStatus_t result = BATCHEIG_STATUS_SUCCESS;
        // Every slot starts with a chunk, the devices in turn. On several
        // devices, with every array pinned, the first slot of each device
        // gets its copy in enqueued before the kernels and copies out of
        // any: enqueuing a whole chunk takes the host tens of microseconds,
        // which would otherwise delay the second device's first transfer.
        // (Pageable arrays keep the plain order: their staging copies bound
        // the call, and it measured no faster.)
        for (int s = 0; s < call_.streams; ++s) {
            const bool stagger = s == 0 && ndev > 1 && !call_.any_staged();
            for (std::size_t d = 0; d < ndev; ++d) refill(d, s, -1, &result, stagger ? Part::In : Part::All);
            if (stagger)
                for (std::size_t d = 0; d < ndev; ++d) refill(d, s, -1, &result, Part::Rest);
        }
        // Then each device's oldest chunk is waited for and its slot
        // refilled, until no slot has a chunk. One device blocks on it; on
        // several, whichever device's oldest chunk is done first gets the
        // next one.
        for (;;) {
            bool any = false, moved = false;
            for (std::size_t d = 0; d < ndev; ++d) {
                Device &v = devs_[d];
                if (v.order.empty()) continue;
                any = true;
                const int s = v.order.front();
                Slot &slot = rings_[d]->slots[std::size_t(s)];
                batcheigStatus_t st = BATCHEIG_STATUS_SUCCESS;
                if (ndev == 1) {
                    if (cudaStreamSynchronize(slot.stream) != cudaSuccess) st = BATCHEIG_STATUS_EXECUTION_FAILED;
                } else {
                    const cudaError_t q = cudaStreamQuery(slot.stream);
                    if (q == cudaErrorNotReady) continue;
                    if (q != cudaSuccess) st = BATCHEIG_STATUS_EXECUTION_FAILED;
                }
                if (st != BATCHEIG_STATUS_SUCCESS) {
                    cudaGetLastError();
                    fail(&result, st);
                }
                moved = true;
                v.order.pop_front();
                const std::int64_t done = v.busy[std::size_t(s)];  // its results still in the staging
                v.busy[std::size_t(s)] = -1;
                refill(d, s, done, &result);
            }
            if (!any) break;
            if (!moved) std::this_thread::yield();
        }
        return result;
    }

  private:
    // A device's slots: the chunk each holds (-1: none) and the slots that
    // hold one, oldest first.
    struct Device {
        std::vector<std::int64_t> busy;
        std::deque<int> order;
    };

    void fail(batcheigStatus_t *result, batcheigStatus_t st) {
        if (*result == BATCHEIG_STATUS_SUCCESS) *result = st;
        call_.failed = true;
    }

    // Make `device` current for the enqueues that follow.
    batcheigStatus_t select(int device) {
        if (device == current_) return BATCHEIG_STATUS_SUCCESS;
        BATCHEIG_CUDA_TRY(cudaSetDevice(device));
        current_ = device;
        return BATCHEIG_STATUS_SUCCESS;
    }

    // Streams and buffers of a device for the call's chunk size.
    batcheigStatus_t prepare(Ring &ring) {
        const batcheigStatus_t sel = select(ring.device);
        if (sel != BATCHEIG_STATUS_SUCCESS) return sel;
        while (ring.slots.size() < std::size_t(call_.streams)) {
            Slot slot;
            BATCHEIG_CUDA_TRY(cudaStreamCreateWithFlags(&slot.stream, cudaStreamNonBlocking));
            ring.slots.push_back(slot);
        }
        for (int s = 0; s < call_.streams; ++s) {
            Slot &slot = ring.slots[std::size_t(s)];
            // Earlier calls have finished with these buffers: every call
            // waits for all of its chunks before it returns.
            const auto dev_alloc = [](void **p, std::size_t b) { return cudaMalloc(p, b); };
            const auto dev_release = [](void *p) { cudaFree(p); };
            const auto pin_alloc = [](void **p, std::size_t b) { return cudaMallocHost(p, b); };
            const auto pin_release = [](void *p) { cudaFreeHost(p); };
            if (!grow(&slot.dev, &slot.dev_bytes, call_.dev_bytes, dev_alloc, dev_release) ||
                !grow(&slot.pinned, &slot.pinned_bytes, call_.pinned_bytes, pin_alloc, pin_release))
                return BATCHEIG_STATUS_ALLOC_FAILED;
            BATCHEIG_CUDA_TRY(cudaStreamWaitEvent(slot.stream, call_.after, 0));
        }
        return BATCHEIG_STATUS_SUCCESS;
    }

    // What refill() enqueues for a slot's next chunk: all of it, or (the
    // first round on several devices) its copy in, then the rest.
    enum class Part { All, In, Rest };

    // Slot s of device d is free; `done` is the chunk it last held (-1:
    // none), waited for. Give the slot the next chunk, or, when none is
    // left, copy out `done`'s pageable results. Part::Rest: the slot's
    // chunk is the one given by the Part::In call before.
    void refill(std::size_t d, int s, std::int64_t done, batcheigStatus_t *result, Part part = Part::All) {
        Ring &ring = *rings_[d];
        Slot &slot = ring.slots[std::size_t(s)];
        batcheigStatus_t st = BATCHEIG_STATUS_SUCCESS;
        if (part == Part::Rest) {
            const std::int64_t c = devs_[d].busy[std::size_t(s)];
            if (c < 0 || call_.failed) return;
            st = select(ring.device);
            if (st == BATCHEIG_STATUS_SUCCESS) st = compute(slot, c, done);
            if (st != BATCHEIG_STATUS_SUCCESS) fail(result, st);
            return;
        }
        std::int64_t next = -1;
        if (!call_.failed) {
            next = call_.next++;
            if (next >= call_.chunks) next = -1;
        }
        if (next >= 0) {
            st = select(ring.device);
            if (st == BATCHEIG_STATUS_SUCCESS) st = copy_in(slot, next);
            if (st == BATCHEIG_STATUS_SUCCESS && part == Part::All) st = compute(slot, next, done);
            // Waited for even when a step fails half-way.
            devs_[d].busy[std::size_t(s)] = next;
            devs_[d].order.push_back(s);
        } else {
            st = copy_out(slot, done);
        }
        if (st != BATCHEIG_STATUS_SUCCESS) fail(result, st);
    }

    // Device buffers of the slot's arrays.
    void device_arrays(Slot &slot, void **dev) const {
        for (int i = 0; i < call_.count; ++i)
            dev[i] = call_.arrays[i].host ? static_cast<char *>(slot.dev) + call_.dev_off[i] : nullptr;
    }

    // Enqueue chunk c's copy in on the slot: its pageable inputs into the
    // staging, then the host-to-device copies.
    batcheigStatus_t copy_in(Slot &slot, std::int64_t c) {
        const std::int64_t b0 = call_.first(c);
        const std::int64_t count = call_.size(c);
        void *dev[kMaxHostArrays] = {};
        device_arrays(slot, dev);
        HostCopy copies[kMaxHostArrays];
        int ncopies = 0;
        for (int i = 0; i < call_.count; ++i) {
            const HostArray &a = call_.arrays[i];
            if (!a.host || !a.in || !call_.staged[i]) continue;
            const std::size_t bytes = std::size_t(count) * a.stride;
            copies[ncopies++] = HostCopy{staging(slot, call_.pin_in[i]), host_at(a, b0), bytes, bytes, 1};
        }
        host_copy(copies, ncopies, call_.copy_threads);
        for (int i = 0; i < call_.count; ++i) {
            const HostArray &a = call_.arrays[i];
            if (!a.host || !a.in) continue;
            const char *src = call_.staged[i] ? staging(slot, call_.pin_in[i]) : host_at(a, b0);
            BATCHEIG_CUDA_TRY(
                cudaMemcpyAsync(dev[i], src, std::size_t(count) * a.stride, cudaMemcpyHostToDevice, slot.stream));
        }
        return BATCHEIG_STATUS_SUCCESS;
    }

    // Enqueue chunk c's kernels on the slot (its copy in enqueued before);
    // then, while they run, copy the pageable results of the slot's
    // previous chunk `done` out of the staging; then enqueue the
    // device-to-host copies of chunk c's results.
    batcheigStatus_t compute(Slot &slot, std::int64_t c, std::int64_t done) {
        const std::int64_t b0 = call_.first(c);
        const std::int64_t count = call_.size(c);
        void *dev[kMaxHostArrays] = {};
        device_arrays(slot, dev);
        const batcheigStatus_t st =
            call_.job->run(slot.stream, dev, static_cast<int>(count), static_cast<char *>(slot.dev) + call_.work_off);
        if (st != BATCHEIG_STATUS_SUCCESS) return st;
        const batcheigStatus_t out = copy_out(slot, done);
        if (out != BATCHEIG_STATUS_SUCCESS) return out;
        for (int i = 0; i < call_.count; ++i) {
            const HostArray &a = call_.arrays[i];
            if (!a.host || !a.out) continue;
            char *dst = call_.staged[i] ? staging(slot, call_.pin_out[i]) : host_at(a, b0);
            if (a.width == a.pitch)
                BATCHEIG_CUDA_TRY(cudaMemcpyAsync(dst, dev[i], std::size_t(count) * a.stride,
                                                    cudaMemcpyDeviceToHost, slot.stream));
            else
                BATCHEIG_CUDA_TRY(cudaMemcpy2DAsync(dst, a.pitch, dev[i], a.pitch, a.width,
                                                      std::size_t(a.cols) * std::size_t(count),
                                                      cudaMemcpyDeviceToHost, slot.stream));
        }
        return BATCHEIG_STATUS_SUCCESS;
    }

    // Copy the pageable results of chunk c (waited for; none when c < 0)
    // out of the slot's staging.
    batcheigStatus_t copy_out(Slot &slot, std::int64_t c) {
        if (c < 0 || call_.failed) return BATCHEIG_STATUS_SUCCESS;  // a failed call fails anyway
        const std::int64_t b0 = call_.first(c);
        const std::int64_t count = call_.size(c);
        HostCopy copies[kMaxHostArrays];
        int ncopies = 0;
        for (int i = 0; i < call_.count; ++i) {
            const HostArray &a = call_.arrays[i];
            if (!a.host || !a.out || !call_.staged[i]) continue;
            copies[ncopies++] = HostCopy{host_at(a, b0), staging(slot, call_.pin_out[i]), a.width, a.pitch,
                                         std::int64_t(a.cols) * count};
        }
        host_copy(copies, ncopies, call_.copy_threads);
        return BATCHEIG_STATUS_SUCCESS;
    }

    static char *staging(Slot &slot, std::size_t off) { return static_cast<char *>(slot.pinned) + off; }
    // Matrix b0 of the caller's host array.
    static char *host_at(const HostArray &a, std::int64_t b0) {
        return static_cast<char *>(a.host) + std::size_t(b0) * a.stride;
    }

    const std::vector<Ring *> &rings_;
    Call &call_;
    std::vector<Device> devs_;
    int current_ = -1;  // the device made current last (select)
};

Streaming &streaming_of(Context &ctx) {
    if (!ctx.streaming) ctx.streaming = new Streaming{};
    return *static_cast<Streaming *>(ctx.streaming);
}

// Bytes that one matrix moves across the bus: its slices of the arrays in
// host memory (inputs and outputs).
std::int64_t host_bytes_per_matrix(const HostArray *arrays, int count) {
    std::int64_t bytes = 0;
    for (int i = 0; i < count; ++i)
        if (arrays[i].host) bytes += std::int64_t(arrays[i].stride);
    return std::max<std::int64_t>(bytes, 1);
}

int streams_of(const StreamingOptions &opt, int devices, std::int64_t bytes_per_matrix) {
    if (opt.streams > 0) return opt.streams;
    return plan::tuning::cuda_streams_per_device(devices, bytes_per_matrix);
}

// Matrices per chunk for these options on `devices` devices with `streams`
// streams each, for matrices that move `bytes` across the bus.
std::int64_t chunk_matrices(const StreamingOptions &opt, std::int64_t bytes, std::int64_t batch, int devices,
                            int streams) {
    if (batch <= 0) return 1;
    if (opt.chunk > 0) return std::min<std::int64_t>(opt.chunk, batch);
    namespace t = plan::tuning;
    std::int64_t c = std::clamp<std::int64_t>(t::cuda_stream_chunk_bytes / bytes, t::cuda_stream_chunk_min,
                                              t::cuda_stream_chunk_max);
    c = std::min(c, std::max<std::int64_t>(1, t::cuda_stream_slot_bytes / bytes));
    // Whole rounds: the fewest rounds of one chunk per stream of every device
    // that cover the batch at this size, and the chunk that fills them
    // evenly. Otherwise a last, partial round leaves streams (or whole
    // devices) idle: 500 000 matrices of order 5 in chunks of 59 000 on two
    // GPUs with 3 streams are 9 chunks, 6 then 3. Small batches get one
    // chunk per stream.
    const std::int64_t slots = std::int64_t(streams) * std::max(devices, 1);
    const std::int64_t rounds = (batch + slots * c - 1) / (slots * c);
    c = (batch + rounds * slots - 1) / (rounds * slots);
    return std::max<std::int64_t>(c, 1);
}

// The chunks of a call, as the first matrix of each and the batch at the
// end: chunks of chunk_matrices; except that, when every array is pinned
// (`staged` false: the copies, not the host, bound the call), the chunks'
// kernels are short (few bytes per matrix) and the batch takes several
// rounds, each device's last chunks are smaller
// (plan::tuning::cuda_stream_tail_divisors), so that less is left to
// compute and copy out after the last copy in.
std::vector<std::int64_t> chunk_starts(const StreamingOptions &opt, std::int64_t bytes, std::int64_t batch,
                                       int devices, int streams, bool staged) {
    namespace t = plan::tuning;
    const int ndev = std::max(devices, 1);
    std::int64_t c = chunk_matrices(opt, bytes, batch, ndev, streams);
    std::vector<std::int64_t> tail;
    if (!staged && opt.chunk <= 0 && bytes < t::cuda_stream_tail_max_bytes &&
        (batch + c - 1) / c >= t::cuda_stream_tail_min_rounds * std::int64_t(streams) * ndev)
        for (const int div : t::cuda_stream_tail_divisors) tail.push_back(std::max<std::int64_t>(1, c / div));
    std::int64_t bulk = batch;
    for (const std::int64_t m : tail) bulk -= m * ndev;
    if (!tail.empty()) c = chunk_matrices(opt, bytes, bulk, ndev, streams);
    std::vector<std::int64_t> starts;
    for (std::int64_t b0 = 0; b0 < bulk; b0 += c) starts.push_back(b0);
    std::int64_t b0 = bulk;
    for (const std::int64_t m : tail)
        for (int d = 0; d < ndev; ++d, b0 += m) starts.push_back(b0);
    starts.push_back(batch);
    return starts;
}

}  // namespace

batcheigStatus_t stream_batch(Context &ctx, const StreamingOptions &opt, const HostArray *arrays, int count,
                              std::int64_t batch, const ChunkJob &job) {
    if (count > kMaxHostArrays) return BATCHEIG_STATUS_INTERNAL_ERROR;
    if (batch <= 0) return BATCHEIG_STATUS_SUCCESS;
    int caller_device = 0;
    BATCHEIG_CUDA_TRY(cudaGetDevice(&caller_device));
    std::vector<int> devices = ctx.devices;
    if (devices.empty()) devices.push_back(caller_device);
    const int ndev = static_cast<int>(devices.size());

    Call call;
    call.arrays = arrays;
    call.count = count;
    for (int i = 0; i < count; ++i) call.staged[i] = arrays[i].host && !in_pinned_memory(arrays[i].host);
    call.batch = batch;
    const std::int64_t bytes = host_bytes_per_matrix(arrays, count);
    call.streams = streams_of(opt, ndev, bytes);
    call.starts = chunk_starts(opt, bytes, batch, ndev, call.streams, call.any_staged());
    call.chunks = std::int64_t(call.starts.size()) - 1;
    for (std::int64_t c = 0; c < call.chunks; ++c) call.chunk = std::max(call.chunk, call.size(c));
    call.copy_threads = std::max(1, omp_get_max_threads());
    call.job = &job;
    call.lay_out();

    // The rings of the call's devices.
    Streaming &st = streaming_of(ctx);
    std::vector<std::size_t> ring_of(std::size_t(ndev), 0);
    for (int k = 0; k < ndev; ++k) {
        std::size_t r = 0;
        while (r < st.rings.size() && st.rings[r].device != devices[std::size_t(k)]) ++r;
        if (r == st.rings.size()) {
            st.rings.emplace_back();
            st.rings.back().device = devices[std::size_t(k)];
        }
        ring_of[std::size_t(k)] = r;
    }

    // Order the call after the work already on the handle's stream.
    BATCHEIG_CUDA_TRY(cudaEventCreateWithFlags(&call.after, cudaEventDisableTiming));
    if (cudaEventRecord(call.after, ctx.stream) != cudaSuccess) {
        cudaGetLastError();
        cudaEventDestroy(call.after);
        return BATCHEIG_STATUS_EXECUTION_FAILED;
    }

    std::vector<Ring *> rings;
    for (int k = 0; k < ndev; ++k) rings.push_back(&st.rings[ring_of[std::size_t(k)]]);
    batcheigStatus_t result = BATCHEIG_STATUS_SUCCESS;
    bool thrown = false;
    try {
        result = Driver(rings, call).run();
    } catch (const std::bad_alloc &) {
        result = BATCHEIG_STATUS_ALLOC_FAILED;
        thrown = true;
    } catch (...) {
        result = BATCHEIG_STATUS_INTERNAL_ERROR;
        thrown = true;
    }
    // The loop stopped half-way: let what it queued finish before the call
    // returns (the copies write to the caller's pinned arrays).
    if (thrown)
        for (Ring *ring : rings)
            if (cudaSetDevice(ring->device) == cudaSuccess)
                for (Slot &slot : ring->slots) cudaStreamSynchronize(slot.stream);
    cudaEventDestroy(call.after);
    cudaSetDevice(caller_device);
    cudaGetLastError();
    return result;
}

void release_streaming(Context &ctx) {
    if (!ctx.streaming) return;
    auto *st = static_cast<Streaming *>(ctx.streaming);
    int caller_device = 0;
    const bool restore = cudaGetDevice(&caller_device) == cudaSuccess;
    for (Ring &ring : st->rings) {
        if (cudaSetDevice(ring.device) != cudaSuccess) continue;
        for (Slot &slot : ring.slots) {
            cudaStreamSynchronize(slot.stream);
            cudaStreamDestroy(slot.stream);
            cudaFree(slot.dev);
            cudaFreeHost(slot.pinned);
        }
    }
    if (restore) cudaSetDevice(caller_device);
    cudaGetLastError();
    delete st;
    ctx.streaming = nullptr;
}

}  // namespace batcheig::cuda
