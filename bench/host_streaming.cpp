#include "host_streaming.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>

namespace bench {

namespace {

bool any_given(const Options &o) { return o.host_memory_given || o.streaming_given || !o.devices.empty(); }

// "0;1" (no comma: the CSV field needs no quoting), "default" when not set.
std::string devices_field(const std::vector<int> &d) {
    if (d.empty()) return "default";
    std::string s;
    for (size_t k = 0; k < d.size(); ++k) s += (k ? ";" : "") + std::to_string(d[k]);
    return s;
}

std::string devices_text(const std::vector<int> &d) {
    std::string s;
    for (size_t k = 0; k < d.size(); ++k) s += (k ? "," : "") + std::to_string(d[k]);
    return s;
}

std::string auto_or(int v) { return v > 0 ? std::to_string(v) : std::string("auto"); }

void append_note(std::string &note, const std::string &s) { note += (note.empty() ? "" : "; ") + s; }

}  // namespace

void resolve_host_streaming_options(Options &o) {
    if (!any_given(o)) return;
    if (o.memory != "host")
        throw std::runtime_error("--host-memory, --chunk, --streams and --devices apply to --memory host "
                                 "(host arrays on the CUDA backend)");
    if (!o.backend_given) o.backend = "cuda";
    else if (o.backend == "host")
        throw std::runtime_error("--host-memory, --chunk, --streams and --devices need the CUDA backend "
                                 "(--backend cuda or auto)");
}

std::string resolve_memory_and_gpu(Options &o, std::vector<std::string> &notes, const std::string &cusolver_anchors) {
    if (o.memory != "host" && o.memory != "device") throw std::runtime_error("--memory must be host or device");
    resolve_host_streaming_options(o);
    if (o.memory == "device" && !o.backend_given) o.backend = "cuda";
    if (o.memory == "device" && o.backend == "host")
        throw std::runtime_error("--memory device needs --backend cuda or auto");
    const std::string no_gpu = gpu::unavailable_reason();
    if (no_gpu.empty()) {
        notes.push_back("gpu: " + gpu::describe_device());
        return no_gpu;
    }
    const std::string skipped = "skipped: no CUDA device (" + no_gpu + ")";
    if (o.memory == "device") {
        notes.push_back("batcheig on device memory: " + skipped +
                        "; batcheig runs on host memory with the host backend instead");
        o.memory = "host";
        o.backend = "host";
    } else if (o.backend == "cuda") {
        notes.push_back("batcheig --backend cuda: " + skipped + "; batcheig runs on the host backend instead");
        o.backend = "host";
    }
    if (o.cusolver_subset > 0) notes.push_back(cusolver_anchors + ": " + skipped);
    return no_gpu;
}

HostStreamingPlan plan_host_streaming(Options &o, bool gpu_usable, const std::string &transfer_bytes,
                                      std::vector<std::string> &notes) {
    HostStreamingPlan p;
    if (o.memory != "host" || o.backend == "host" || !gpu_usable) {
        if (any_given(o))
            notes.push_back("--host-memory, --chunk, --streams, --devices: ignored (batcheig does not run host "
                            "arrays on the CUDA backend in this run)");
        o.host_memory = "pageable";
        o.chunk = o.streams = 0;
        o.streaming_given = false;
        o.devices.clear();
        return p;
    }
    const int count = gpu::device_count();
    for (int d : o.devices)
        if (d < 0 || d >= count)
            throw std::runtime_error("--devices: no CUDA device " + std::to_string(d) + " (this machine has " +
                                     std::to_string(count) + ")");
    p.on_gpu = true;
    p.first_device = o.devices.empty() ? 0 : o.devices[0];
    p.scaling = o.devices.size() >= 2;

    for (int d : o.devices)
        if (d != 0) notes.push_back("gpu " + std::to_string(d) + ": " + gpu::describe_device(d));
    const bool pinned = o.host_memory == "pinned";
    notes.push_back(
        std::string("host arrays on the CUDA backend: batcheig's A, eigenvalues, vectors, info (and Jacobi "
                    "diagnostics) in ") +
        (pinned ? "pinned memory (--host-memory pinned: cudaMallocHost, copied directly; the anchors' host copy "
                  "of A is the same array)"
                : "pageable memory (--host-memory pageable: std::vector, staged by the library's pinned ring)") +
        "; streaming: " +
        (o.streaming_given ? "batcheigParamsSetStreaming(chunk " + auto_or(o.chunk) + ", streams " +
                                 auto_or(o.streams) + ")"
                           : std::string("library defaults")) +
        "; devices: " +
        (o.devices.empty() ? std::string("the current one (0), batcheigSetDevices not called")
                           : "batcheigSetDevices(" + devices_text(o.devices) + ")") +
        "; time = wall clock around the call, which returns when the results are in host memory, after an "
        "untimed warm-up call on the whole batch");
    notes.push_back("pinned-transfer: the bare transfers of the batcheig call's bytes on device " +
                    std::to_string(p.first_device) + ", " + transfer_bytes +
                    "; one cudaMemcpyAsync per array on one stream, input then output (not overlapped), CUDA "
                    "events, median of --reps passes after an untimed one; h2d/d2h columns = each direction; "
                    "each batcheig row's note gives its time / this time (CSV transfer_ratio)");
    if (p.scaling)
        notes.push_back("pinned-transfer-all: the same bytes split evenly over devices " + devices_text(o.devices) +
                        ", each share on its own device and stream, all at once (wall clock): what the host's "
                        "PCIe and memory system allow a multi-GPU call; the multi-GPU batcheig row's note gives "
                        "its time / this time");
    notes.push_back("pinned-transfer-duplex: the same bytes on the call's device" +
                    std::string(p.scaling ? "s " + devices_text(o.devices) + " (split evenly)" : " " +
                                std::to_string(p.first_device)) +
                    ", each device's outputs on a second stream at the same time as its inputs (wall clock): the "
                    "floor of a pipeline that overlaps its copies in and out, and what the host allows both "
                    "directions at once; h2d/d2h columns = each direction from the common start; the batcheig "
                    "row's note gives its time / this time");
    if (p.scaling)
        notes.push_back("batcheig-1gpu: the same call with batcheigSetDevices(" + std::to_string(p.first_device) +
                        ") only; the batcheig row's note gives the scaling time(batcheig-1gpu) / time(batcheig) "
                        "on " + std::to_string(o.devices.size()) + " GPUs (CSV gpu_scaling)");
    return p;
}

Options first_device_only(const Options &o) {
    Options one = o;
    if (!one.devices.empty()) one.devices.resize(1);
    return one;
}

namespace {

// One pass of a transfer measurement: its total time and the times of the
// input and output copies (seconds).
struct TransferPass {
    double total = 0, h2d = 0, d2h = 0;
};

// A transfer row named `impl`: `pass` (set up by `prepare`, which may throw)
// once untimed, then `reps` times; median total, h2d and d2h. A failure
// (e.g. no memory for the buffers) gives the row a status instead.
template <class Prepare>
Measurement transfer_row(const char *impl, const std::string &devices, const std::string &note, int reps,
                         Prepare prepare) {
    Measurement m;
    m.impl = impl;
    m.memory = "host";
    m.transfer_only = true;
    m.host_memory = "pinned";
    m.devices = devices;
    m.note = note;
    try {
        auto pass = prepare();
        pass();  // untimed: first use of the buffers and the streams
        std::vector<double> h2d, d2h, total;
        for (int rep = 0; rep < reps; ++rep) {
            const TransferPass x = pass();
            total.push_back(x.total);
            h2d.push_back(x.h2d);
            d2h.push_back(x.d2h);
        }
        m.median_s = median(total);
        m.min_s = *std::min_element(total.begin(), total.end());
        m.h2d_s = median(h2d);
        m.d2h_s = median(d2h);
    } catch (const std::exception &e) {
        gpu::clear_last_error();
        const std::string what = e.what();
        m.status = what.find("cudaErrorMemoryAllocation") != std::string::npos ? "OOM" : "failed";
        m.note = what;
    }
    return m;
}

// The pinned-transfer row (see TransferRows).
Measurement measure_pinned_transfer(int device, const std::vector<std::size_t> &input_bytes,
                                    const std::vector<std::size_t> &output_bytes, int reps) {
    return transfer_row("pinned-transfer", std::to_string(device), "bare pinned copies on device " + std::to_string(device),
                        reps, [&] {
                            auto t = std::make_shared<gpu::PinnedTransfer>(device, input_bytes, output_bytes);
                            return [t] {
                                const gpu::PinnedTransfer::Times x = t->measure();
                                return TransferPass{x.h2d + x.d2h, x.h2d, x.d2h};
                            };
                        });
}

// The pinned-transfer-all row, or with `duplex` the pinned-transfer-duplex
// row, over `devices` (see TransferRows).
Measurement measure_pinned_transfer_all(const std::vector<int> &devices, const std::vector<std::size_t> &input_bytes,
                                        const std::vector<std::size_t> &output_bytes, int reps, bool duplex = false) {
    const std::string note = std::string(duplex ? "bare pinned copies in and out at once" : "bare pinned copies") +
                             (devices.size() >= 2 ? " split over devices " + devices_text(devices) + ", all at once"
                                                  : " on device " + devices_text(devices));
    return transfer_row(
        duplex ? "pinned-transfer-duplex" : "pinned-transfer-all", devices_field(devices), note, reps, [&] {
            const std::size_t nd = std::max<std::size_t>(devices.size(), 1);
            auto split = [nd](const std::vector<std::size_t> &v) {
                std::vector<std::size_t> s;
                for (std::size_t b : v) s.push_back((b + nd - 1) / nd);
                return s;
            };
            auto t = std::make_shared<std::vector<std::unique_ptr<gpu::PinnedTransfer>>>();
            for (int d : devices)
                t->push_back(
                    std::make_unique<gpu::PinnedTransfer>(d, split(input_bytes), split(output_bytes), duplex));
            return [t] {
                TransferPass x;
                const auto t0 = std::chrono::steady_clock::now();
                for (auto &p : *t) p->start();
                for (auto &p : *t) {
                    const gpu::PinnedTransfer::Times y = p->finish();
                    x.h2d = std::max(x.h2d, y.h2d);
                    x.d2h = std::max(x.d2h, y.d2h);
                }
                x.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                return x;
            };
        });
}

}  // namespace

TransferRows measure_transfers(const Options &o, const HostStreamingPlan &plan,
                               const std::vector<std::size_t> &input_bytes,
                               const std::vector<std::size_t> &output_bytes) {
    TransferRows t;
    t.one = measure_pinned_transfer(plan.first_device, input_bytes, output_bytes, o.reps);
    if (plan.scaling) t.all = measure_pinned_transfer_all(o.devices, input_bytes, output_bytes, o.reps);
    const std::vector<int> call_devices = plan.scaling ? o.devices : std::vector<int>{plan.first_device};
    t.duplex = measure_pinned_transfer_all(call_devices, input_bytes, output_bytes, o.reps, true);
    return t;
}

void add_transfer_names(std::vector<std::string> &names, const HostStreamingPlan &plan) {
    names.push_back("pinned-transfer");
    if (plan.scaling) names.push_back("pinned-transfer-all");
    names.push_back("pinned-transfer-duplex");
}

void tag_host_streaming_row(Measurement &m, const Options &o) {
    m.host_memory = o.host_memory;
    m.chunk = o.chunk;
    m.streams = o.streams;
    m.devices = devices_field(o.devices);
}

void add_transfer_results(CaseResult &r, std::size_t batcheig_rows, const TransferRows &t, const Options &o,
                          const HostStreamingPlan &plan) {
    const Measurement &transfer = t.one;
    const Measurement *all = plan.scaling ? &t.all : nullptr, *duplex = &t.duplex;
    batcheig_rows = std::min(batcheig_rows, r.m.size());
    const bool have_transfer = transfer.status.empty() && transfer.median_s > 0;
    const bool have_all = all && all->status.empty() && all->median_s > 0;
    const bool have_duplex = duplex->status.empty() && duplex->median_s > 0;
    for (std::size_t k = 0; k < batcheig_rows; ++k) {
        Measurement &m = r.m[k];
        if (!m.status.empty()) continue;
        std::string note = m.host_memory;
        if (k == 0 && o.devices.size() >= 2) note += ", " + std::to_string(o.devices.size()) + " GPUs";
        char b[96];
        if (have_transfer) {
            m.transfer_ratio = m.median_s / transfer.median_s;
            std::snprintf(b, sizeof b, "%.2fx the pinned transfers", m.transfer_ratio);
            append_note(note, b);
        }
        if (k == 0 && have_all && o.devices.size() >= 2) {
            std::snprintf(b, sizeof b, "%.2fx the concurrent transfers on all devices", m.median_s / all->median_s);
            append_note(note, b);
        }
        if (k == 0 && have_duplex) {
            std::snprintf(b, sizeof b, "%.2fx the duplex transfers", m.median_s / duplex->median_s);
            append_note(note, b);
        }
        if (k == 0 && batcheig_rows >= 2 && r.m[1].status.empty() && m.median_s > 0) {
            m.gpu_scaling = r.m[1].median_s / m.median_s;
            std::snprintf(b, sizeof b, "%.2fx the throughput of %s", m.gpu_scaling, r.m[1].impl.c_str());
            append_note(note, b);
        }
        if (!m.note.empty()) append_note(note, m.note);
        m.note = note;
    }
    r.m.insert(r.m.begin() + (std::ptrdiff_t)batcheig_rows, transfer);
    std::size_t at = batcheig_rows + 1;
    if (all) r.m.insert(r.m.begin() + (std::ptrdiff_t)at++, *all);
    r.m.insert(r.m.begin() + (std::ptrdiff_t)at, *duplex);
}

}  // namespace bench
