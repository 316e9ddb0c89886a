// batcheig_zero_copy_bandwidth: how fast can kernels read pinned host
// memory directly (zero-copy), against cudaMemcpyAsync of the same bytes,
// on one GPU and on several at once?
//
// Each GPU reads its share of `in_mb` MB from one pinned buffer and writes
// `out_frac` of that volume to another pinned buffer, all warps reading
// consecutive 128-byte lines (one line per warp load when `--vec 4`: 32
// lanes x 4 bytes; `--vec 8`: 32 x 8 bytes = 2 lines; `--vec 16`: 4 lines).
// Printed: ms and GB/s of the reads for the kernel, and for the copies
// (in, then out, the same bytes), per configuration.
//
// usage: batcheig_zero_copy_bandwidth [--devices 0,1] [--in-mb 100] [--out-frac 0.42] [--reps 7]
// Built on request: ninja -C build/release batcheig_zero_copy_bandwidth.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "cuda_util.hpp"

using bench::cuda::check;

template <class V>
__global__ void pull(const V *__restrict__ in, std::size_t n_in, V *__restrict__ out, std::size_t n_out, double *sink) {
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    double acc = 0;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n_in; i += stride) {
        const V v = in[i];
        const double *d = reinterpret_cast<const double *>(&v);
        for (int k = 0; k < int(sizeof(V) / 8); ++k)
            acc += d[k];
        if (i < n_out)
            out[i] = v;
    }
    if (acc == 12345.678)
        *sink = acc;  // keeps the loads
}

struct double2a {
    double x, y;
};

using Clock = std::chrono::steady_clock;
static double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The measurement; CUDA errors throw (bench::cuda::check).
static int measure(int argc, char **argv) {
    std::vector<int> devices{0, 1};
    double in_mb = 100, out_frac = 0.42;
    int reps = 7;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto val = [&] { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--in-mb")
            in_mb = std::atof(val());
        else if (a == "--out-frac")
            out_frac = std::atof(val());
        else if (a == "--reps")
            reps = std::atoi(val());
        else if (a == "--devices")
            devices = bench::parse_list(val(), "--devices", 0);
    }
    const std::size_t in_bytes = std::size_t(in_mb * 1e6) / 256 * 256;
    const std::size_t out_bytes = std::size_t(double(in_bytes) * out_frac) / 256 * 256;
    check(cudaSetDevice(devices[0]), "cudaSetDevice");
    char *hin = nullptr, *hout = nullptr;
    check(cudaHostAlloc(reinterpret_cast<void **>(&hin), in_bytes, cudaHostAllocPortable | cudaHostAllocMapped),
          "cudaHostAlloc");
    check(cudaHostAlloc(reinterpret_cast<void **>(&hout), out_bytes, cudaHostAllocPortable | cudaHostAllocMapped),
          "cudaHostAlloc");
    std::memset(hin, 1, in_bytes);
    std::memset(hout, 0, out_bytes);
    const int nd = int(devices.size());
    std::vector<cudaStream_t> st(static_cast<std::size_t>(nd));
    std::vector<char *> din(static_cast<std::size_t>(nd)), dout(static_cast<std::size_t>(nd));
    std::vector<double *> sink(static_cast<std::size_t>(nd));
    std::vector<int> sms(static_cast<std::size_t>(nd));
    for (int k = 0; k < nd; ++k) {
        check(cudaSetDevice(devices[std::size_t(k)]), "cudaSetDevice");
        check(cudaStreamCreateWithFlags(&st[std::size_t(k)], cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
        check(cudaMalloc(&din[std::size_t(k)], in_bytes), "cudaMalloc");
        check(cudaMalloc(&dout[std::size_t(k)], out_bytes), "cudaMalloc");
        check(cudaMalloc(&sink[std::size_t(k)], 8), "cudaMalloc");
        check(cudaDeviceGetAttribute(&sms[std::size_t(k)], cudaDevAttrMultiProcessorCount, devices[std::size_t(k)]),
              "cudaDeviceGetAttribute");
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    for (int use : {1, nd}) {
        const std::size_t part_in = in_bytes / std::size_t(use) / 256 * 256;
        const std::size_t part_out = out_bytes / std::size_t(use) / 256 * 256;
        auto run = [&](auto vtag, int blocks_per_sm, bool write) {
            using V = decltype(vtag);
            std::vector<double> t;
            for (int r = 0; r <= reps; ++r) {
                const Clock::time_point t0 = Clock::now();
                for (int k = 0; k < use; ++k) {
                    check(cudaSetDevice(devices[std::size_t(k)]), "cudaSetDevice");
                    pull<V><<<sms[std::size_t(k)] * blocks_per_sm, 512, 0, st[std::size_t(k)]>>>(
                        reinterpret_cast<const V *>(hin + part_in * k), part_in / sizeof(V),
                        reinterpret_cast<V *>(hout + part_out * k), write ? part_out / sizeof(V) : 0,
                        sink[std::size_t(k)]);
                }
                for (int k = 0; k < use; ++k)
                    check(cudaStreamSynchronize(st[std::size_t(k)]), "cudaStreamSynchronize");
                if (r > 0)
                    t.push_back(ms_since(t0));
            }
            check(cudaGetLastError(), "cudaGetLastError");
            const double m = median(t);
            std::printf("devices %d kernel vec %2zu blocks/SM %d %s: %.3f ms, reads %.1f GB/s per device\n", use,
                        sizeof(V), blocks_per_sm, write ? "read+write" : "read      ", m, part_in / m / 1e6);
        };
        for (bool w : {false, true}) {
            run(double{}, 4, w);
            run(double2a{}, 4, w);
            run(double2a{}, 2, w);
        }
        {  // copies: in then out, and both at once
            std::vector<double> t, tin, td;
            for (int r = 0; r <= reps; ++r) {
                Clock::time_point t0 = Clock::now();
                for (int k = 0; k < use; ++k) {
                    check(cudaSetDevice(devices[std::size_t(k)]), "cudaSetDevice");
                    check(cudaMemcpyAsync(din[std::size_t(k)], hin + part_in * k, part_in, cudaMemcpyHostToDevice,
                                          st[std::size_t(k)]),
                          "cudaMemcpyAsync");
                }
                for (int k = 0; k < use; ++k)
                    check(cudaStreamSynchronize(st[std::size_t(k)]), "cudaStreamSynchronize");
                const double a = ms_since(t0);
                for (int k = 0; k < use; ++k) {
                    check(cudaSetDevice(devices[std::size_t(k)]), "cudaSetDevice");
                    check(cudaMemcpyAsync(hout + part_out * k, dout[std::size_t(k)], part_out, cudaMemcpyDeviceToHost,
                                          st[std::size_t(k)]),
                          "cudaMemcpyAsync");
                }
                for (int k = 0; k < use; ++k)
                    check(cudaStreamSynchronize(st[std::size_t(k)]), "cudaStreamSynchronize");
                const double b = ms_since(t0);
                if (r > 0) {
                    tin.push_back(a);
                    t.push_back(b);
                }
            }
            std::printf("devices %d copies: in %.3f ms (%.1f GB/s per device), in then out %.3f ms\n", use, median(tin),
                        part_in / median(tin) / 1e6, median(t));
        }
        if (nd == 1)
            break;
    }
    return 0;
}

int main(int argc, char **argv) {
    try {
        return measure(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "batcheig_zero_copy_bandwidth: %s\n", e.what());
        return 1;
    }
}
