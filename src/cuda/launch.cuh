// Launch plumbing shared by the CUDA kernels of every routine: device
// limits, the opt-in for large dynamic shared memory, launch sizes and the
// alignment of device buffers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <type_traits>
#include <unordered_map>

#include "batcheig.h"
#include "cuda/cuda_check.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

// Static shared memory of the block-team kernels (BlockTeam's reduction
// slots, cuda/team.cuh). It counts against the same per-block limit as a
// problem's dynamic shared memory, so a shared-memory variant claims order n
// while the problem's bytes plus these fit in shared_optin_bytes().
inline constexpr std::size_t kTeamScratchBytes = 32 * sizeof(unsigned long long);

// Shared memory the driver reserves per resident block (1 KB on sm_80/sm_90).
inline constexpr std::size_t kDriverSharedBytes = 1024;

// Matrices per launch (grid size limits and 32-bit block indices).
inline constexpr std::int64_t kLaunchMatrices = std::int64_t(1) << 24;

// Runs launch(b0, count) over the batch in pieces of at most
// kLaunchMatrices matrices [b0, b0 + count), checking each launch (and the
// cudaError_t that launch returns, if it returns one); the first error ends
// the loop.
template <class Launch>
batcheigStatus_t launch_pieces(std::int64_t batch, Launch &&launch) {
    for (std::int64_t b0 = 0; b0 < batch; b0 += kLaunchMatrices) {
        const std::int64_t count = batch - b0 < kLaunchMatrices ? batch - b0 : kLaunchMatrices;
        if constexpr (std::is_same_v<decltype(launch(b0, count)), cudaError_t>) BATCHEIG_CUDA_TRY(launch(b0, count));
        else launch(b0, count);
        BATCHEIG_CUDA_CHECK_LAUNCH();
    }
    return BATCHEIG_STATUS_SUCCESS;
}

// An attribute of the current device (0 when it cannot be read).
inline int device_attribute(cudaDeviceAttr attr) {
    int dev = 0, value = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&value, attr, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return value;
}

// Dynamic shared memory one block may opt in to.
inline int shared_optin_bytes() { return device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin); }

// Shared memory of one SM (all resident blocks together).
inline int shared_per_multiprocessor() { return device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor); }

inline int multiprocessors() {
    const int sms = device_attribute(cudaDevAttrMultiProcessorCount);
    return sms > 0 ? sms : 1;
}

// Most static shared memory of a kernel launched through allow_shared():
// kTeamScratchBytes for the block teams, 512 bytes for the cluster Jacobi
// kernel (syevj_cluster.cuh, which asserts it).
inline constexpr std::size_t kStaticSharedMax = 512;
static_assert(kTeamScratchBytes <= kStaticSharedMax, "block-team scratch within the static bound");

// Let kernel k use `bytes` of dynamic shared memory. A kernel must opt in
// beyond 48 KB of static plus dynamic shared memory, so the test adds the
// bound on its static shared memory: a dynamic size just under 48 KB
// failed to launch without it (complex float geev, block variant with
// vectors, n = 55: 49 064 bytes dynamic and 256 static). Below the
// threshold no API call is made. Beyond it the kernel is opted in to the
// most it can have (the device's opt-in limit less its static shared
// memory), not to `bytes`: the attribute belongs to the kernel, so a call
// that set it to its own size could lower it under another host thread's
// launch of the same kernel with more. Opting in beyond what a launch needs
// changes nothing else (the team kernels have always been opted in to the
// limit, teams_per_block below).
//
// The attribute is read first (it is per device and survives between
// calls), so only the first call on a device sets it: the attribute call
// cost microseconds of host time on every launch, which a small batch
// (a few microseconds of GPU work) noticed.
template <class Kernel>
batcheigStatus_t allow_shared(Kernel k, std::size_t bytes) {
    if (bytes + kStaticSharedMax <= 48 * 1024) return BATCHEIG_STATUS_SUCCESS;
    cudaFuncAttributes attr{};
    BATCHEIG_CUDA_TRY(cudaFuncGetAttributes(&attr, k));
    if (attr.maxDynamicSharedSizeBytes >= 0 && std::size_t(attr.maxDynamicSharedSizeBytes) >= bytes)
        return BATCHEIG_STATUS_SUCCESS;
    const long long most = static_cast<long long>(shared_optin_bytes()) - static_cast<long long>(attr.sharedSizeBytes);
    // More than the most: the attribute call fails, as it always did.
    const long long want = most > static_cast<long long>(bytes) ? most : static_cast<long long>(bytes);
    BATCHEIG_CUDA_TRY(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(want)));
    return BATCHEIG_STATUS_SUCCESS;
}

// Among 256/P, 128/P, ..., 1 teams of P threads with `slice` bytes each
// (within the per-block limit cap), the count that the occupancy calculator
// keeps the most of resident per SM; 0 when none fits. With `uneven` (the
// matrices' work differs, as a QR iteration's does), the smallest block of
// at least one warp that keeps plan::tuning::cuda_team_uneven_resident_pct
// percent of that most resident (the measurements are there). blocks: the
// chosen block's resident count per SM.
template <class Kernel>
int occupancy_best_teams(Kernel k, int P, std::size_t slice, std::size_t cap, bool uneven, int &blocks) {
    constexpr int kMaxChoices = 9;  // 256/P, ..., 1 for P >= 2
    int counts[kMaxChoices] = {}, resident[kMaxChoices] = {};
    int choices = 0, best = 0;
    blocks = 0;
    for (int t = 256 / P; t >= 1 && choices < kMaxChoices; t /= 2) {
        const std::size_t bytes = std::size_t(t) * slice;
        if (bytes > cap) continue;
        int per_sm = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, t * P, bytes) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        counts[choices] = t;
        resident[choices] = per_sm * t;
        if (resident[choices] > resident[best]) best = choices;
        ++choices;
    }
    if (choices == 0 || resident[best] == 0) return 0;
    int pick = best;
    if (uneven)
        for (int c = 0; c < choices; ++c)
            if (counts[c] * P >= 32 && 100 * resident[c] >= plan::tuning::cuda_team_uneven_resident_pct * resident[best] &&
                counts[c] < counts[pick])
                pick = c;
    blocks = resident[pick] / counts[pick];
    return counts[pick];
}

// The occupancy-best teams per block of team kernels, by kernel, device,
// lanes per team and shared-memory slice (teams_per_block): the occupancy
// calculator's answer depends on nothing else, and asking it (up to eight
// times per launch) cost more host time than a small batch's kernel. One
// table for the library; host threads may launch at once, so a mutex
// guards it (never held across a CUDA call).
class TeamsCache {
public:
    struct Key {
        const void *kernel;
        int device, lanes;
        std::size_t slice;
        bool uneven;
        bool operator==(const Key &o) const {
            return kernel == o.kernel && device == o.device && lanes == o.lanes && slice == o.slice &&
                   uneven == o.uneven;
        }
    };
    // teams per block, and such blocks resident per SM
    struct Value {
        int teams, blocks;
    };
    static bool find(const Key &k, Value &v) {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto it = entries_.find(k);
        if (it == entries_.end()) return false;
        v = it->second;
        return true;
    }
    static void store(const Key &k, Value v) {
        const std::lock_guard<std::mutex> lock(mutex_);
        entries_.emplace(k, v);
    }

private:
    // One entry per kernel, device, lane count and slice in use (the slice
    // follows n, so a program sweeping n adds one per size).
    struct Hash {
        std::size_t operator()(const Key &k) const {
            std::size_t h = std::hash<const void *>()(k.kernel);
            for (const std::size_t v : {std::size_t(k.device), std::size_t(k.lanes), k.slice, std::size_t(k.uneven)})
                h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
            return h;
        }
    };
    static inline std::mutex mutex_;
    static inline std::unordered_map<Key, Value, Hash> entries_;
};

// Teams per block of a team kernel k whose blocks hold `teams` teams of P
// threads, each team with `slice` bytes of dynamic shared memory: among
// 256/P, 128/P, ..., 1 teams (within the per-block limit), the count that
// keeps the most teams resident on an SM by the occupancy calculator
// (shared memory, registers, threads and blocks per SM, so that a block of
// many teams does not leave most of an SM's shared memory unused: e.g. 32
// teams of 3.7 KB fit once in 228 KB, 8 teams seven times); then few enough
// that a small batch still spreads over every SM (two blocks per SM at
// least, while teams allow). With `uneven`, smaller blocks within 5 % of
// the most resident (occupancy_best_teams). 0 when no block of one team
// fits. Opts k in to the largest dynamic shared memory. resident_blocks
// (if given): how many blocks of that size an SM keeps resident (for a
// grid of resident blocks; 0 when the batch made the blocks smaller).
// (Spreading small batches further, to 4, 8 or 16 blocks per SM, i.e.
// fewer matrices per warp: at most 5-10 % faster for some geev sizes at
// batches of 4 096-16 384 and slower for others, e.g. double n = 8 with
// 41 667 matrices 0.269 -> 0.386 ms at 8 per SM; H200, docs/performance.md,
// sessions 62 and 63.)
template <class Kernel>
int teams_per_block(Kernel k, int P, std::size_t slice, std::int64_t batch, bool uneven,
                    int *resident_blocks = nullptr) {
    const std::size_t cap = std::size_t(shared_optin_bytes());
    if (allow_shared(k, cap) != BATCHEIG_STATUS_SUCCESS) return 0;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        device = -1;
    }
    const TeamsCache::Key key{reinterpret_cast<const void *>(k), device, P, slice, uneven};
    TeamsCache::Value v{0, 0};
    if (device < 0 || !TeamsCache::find(key, v)) {
        v.teams = occupancy_best_teams(k, P, slice, cap, uneven, v.blocks);
        if (device >= 0) TeamsCache::store(key, v);
    }
    int teams = v.teams;
    const std::int64_t spread = 2 * std::int64_t(multiprocessors());
    while (teams > 1 && (batch + teams - 1) / teams < spread) teams /= 2;
    if (resident_blocks) *resident_blocks = teams == v.teams ? v.blocks : 0;
    return teams;
}

// Parts of a kernel's shared-memory layout start on 16-byte boundaries.
__host__ __device__ constexpr std::size_t round16(std::size_t b) { return (b + 15) / 16 * 16; }

// Device buffers carved from one allocation start on 256-byte boundaries.
inline std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

}  // namespace batcheig::cuda
