// batcheig_stream_trace: a timeline of a host-array geev call on one or
// more GPUs, to see where a streaming pipeline spends its time.
//
// It times, in one process on the same pinned arrays (double, eigenvalues
// only, uniform [-1, 1] entries):
//   lib   the library's own host-array call (batcheigDgeevBatched on pinned
//         arrays, batcheigSetDevices), wall clock;
//   bare  the bytes in, then out, on every device at once (wall clock);
//   own   a copy of the library's pipeline (src/cuda/streaming.cpp) written
//         with the public API: per device `streams` slots, each a stream, a
//         handle on it and device buffers for one chunk; one host thread
//         enqueues H2D, the device-array call and D2H per chunk, and gives a
//         slot its next chunk when its previous one is done. CUDA events
//         around every step give each chunk's timeline per device.
// Pipeline options of `own`:
//   --h2d-first   the first round enqueues every slot's copy in before any
//                 slot's kernels and copies out;
//   --schedules K1[/K2],...  chunk schedules compared in turn within each
//                 rep: the last K1 chunks halved, then the last K2 of those
//                 halved again (0: the library's uniform chunks); the tail
//                 after the last copy in is then shorter. An item
//                 tS1/S2/... instead gives each device last chunks of S1
//                 matrices, then S2, ..., after the bulk of the batch cut by
//                 the library's rule; rD1/D2/... the same with the
//                 library's uniform chunk divided by D1, D2, ...;
//   --stagger     the first round enqueues each device's first copy in
//                 before the rest of any device's first chunk, so that no
//                 device's copies wait for another's enqueues;
// usage: batcheig_stream_trace [--n N] [--batch B] [--devices 0,1]
//          [--streams S] [--chunk C] [--reps R] [--h2d-first] [--stagger] [--schedules L]
//          [--trace]  (print the last `own` rep's chunk table)
// Built on request: ninja -C build/release batcheig_stream_trace.
#include <batcheig.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

namespace {

#define CK(x)                                                                                 \
    do {                                                                                      \
        cudaError_t e_ = (x);                                                                 \
        if (e_ != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            std::exit(1);                                                                     \
        }                                                                                     \
    } while (0)
#define BK(x)                                                                        \
    do {                                                                             \
        batcheigStatus_t s_ = (x);                                                   \
        if (s_ != BATCHEIG_STATUS_SUCCESS) {                                         \
            std::fprintf(stderr, "%s:%d %s: status %d, CUDA %s\n", __FILE__, __LINE__, #x, int(s_), \
                         cudaGetErrorString(cudaGetLastError()));                      \
            std::exit(1);                                                            \
        }                                                                            \
    } while (0)

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct Arrays {
    int n = 0;
    std::int64_t batch = 0;
    double *a = nullptr, *wr = nullptr, *wi = nullptr;
    int *info = nullptr;
};

struct Chunk {
    std::int64_t b0 = 0, count = 0;
    int device = -1;
    double enq = 0, seen = 0;   // host ms: enqueued, found done
    double t[4] = {};           // device ms from its start: before H2D, after H2D, after compute, after D2H
    cudaEvent_t ev[4] = {};
};

struct Slot {
    cudaStream_t stream = nullptr;
    batcheigHandle_t handle = nullptr;
    double *a = nullptr, *wr = nullptr, *wi = nullptr;
    int *info = nullptr;
    void *work = nullptr;
    std::size_t lwork = 0;
};

struct Dev {
    int id = 0;
    std::vector<Slot> slots;
    std::vector<std::int64_t> busy;  // chunk index per slot
    std::deque<int> order;
    cudaEvent_t start = nullptr;
};

struct Options {
    int n = 5;
    std::int64_t batch = 500000;
    std::vector<int> devices{0};
    int streams = 3;
    std::int64_t chunk = 0;
    int reps = 5;
    bool h2d_first = false, stagger = false, trace = false;
    struct Schedule {
        std::string label = "0/0";
        int k1 = 0, k2 = 0;               // cut()'s halvings
        std::vector<std::int64_t> tail;   // or each device's last chunks
        bool relative = false;            // tail holds divisors of the library's chunk
    };
    std::vector<Schedule> schedules{Schedule{}};
};

// Splits the last `k` chunks of v in two.
std::vector<Chunk> halve_tail(const std::vector<Chunk> &v, int k) {
    std::vector<Chunk> out;
    const int first_split = int(v.size()) - std::min<int>(k, int(v.size()));
    for (int i = 0; i < int(v.size()); ++i) {
        if (i < first_split || v[i].count < 2) {
            out.push_back(v[i]);
            continue;
        }
        const std::int64_t h = v[i].count / 2;
        out.push_back(Chunk{v[i].b0, h});
        out.push_back(Chunk{v[i].b0 + h, v[i].count - h});
    }
    return out;
}

// Matrices per chunk by the library's rule (whole rounds of one chunk per
// slot) for `batch` matrices, or o.chunk.
std::int64_t rule_chunk(const Options &o, std::int64_t batch, int slots) {
    if (o.chunk > 0) return o.chunk;
    const std::int64_t bytes = 8 * std::int64_t(o.n) * o.n + 16 * o.n + 4;
    std::int64_t c = std::clamp<std::int64_t>((16ll << 20) / bytes, 12288, 65536);
    const std::int64_t rounds = (batch + slots * c - 1) / (slots * c);
    return std::max<std::int64_t>(1, (batch + rounds * slots - 1) / (rounds * slots));
}

// Chunk boundaries: the library's chunks, then the last k1 chunks halved,
// and the last k2 of those halved again; or, with a tail list, the bulk by
// the library's rule and then each device's chunks of the tail's sizes.
std::vector<Chunk> cut(const Options &o, int slots, int ndev, const Options::Schedule &sc) {
    std::vector<Chunk> v;
    std::vector<std::int64_t> tail = sc.tail;
    if (sc.relative) {
        const std::int64_t c0 = rule_chunk(o, o.batch, slots);
        for (std::int64_t &t : tail) t = std::max<std::int64_t>(1, c0 / t);
    }
    std::int64_t rest = o.batch;
    for (std::int64_t t : tail) rest -= t * ndev;
    if (rest < 0) rest = 0;
    const std::int64_t c = rule_chunk(o, std::max<std::int64_t>(rest, 1), slots);
    for (std::int64_t b0 = 0; b0 < rest; b0 += c) v.push_back(Chunk{b0, std::min(c, rest - b0)});
    std::int64_t b0 = rest;
    for (std::int64_t t : tail)
        for (int d = 0; d < ndev && b0 < o.batch; ++d) {
            const std::int64_t cnt = std::min(t, o.batch - b0);
            v.push_back(Chunk{b0, cnt});
            b0 += cnt;
        }
    if (!sc.tail.empty()) return v;
    return halve_tail(halve_tail(v, sc.k1), sc.k2);
}

void enqueue(const Arrays &x, Dev &d, int s, Chunk &ch, Clock::time_point t0, int part) {
    Slot &sl = d.slots[std::size_t(s)];
    const int n = x.n;
    const std::size_t nn = std::size_t(n) * n;
    if (part != 2) {  // 0: all, 1: copy in only, 2: the rest
        ch.enq = ms_since(t0);
        CK(cudaEventRecord(ch.ev[0], sl.stream));
        CK(cudaMemcpyAsync(sl.a, x.a + nn * ch.b0, nn * ch.count * sizeof(double), cudaMemcpyHostToDevice, sl.stream));
        CK(cudaEventRecord(ch.ev[1], sl.stream));
    }
    if (part == 1) return;
    BK(batcheigDgeevBatched(sl.handle, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, sl.a, n, sl.wr, sl.wi,
                            nullptr, 1, nullptr, 1, sl.work, sl.lwork, sl.info, nullptr, int(ch.count)));
    CK(cudaEventRecord(ch.ev[2], sl.stream));
    CK(cudaMemcpyAsync(x.wr + n * ch.b0, sl.wr, std::size_t(n) * ch.count * sizeof(double), cudaMemcpyDeviceToHost, sl.stream));
    CK(cudaMemcpyAsync(x.wi + n * ch.b0, sl.wi, std::size_t(n) * ch.count * sizeof(double), cudaMemcpyDeviceToHost, sl.stream));
    CK(cudaMemcpyAsync(x.info + ch.b0, sl.info, std::size_t(ch.count) * sizeof(int), cudaMemcpyDeviceToHost, sl.stream));
    CK(cudaEventRecord(ch.ev[3], sl.stream));
}

// One pass of the pipeline copy over `cs`; a chunk takes the events of
// the device it lands on (ev[k][c]: chunk c's events on device k).
double run_own(const Options &o, const Arrays &x, std::vector<Dev> &devs, std::vector<Chunk> &cs,
               const std::vector<std::vector<std::array<cudaEvent_t, 4>>> &ev) {
    const Clock::time_point t0 = Clock::now();
    for (Dev &d : devs) {
        CK(cudaSetDevice(d.id));
        CK(cudaEventRecord(d.start, d.slots[0].stream));
        d.busy.assign(d.slots.size(), -1);
        d.order.clear();
    }
    std::int64_t next = 0;
    const std::int64_t total = std::int64_t(cs.size());
    auto take = [&](std::size_t k, int s, int part) {
        Dev &d = devs[k];
        CK(cudaSetDevice(d.id));
        Chunk &ch = cs[std::size_t(next)];
        for (int e = 0; e < 4; ++e) ch.ev[e] = ev[k][std::size_t(next)][std::size_t(e)];
        ch.device = int(k);
        d.busy[std::size_t(s)] = next;
        d.order.push_back(s);
        enqueue(x, d, s, ch, t0, part);
        ++next;
    };
    std::vector<std::pair<std::size_t, int>> first;
    auto rest_of = [&](std::size_t k, int s) {
        Dev &d = devs[k];
        CK(cudaSetDevice(d.id));
        enqueue(x, d, s, cs[std::size_t(d.busy[std::size_t(s)])], t0, 2);
    };
    for (int s = 0; s < o.streams; ++s) {
        const bool split = o.h2d_first || (o.stagger && s == 0);
        std::vector<std::pair<std::size_t, int>> round;
        for (std::size_t k = 0; k < devs.size() && next < total; ++k) {
            take(k, s, split ? 1 : 0);
            round.push_back({k, s});
        }
        if (o.h2d_first) first.insert(first.end(), round.begin(), round.end());
        else if (split)
            for (auto [k, t] : round) rest_of(k, t);
    }
    for (auto [k, s] : first) rest_of(k, s);
    for (;;) {
        bool any = false;
        for (std::size_t k = 0; k < devs.size(); ++k) {
            Dev &d = devs[k];
            if (d.order.empty()) continue;
            any = true;
            const int s = d.order.front();
            const cudaError_t q = cudaStreamQuery(d.slots[std::size_t(s)].stream);
            if (q == cudaErrorNotReady) continue;
            CK(q);
            cs[std::size_t(d.busy[std::size_t(s)])].seen = ms_since(t0);
            d.order.pop_front();
            d.busy[std::size_t(s)] = -1;
            if (next < total) take(k, s, 0);
        }
        if (!any) break;
    }
    const double wall = ms_since(t0);
    for (Chunk &ch : cs)
        for (int e = 0; e < 4; ++e) {
            float f = 0;
            CK(cudaEventElapsedTime(&f, devs[std::size_t(ch.device)].start, ch.ev[e]));
            ch.t[e] = f;
        }
    return wall;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto val = [&] { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--n") o.n = std::atoi(val());
        else if (a == "--batch") o.batch = std::atoll(val());
        else if (a == "--streams") o.streams = std::atoi(val());
        else if (a == "--chunk") o.chunk = std::atoll(val());
        else if (a == "--reps") o.reps = std::atoi(val());
        else if (a == "--schedules") {
            // "K1[/K2],K1[/K2],...": each schedule halves the last K1 chunks, then the last K2 again.
            o.schedules.clear();
            std::string t = val();
            for (std::size_t p = 0; p < t.size();) {
                const std::size_t q = std::min(t.find(',', p), t.size());
                const std::string item = t.substr(p, q - p);
                Options::Schedule sc;
                sc.label = item;
                if (!item.empty() && (item[0] == 't' || item[0] == 'r')) {
                    sc.relative = item[0] == 'r';
                    for (std::size_t u = 1; u < item.size();) {
                        const std::size_t w = std::min(item.find('/', u), item.size());
                        sc.tail.push_back(std::atoll(item.substr(u, w - u).c_str()));
                        u = w + 1;
                    }
                } else {
                    const std::size_t sl = item.find('/');
                    sc.k1 = std::atoi(item.substr(0, sl).c_str());
                    sc.k2 = sl == std::string::npos ? 0 : std::atoi(item.substr(sl + 1).c_str());
                }
                o.schedules.push_back(sc);
                p = q + 1;
            }
        }
        else if (a == "--h2d-first") o.h2d_first = true;
        else if (a == "--stagger") o.stagger = true;
        else if (a == "--trace") o.trace = true;
        else if (a == "--devices") {
            o.devices.clear();
            std::string s = val();
            for (std::size_t p = 0; p < s.size();) {
                const std::size_t q = s.find(',', p);
                o.devices.push_back(std::atoi(s.substr(p, q - p).c_str()));
                p = q == std::string::npos ? s.size() : q + 1;
            }
        } else {
            std::fprintf(stderr, "unknown option %s (see the header of stream_trace.cpp)\n", a.c_str());
            return 2;
        }
    }
    const int n = o.n;
    const std::size_t nn = std::size_t(n) * n;
    Arrays x;
    x.n = n;
    x.batch = o.batch;
    CK(cudaSetDevice(o.devices[0]));
    CK(cudaMallocHost(&x.a, nn * o.batch * sizeof(double)));
    CK(cudaMallocHost(&x.wr, std::size_t(n) * o.batch * sizeof(double)));
    CK(cudaMallocHost(&x.wi, std::size_t(n) * o.batch * sizeof(double)));
    CK(cudaMallocHost(&x.info, o.batch * sizeof(int)));
    std::vector<double> a0(nn * o.batch);
    {
        std::mt19937_64 g(12345);
        std::uniform_real_distribution<double> u(-1, 1);
        for (double &v : a0) v = u(g);
    }
    const int ndev = int(o.devices.size());

    // The library's call.
    batcheigHandle_t lib = nullptr;
    BK(batcheigCreate(&lib));
    BK(batcheigSetDevices(lib, ndev, o.devices.data()));
    std::vector<double> t_lib;
    std::size_t lib_lwork = 0;
    BK(batcheigDgeevBatched_bufferSize(lib, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, x.a, n, x.wr,
                                       x.wi, nullptr, 1, nullptr, 1, &lib_lwork, nullptr, int(o.batch)));
    std::vector<unsigned char> lib_work(std::max<std::size_t>(lib_lwork, 1));
    for (int r = 0; r <= o.reps; ++r) {
        std::memcpy(x.a, a0.data(), a0.size() * sizeof(double));
        const Clock::time_point t0 = Clock::now();
        const batcheigStatus_t st =
            batcheigDgeevBatched(lib, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, x.a, n, x.wr, x.wi,
                                 nullptr, 1, nullptr, 1, lib_work.data(), lib_lwork, x.info, nullptr, int(o.batch));
        if (st != BATCHEIG_STATUS_SUCCESS) {
            std::printf("library call: status %d (%s), CUDA: %s\n", int(st), batcheigGetStatusString(st),
                        cudaGetErrorString(cudaGetLastError()));
            t_lib.assign(1, 0.0);
            break;
        }
        if (r > 0) t_lib.push_back(ms_since(t0));
    }
    std::vector<double> lib_wr(x.wr, x.wr + std::size_t(n) * o.batch);

    // The pipeline copy.
    std::vector<Dev> devs(static_cast<std::size_t>(ndev));
    const std::size_t nsch = o.schedules.size();
    std::vector<std::vector<Chunk>> sched(nsch);
    std::int64_t cmax = 0;
    std::size_t most = 0;
    for (std::size_t q = 0; q < nsch; ++q) {
        sched[q] = cut(o, o.streams * ndev, ndev, o.schedules[q]);
        most = std::max(most, sched[q].size());
        for (const Chunk &c : sched[q]) cmax = std::max(cmax, c.count);
    }
    for (int k = 0; k < ndev; ++k) {
        Dev &d = devs[std::size_t(k)];
        d.id = o.devices[std::size_t(k)];
        CK(cudaSetDevice(d.id));
        CK(cudaEventCreate(&d.start));
        d.slots.resize(std::size_t(o.streams));
        for (Slot &s : d.slots) {
            CK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
            BK(batcheigCreate(&s.handle));
            BK(batcheigSetStream(s.handle, s.stream));
            CK(cudaMalloc(&s.a, nn * cmax * sizeof(double)));
            CK(cudaMalloc(&s.wr, std::size_t(n) * cmax * sizeof(double)));
            CK(cudaMalloc(&s.wi, std::size_t(n) * cmax * sizeof(double)));
            CK(cudaMalloc(&s.info, cmax * sizeof(int)));
            BK(batcheigDgeevBatched_bufferSize(s.handle, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, s.a,
                                               n, s.wr, s.wi, nullptr, 1, nullptr, 1, &s.lwork, nullptr, int(cmax)));
            if (s.lwork) CK(cudaMalloc(&s.work, s.lwork));
        }
    }
    std::vector<std::vector<std::array<cudaEvent_t, 4>>> ev(static_cast<std::size_t>(ndev),
                                                           std::vector<std::array<cudaEvent_t, 4>>(most));
    for (int k = 0; k < ndev; ++k) {
        CK(cudaSetDevice(devs[std::size_t(k)].id));
        for (auto &four : ev[std::size_t(k)])
            for (cudaEvent_t &e : four) CK(cudaEventCreate(&e));
    }
    // Every schedule once per rep, in turn, so that drifts of the host hit them alike.
    std::vector<std::vector<double>> t_own(nsch);
    for (int r = 0; r <= o.reps; ++r)
        for (std::size_t q = 0; q < nsch; ++q) {
            std::memcpy(x.a, a0.data(), a0.size() * sizeof(double));
            std::vector<Chunk> cs = sched[q];
            const double wall = run_own(o, x, devs, cs, ev);
            if (r > 0) t_own[q].push_back(wall);
            if (r == o.reps) sched[q] = cs;
        }
    std::size_t mism = 0;
    for (std::int64_t b = 0; b < n * o.batch; ++b) mism += std::memcmp(&lib_wr[std::size_t(b)], &x.wr[b], sizeof(double)) != 0;

    // Bare transfers: each device's share in, then out, all devices at once.
    std::vector<double> t_bare;
    {
        std::vector<cudaStream_t> st(static_cast<std::size_t>(ndev));
        std::vector<double *> da(static_cast<std::size_t>(ndev));
        std::vector<double *> dw(static_cast<std::size_t>(ndev));
        const std::int64_t share = (o.batch + ndev - 1) / ndev;
        for (int k = 0; k < ndev; ++k) {
            CK(cudaSetDevice(o.devices[std::size_t(k)]));
            CK(cudaStreamCreateWithFlags(&st[std::size_t(k)], cudaStreamNonBlocking));
            CK(cudaMalloc(&da[std::size_t(k)], nn * share * sizeof(double)));
            CK(cudaMalloc(&dw[std::size_t(k)], share * (2 * n * sizeof(double) + sizeof(int))));
        }
        for (int r = 0; r <= o.reps; ++r) {
            const Clock::time_point t0 = Clock::now();
            for (int k = 0; k < ndev; ++k) {
                const std::int64_t b0 = k * share, cnt = std::min(share, o.batch - b0);
                CK(cudaSetDevice(o.devices[std::size_t(k)]));
                cudaStream_t s = st[std::size_t(k)];
                CK(cudaMemcpyAsync(da[std::size_t(k)], x.a + nn * b0, nn * cnt * sizeof(double), cudaMemcpyHostToDevice, s));
                CK(cudaMemcpyAsync(x.wr + n * b0, dw[std::size_t(k)], n * cnt * sizeof(double), cudaMemcpyDeviceToHost, s));
                CK(cudaMemcpyAsync(x.wi + n * b0, dw[std::size_t(k)], n * cnt * sizeof(double), cudaMemcpyDeviceToHost, s));
                CK(cudaMemcpyAsync(x.info + b0, dw[std::size_t(k)], cnt * sizeof(int), cudaMemcpyDeviceToHost, s));
            }
            for (int k = 0; k < ndev; ++k) CK(cudaStreamSynchronize(st[std::size_t(k)]));
            if (r > 0) t_bare.push_back(ms_since(t0));
        }
    }

    std::printf("n %d batch %lld devices %d streams %d largest chunk %lld h2d_first %d stagger %d; lib %.3f ms, bare %.3f ms "
                "(medians of %d); the last schedule's wr against lib: %zu mismatches\n",
                n, (long long)o.batch, ndev, o.streams, (long long)cmax, int(o.h2d_first), int(o.stagger), median(t_lib), median(t_bare),
                o.reps, mism);
    for (std::size_t q = 0; q < nsch; ++q)
        std::printf("schedule %s: %zu chunks, own %.3f ms (min %.3f), own/bare %.3f\n", o.schedules[q].label.c_str(),
                    sched[q].size(), median(t_own[q]),
                    *std::min_element(t_own[q].begin(), t_own[q].end()), median(t_own[q]) / median(t_bare));
    if (o.trace)
        for (std::size_t q = 0; q < nsch; ++q) {
            std::printf("schedule %s, last rep: chunk dev count enq_host seen_host | h2d_start h2d_end "
                        "compute_end d2h_end (device ms)\n", o.schedules[q].label.c_str());
            for (std::size_t c = 0; c < sched[q].size(); ++c) {
                const Chunk &ch = sched[q][c];
                std::printf("%5zu %3d %6lld %8.3f %8.3f | %8.3f %8.3f %8.3f %8.3f\n", c, ch.device,
                            (long long)ch.count, ch.enq, ch.seen, ch.t[0], ch.t[1], ch.t[2], ch.t[3]);
            }
        }
    return 0;
}
