// batcheig_zero_copy_probe: can the kernels read host-resident matrices
// directly over the bus (no staging copies, no chunk pipeline) as fast as
// the streaming pipeline moves them?
//
// In one process, on the same matrices (double, eigenvalues only, uniform
// [-1, 1] entries), each rep times in turn (wall clock):
//   lib-N   the library's host-array call on pinned arrays, on all the
//           given devices (batcheigSetDevices);
//   lib-1   the same on the first device alone;
//   zc-N    the device-array call on managed arrays kept in host memory
//           (preferred location: the host; mapped for every device, so the
//           kernels read A and write the results across the bus without
//           page migration), the batch split evenly over the devices, one
//           handle and stream per device, all enqueued before any wait;
//   zc-1    the same on the first device alone.
// The managed arrays count as device memory for the library
// (cuda/device.cu, is_device_pointer), so zc runs the device-array kernels
// unchanged. Results of zc are compared bitwise with lib's.
//
// usage: batcheig_zero_copy_probe [--n N] [--batch B] [--devices 0,1] [--reps R]
// Built on request: ninja -C build/release batcheig_zero_copy_probe.
#include <batcheig.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "batcheig_session.hpp"
#include "bench_common.hpp"
#include "cuda_util.hpp"

namespace {

using bench::check_batcheig;
using bench::cuda::check;

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Arrays {
    double *a = nullptr, *wr = nullptr, *wi = nullptr;
    int *info = nullptr;
};

// The probe; errors throw (bench::cuda::check, bench::check_batcheig).
int probe(int argc, char **argv) {
    int n = 5, reps = 9;
    std::int64_t batch = 500000;
    std::vector<int> devices{0, 1};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto val = [&] { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--n")
            n = std::atoi(val());
        else if (a == "--batch")
            batch = std::atoll(val());
        else if (a == "--reps")
            reps = std::atoi(val());
        else if (a == "--devices")
            devices = bench::parse_list(val(), "--devices", 0);
        else {
            std::fprintf(stderr, "unknown option %s (see the header of zero_copy_probe.cpp)\n", a.c_str());
            return 2;
        }
    }
    const int ndev = int(devices.size());
    const std::size_t nn = std::size_t(n) * n;
    std::vector<double> a0(nn * std::size_t(batch));
    {
        std::mt19937_64 g(12345);
        std::uniform_real_distribution<double> u(-1, 1);
        for (double &v : a0)
            v = u(g);
    }

    // Pinned arrays for the library's host-array call.
    check(cudaSetDevice(devices[0]), "cudaSetDevice");
    Arrays pin;
    check(cudaMallocHost(&pin.a, nn * batch * sizeof(double)), "cudaMallocHost");
    check(cudaMallocHost(&pin.wr, std::size_t(n) * batch * sizeof(double)), "cudaMallocHost");
    check(cudaMallocHost(&pin.wi, std::size_t(n) * batch * sizeof(double)), "cudaMallocHost");
    check(cudaMallocHost(&pin.info, batch * sizeof(int)), "cudaMallocHost");

    // Managed arrays kept in host memory, mapped for every device.
    Arrays zc;
    auto managed = [&](void **p, std::size_t bytes) {
        check(cudaMallocManaged(p, bytes), "cudaMallocManaged");
        cudaMemLocation host{};
        host.type = cudaMemLocationTypeHost;
        check(cudaMemAdvise(*p, bytes, cudaMemAdviseSetPreferredLocation, host), "cudaMemAdvise");
        for (int d : devices) {
            cudaMemLocation dev{};
            dev.type = cudaMemLocationTypeDevice;
            dev.id = d;
            check(cudaMemAdvise(*p, bytes, cudaMemAdviseSetAccessedBy, dev), "cudaMemAdvise");
        }
        std::memset(*p, 0, bytes);
    };
    managed(reinterpret_cast<void **>(&zc.a), nn * batch * sizeof(double));
    managed(reinterpret_cast<void **>(&zc.wr), std::size_t(n) * batch * sizeof(double));
    managed(reinterpret_cast<void **>(&zc.wi), std::size_t(n) * batch * sizeof(double));
    managed(reinterpret_cast<void **>(&zc.info), batch * sizeof(int));

    // Handles: one for the library's calls on all devices, one for device
    // 0 alone, one per device (with its own stream) for zc.
    batcheigHandle_t lib_n = nullptr, lib_1 = nullptr;
    check_batcheig(batcheigCreate(&lib_n), "batcheigCreate");
    check_batcheig(batcheigSetDevices(lib_n, ndev, devices.data()), "batcheigSetDevices");
    check_batcheig(batcheigCreate(&lib_1), "batcheigCreate");
    std::vector<batcheigHandle_t> hz(static_cast<std::size_t>(ndev));
    std::vector<cudaStream_t> sz(static_cast<std::size_t>(ndev));
    std::vector<void *> wz(static_cast<std::size_t>(ndev));
    std::vector<std::size_t> lwz(static_cast<std::size_t>(ndev));
    for (int k = 0; k < ndev; ++k) {
        check(cudaSetDevice(devices[std::size_t(k)]), "cudaSetDevice");
        check(cudaStreamCreateWithFlags(&sz[std::size_t(k)], cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
        check_batcheig(batcheigCreate(&hz[std::size_t(k)]), "batcheigCreate");
        check_batcheig(batcheigSetStream(hz[std::size_t(k)], sz[std::size_t(k)]), "batcheigSetStream");
        check_batcheig(batcheigDgeevBatched_bufferSize(hz[std::size_t(k)], BATCHEIG_EIG_MODE_NOVECTOR,
                                                       BATCHEIG_EIG_MODE_NOVECTOR, n, zc.a, n, zc.wr, zc.wi, nullptr, 1,
                                                       nullptr, 1, &lwz[std::size_t(k)], nullptr, int(batch)),
                       "batcheigDgeevBatched_bufferSize");
        check(cudaMalloc(&wz[std::size_t(k)], std::max<std::size_t>(lwz[std::size_t(k)], 1)), "cudaMalloc");
    }
    check(cudaSetDevice(devices[0]), "cudaSetDevice");

    auto lib_call = [&](batcheigHandle_t h) {
        std::memcpy(pin.a, a0.data(), a0.size() * sizeof(double));
        std::size_t lw = 0;
        check_batcheig(
            batcheigDgeevBatched_bufferSize(h, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, pin.a, n,
                                            pin.wr, pin.wi, nullptr, 1, nullptr, 1, &lw, nullptr, int(batch)),
            "batcheigDgeevBatched_bufferSize");
        std::vector<unsigned char> work(std::max<std::size_t>(lw, 1));
        const Clock::time_point t0 = Clock::now();
        check_batcheig(
            batcheigDgeevBatched(h, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, pin.a, n, pin.wr, pin.wi,
                                 nullptr, 1, nullptr, 1, work.data(), lw, pin.info, nullptr, int(batch)),
            "batcheigDgeevBatched");
        return ms_since(t0);
    };
    auto zc_call = [&](int use) {
        std::memcpy(zc.a, a0.data(), a0.size() * sizeof(double));
        const std::int64_t part = (batch + use - 1) / use;
        const Clock::time_point t0 = Clock::now();
        for (int k = 0; k < use; ++k) {
            const std::int64_t b0 = std::int64_t(k) * part, cnt = std::min(part, batch - b0);
            if (cnt <= 0)
                continue;
            check(cudaSetDevice(devices[std::size_t(k)]), "cudaSetDevice");
            check_batcheig(
                batcheigDgeevBatched(hz[std::size_t(k)], BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n,
                                     zc.a + nn * b0, n, zc.wr + n * b0, zc.wi + n * b0, nullptr, 1, nullptr, 1,
                                     wz[std::size_t(k)], lwz[std::size_t(k)], zc.info + b0, nullptr, int(cnt)),
                "batcheigDgeevBatched");
        }
        for (int k = 0; k < use; ++k)
            check(cudaStreamSynchronize(sz[std::size_t(k)]), "cudaStreamSynchronize");
        const double t = ms_since(t0);
        check(cudaSetDevice(devices[0]), "cudaSetDevice");
        return t;
    };
    auto mismatches = [&] {
        std::size_t m = 0;
        for (std::int64_t i = 0; i < std::int64_t(n) * batch; ++i)
            m += std::memcmp(&zc.wr[i], &pin.wr[i], sizeof(double)) != 0 ||
                 std::memcmp(&zc.wi[i], &pin.wi[i], sizeof(double)) != 0;
        for (std::int64_t b = 0; b < batch; ++b)
            m += zc.info[b] != pin.info[b];
        return m;
    };

    std::vector<double> t_lib_n, t_lib_1, t_zc_n, t_zc_1;
    std::size_t mism_n = 0, mism_1 = 0;
    for (int r = 0; r <= reps; ++r) {  // rep 0 warms up
        const double a = lib_call(lib_n);
        const double b = zc_call(ndev);
        if (r == reps)
            mism_n = mismatches();
        const double c = lib_call(lib_1);
        const double d = zc_call(1);
        if (r == reps)
            mism_1 = mismatches();
        if (r > 0) {
            t_lib_n.push_back(a);
            t_zc_n.push_back(b);
            t_lib_1.push_back(c);
            t_zc_1.push_back(d);
        }
    }
    std::printf(
        "n %d batch %lld devices %d, medians of %d, ms: lib-%d %.3f, zc-%d %.3f (mismatches %zu); "
        "lib-1 %.3f, zc-1 %.3f (mismatches %zu); scaling lib %.3f, zc %.3f\n",
        n, (long long)batch, ndev, reps, ndev, median(t_lib_n), ndev, median(t_zc_n), mism_n, median(t_lib_1),
        median(t_zc_1), mism_1, median(t_lib_1) / median(t_lib_n), median(t_zc_1) / median(t_zc_n));
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        return probe(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "batcheig_zero_copy_probe: %s\n", e.what());
        return 1;
    }
}
