// Arguments of the streaming API (batcheig.h): batcheigParamsSetStreaming /
// batcheigParamsGetStreaming, batcheigSetDevices / batcheigGetDevices.
//  - streaming params: defaults (0, 0), round trips, chunk < 0 and streams
//    outside 0..16 are INVALID_VALUE and leave the values unchanged, NULL
//    params is NOT_INITIALIZED, the getter accepts NULL output pointers;
//  - a host-backend handle: SetDevices is NOT_SUPPORTED whatever its
//    arguments, GetDevices reports the default (count 0) and checks its
//    arguments in order (capacity 2, devices 3, count 4) writing nothing on
//    failure; streaming params do not change host-backend results;
//  - a CUDA handle (skipped without a usable GPU): SetDevices checks count
//    (2) then devices (3: NULL, an ordinal that does not exist, a duplicate),
//    keeps its list on failure, round-trips in order, and count 0 restores
//    the default.
// No GPU is needed for everything but the last test case, which reports
// itself skipped without one.
#include <climits>
#include <cstring>
#include <vector>

#if BATCHEIG_TEST_HAVE_CUDART
#include <cuda_runtime_api.h>
#endif

#include "catch_compat.hpp"
#include "support/backend.hpp"

using namespace bt;

namespace {

int error_argument(batcheigHandle_t h) {
  int pos = -12345;
  REQUIRE(batcheigGetErrorArgument(h, &pos) == BATCHEIG_STATUS_SUCCESS);
  return pos;
}

/// The handle's device list through GetDevices (count, then the ordinals).
std::vector<int> device_list(batcheigHandle_t h) {
  int count = -1;
  REQUIRE(batcheigGetDevices(h, 0, nullptr, &count) == BATCHEIG_STATUS_SUCCESS);
  REQUIRE(count >= 0);
  std::vector<int> list(static_cast<size_t>(count) + 2, -99);
  int count2 = -1;
  REQUIRE(batcheigGetDevices(h, count, count > 0 ? list.data() : nullptr, &count2) == BATCHEIG_STATUS_SUCCESS);
  REQUIRE(count2 == count);
  // Only the first min(capacity, count) entries are written.
  CHECK(list[static_cast<size_t>(count)] == -99);
  CHECK(list[static_cast<size_t>(count) + 1] == -99);
  list.resize(static_cast<size_t>(count));
  return list;
}

/// Number of CUDA devices, or -1 when the test is built without the CUDA
/// runtime (the ordinals then used are 0 and ones no machine has).
int cuda_device_count() {
#if BATCHEIG_TEST_HAVE_CUDART
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
#else
  return -1;
#endif
}

}  // namespace

TEST_CASE("streaming params: defaults, round trips and invalid values", "[api][params][streaming]") {
  ParamsGuard p;
  int chunk = -7, streams = -7;
  SECTION("defaults are automatic (0, 0)") {
    CHECK(batcheigParamsGetStreaming(p, &chunk, &streams) == BATCHEIG_STATUS_SUCCESS);
    CHECK(chunk == 0);
    CHECK(streams == 0);
  }
  SECTION("round trips") {
    const int valid[][2] = {{7, 2}, {1, 1}, {3, 16}, {0, 5}, {100, 0}, {INT_MAX, 16}, {0, 0}};
    for (const auto &v : valid) {
      INFO("chunk " << v[0] << ", streams " << v[1]);
      CHECK(batcheigParamsSetStreaming(p, v[0], v[1]) == BATCHEIG_STATUS_SUCCESS);
      chunk = streams = -7;
      CHECK(batcheigParamsGetStreaming(p, &chunk, &streams) == BATCHEIG_STATUS_SUCCESS);
      CHECK(chunk == v[0]);
      CHECK(streams == v[1]);
    }
  }
  SECTION("chunk < 0, streams < 0 and streams > 16 are invalid and change nothing") {
    REQUIRE(batcheigParamsSetStreaming(p, 9, 4) == BATCHEIG_STATUS_SUCCESS);
    const int invalid[][2] = {{-1, 2},       {INT_MIN, 2}, {5, -1},  {5, INT_MIN}, {5, 17},
                              {5, INT_MAX}, {-1, -1},     {-3, 17}, {0, 17}};
    for (const auto &v : invalid) {
      INFO("chunk " << v[0] << ", streams " << v[1]);
      CHECK(batcheigParamsSetStreaming(p, v[0], v[1]) == BATCHEIG_STATUS_INVALID_VALUE);
      chunk = streams = -7;
      CHECK(batcheigParamsGetStreaming(p, &chunk, &streams) == BATCHEIG_STATUS_SUCCESS);
      CHECK(chunk == 9);
      CHECK(streams == 4);
    }
  }
  SECTION("the getter accepts NULL for either output") {
    REQUIRE(batcheigParamsSetStreaming(p, 11, 3) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetStreaming(p, nullptr, &streams) == BATCHEIG_STATUS_SUCCESS);
    CHECK(streams == 3);
    CHECK(batcheigParamsGetStreaming(p, &chunk, nullptr) == BATCHEIG_STATUS_SUCCESS);
    CHECK(chunk == 11);
    CHECK(batcheigParamsGetStreaming(p, nullptr, nullptr) == BATCHEIG_STATUS_SUCCESS);
  }
  SECTION("NULL params object") {
    CHECK(batcheigParamsSetStreaming(nullptr, 4, 2) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsSetStreaming(nullptr, -1, 99) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetStreaming(nullptr, &chunk, &streams) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetStreaming(nullptr, nullptr, nullptr) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(chunk == -7);
    CHECK(streams == -7);
  }
  SECTION("params objects are independent") {
    ParamsGuard q;
    REQUIRE(batcheigParamsSetStreaming(p, 13, 6) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetStreaming(q, &chunk, &streams) == BATCHEIG_STATUS_SUCCESS);
    CHECK(chunk == 0);
    CHECK(streams == 0);
  }
}

TEST_CASE("devices: NULL handle", "[api][devices]") {
  const int dev0 = 0;
  int list[2] = {-9, -9}, count = -9;
  CHECK(batcheigSetDevices(nullptr, 1, &dev0) == BATCHEIG_STATUS_NOT_INITIALIZED);
  CHECK(batcheigSetDevices(nullptr, 0, nullptr) == BATCHEIG_STATUS_NOT_INITIALIZED);
  CHECK(batcheigGetDevices(nullptr, 2, list, &count) == BATCHEIG_STATUS_NOT_INITIALIZED);
  CHECK(batcheigGetDevices(nullptr, -1, nullptr, nullptr) == BATCHEIG_STATUS_NOT_INITIALIZED);
  CHECK(count == -9);
  CHECK(list[0] == -9);
}

TEST_CASE("devices: a host-backend handle", "[api][devices]") {
  HandleGuard h;
  REQUIRE(batcheigCreateWithBackend(&h.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);

  SECTION("SetDevices is NOT_SUPPORTED, whatever its arguments") {
    const int one[1] = {0};
    const int two[2] = {0, 1};
    CHECK(batcheigSetDevices(h, 1, one) == BATCHEIG_STATUS_NOT_SUPPORTED);
    CHECK(batcheigSetDevices(h, 2, two) == BATCHEIG_STATUS_NOT_SUPPORTED);
    CHECK(batcheigSetDevices(h, 0, nullptr) == BATCHEIG_STATUS_NOT_SUPPORTED);
    CHECK(batcheigSetDevices(h, -1, nullptr) == BATCHEIG_STATUS_NOT_SUPPORTED);
    CHECK(batcheigSetDevices(h, 1, nullptr) == BATCHEIG_STATUS_NOT_SUPPORTED);
    CHECK(device_list(h).empty());
  }
  SECTION("GetDevices reports the default list (count 0) and writes no ordinal") {
    int list[4] = {-9, -9, -9, -9}, count = -9;
    CHECK(batcheigGetDevices(h, 4, list, &count) == BATCHEIG_STATUS_SUCCESS);
    CHECK(count == 0);
    for (int d : list) CHECK(d == -9);
    count = -9;
    CHECK(batcheigGetDevices(h, 0, nullptr, &count) == BATCHEIG_STATUS_SUCCESS);
    CHECK(count == 0);
    CHECK(error_argument(h) == 0);
  }
  SECTION("GetDevices argument checks, in argument order, writing nothing") {
    int list[2] = {-9, -9}, count = -9;
    struct Case {
      const char *what;
      int capacity;
      int *devices;
      int *count;
      int position;
    };
    const Case cases[] = {
        {"capacity < 0", -1, list, &count, 2},
        {"capacity INT_MIN", INT_MIN, list, &count, 2},
        {"capacity < 0 with NULL devices and NULL count", -1, nullptr, nullptr, 2},
        {"NULL devices with capacity > 0", 1, nullptr, &count, 3},
        {"NULL devices with capacity > 0 and NULL count", 2, nullptr, nullptr, 3},
        {"NULL count", 2, list, nullptr, 4},
        {"NULL count with capacity 0 and NULL devices", 0, nullptr, nullptr, 4},
    };
    for (const Case &c : cases) {
      INFO(c.what);
      CHECK(batcheigGetDevices(h, c.capacity, c.devices, c.count) == BATCHEIG_STATUS_INVALID_VALUE);
      CHECK(error_argument(h) == c.position);
      CHECK(count == -9);
      CHECK(list[0] == -9);
      CHECK(list[1] == -9);
    }
    // A successful call clears the recorded position.
    CHECK(batcheigGetDevices(h, 2, list, &count) == BATCHEIG_STATUS_SUCCESS);
    CHECK(error_argument(h) == 0);
    CHECK(count == 0);
  }
  SECTION("streaming params do not change host-backend results") {
    // Host arrays on the host backend: the chunking options only concern the
    // CUDA backend, so the results are bitwise those of default params.
    const int n = 6, batch = 11;
    std::vector<double> a0(static_cast<size_t>(n) * n * batch);
    unsigned s = 12345u;
    for (double &x : a0) {
      s = s * 1103515245u + 12345u;
      x = static_cast<double>((s >> 8) & 0xffff) / 32768.0 - 1.0;
    }
    auto run = [&](batcheigParams_t p, std::vector<double> &wr, std::vector<double> &wi, std::vector<double> &vr,
                   std::vector<int> &info) {
      std::vector<double> a = a0;
      wr.assign(static_cast<size_t>(n) * batch, 0.0);
      wi.assign(wr.size(), 0.0);
      vr.assign(a0.size(), 0.0);
      info.assign(batch, kInfoSentinel);
      return batcheigDgeevBatched(h, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_VECTOR, n, a.data(), n, wr.data(),
                                  wi.data(), nullptr, 1, vr.data(), n, nullptr, 0, info.data(), p, batch);
    };
    std::vector<double> wr1, wi1, vr1, wr2, wi2, vr2;
    std::vector<int> info1, info2;
    ParamsGuard plain, streaming;
    REQUIRE(batcheigParamsSetStreaming(streaming, 3, 2) == BATCHEIG_STATUS_SUCCESS);
    REQUIRE(run(plain, wr1, wi1, vr1, info1) == BATCHEIG_STATUS_SUCCESS);
    REQUIRE(run(streaming, wr2, wi2, vr2, info2) == BATCHEIG_STATUS_SUCCESS);
    CHECK(info1 == std::vector<int>(batch, 0));
    CHECK(info2 == info1);
    CHECK(std::memcmp(wr1.data(), wr2.data(), wr1.size() * sizeof(double)) == 0);
    CHECK(std::memcmp(wi1.data(), wi2.data(), wi1.size() * sizeof(double)) == 0);
    CHECK(std::memcmp(vr1.data(), vr2.data(), vr1.size() * sizeof(double)) == 0);
  }
}

TEST_CASE("devices: a CUDA handle (argument checks, round trips, default)", "[api][devices][cuda]") {
  HandleGuard h;
  BT_CREATE_HANDLE_OR_SKIP(h, BATCHEIG_BACKEND_CUDA);
  const int ndev = cuda_device_count();  // -1: unknown (built without the CUDA runtime)
  INFO("CUDA devices: " << ndev);
  REQUIRE(ndev != 0);  // a CUDA handle exists, so there is a device

  // Default: count 0.
  CHECK(device_list(h).empty());

  // A valid list, then every failure must leave it as it is.
  const int zero[1] = {0};
  REQUIRE(batcheigSetDevices(h, 1, zero) == BATCHEIG_STATUS_SUCCESS);
  CHECK(error_argument(h) == 0);
  CHECK(device_list(h) == std::vector<int>{0});

  struct Case {
    const char *what;
    int count;
    std::vector<int> devices;  // empty: pass NULL
    int position;
  };
  std::vector<Case> cases = {
      {"count < 0", -1, {0}, 2},
      {"count INT_MIN", INT_MIN, {0}, 2},
      {"count < 0 and NULL devices", -1, {}, 2},
      {"NULL devices with count 1", 1, {}, 3},
      {"NULL devices with count 2", 2, {}, 3},
      {"negative ordinal", 1, {-1}, 3},
      {"ordinal INT_MIN", 1, {INT_MIN}, 3},
      {"ordinal 1 << 20 (does not exist)", 1, {1 << 20}, 3},
      {"ordinal INT_MAX", 1, {INT_MAX}, 3},
      {"duplicate {0, 0}", 2, {0, 0}, 3},
      {"a valid ordinal, then one that does not exist", 2, {0, 1 << 20}, 3},
  };
  if (ndev > 0) {
    cases.push_back({"ordinal == device count (does not exist)", 1, {ndev}, 3});
    cases.push_back({"0 and ordinal == device count", 2, {0, ndev}, 3});
  }
  if (ndev >= 2) {
    cases.push_back({"duplicate {1, 0, 1}", 3, {1, 0, 1}, 3});
    cases.push_back({"duplicate {0, 1, 0}", 3, {0, 1, 0}, 3});
  }
  for (const Case &c : cases) {
    INFO(c.what);
    CHECK(batcheigSetDevices(h, c.count, c.devices.empty() ? nullptr : c.devices.data()) ==
          BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(error_argument(h) == c.position);
    CHECK(device_list(h) == std::vector<int>{0});  // the handle keeps its list
  }

  SECTION("round trips keep the order; GetDevices writes min(capacity, count) ordinals") {
    // Probe a second device through the library when the runtime is not
    // linked (ndev unknown): {0, 1} is accepted exactly when device 1 exists.
    bool two = ndev >= 2;
    if (ndev < 0) {
      const int pair[2] = {0, 1};
      const batcheigStatus_t st = batcheigSetDevices(h, 2, pair);
      CHECK((st == BATCHEIG_STATUS_SUCCESS || st == BATCHEIG_STATUS_INVALID_VALUE));
      two = st == BATCHEIG_STATUS_SUCCESS;
    }
    if (two) {
      const int order[2] = {1, 0};
      REQUIRE(batcheigSetDevices(h, 2, order) == BATCHEIG_STATUS_SUCCESS);
      CHECK(device_list(h) == std::vector<int>{1, 0});
      int list[3] = {-9, -9, -9}, count = -9;
      CHECK(batcheigGetDevices(h, 1, list, &count) == BATCHEIG_STATUS_SUCCESS);
      CHECK(count == 2);
      CHECK(list[0] == 1);
      CHECK(list[1] == -9);
      count = -9;
      CHECK(batcheigGetDevices(h, 0, list, &count) == BATCHEIG_STATUS_SUCCESS);  // capacity 0, non-NULL devices
      CHECK(count == 2);
      CHECK(list[0] == 1);
      const int single[1] = {1};
      REQUIRE(batcheigSetDevices(h, 1, single) == BATCHEIG_STATUS_SUCCESS);
      CHECK(device_list(h) == std::vector<int>{1});
    }
    if (ndev > 2) {
      std::vector<int> all;
      for (int d = ndev - 1; d >= 0; --d) all.push_back(d);
      REQUIRE(batcheigSetDevices(h, ndev, all.data()) == BATCHEIG_STATUS_SUCCESS);
      CHECK(device_list(h) == all);
    }
    REQUIRE(batcheigSetDevices(h, 1, zero) == BATCHEIG_STATUS_SUCCESS);
    int list[3] = {-9, -9, -9}, count = -9;
    CHECK(batcheigGetDevices(h, 3, list, &count) == BATCHEIG_STATUS_SUCCESS);
    CHECK(count == 1);
    CHECK(list[0] == 0);
    CHECK(list[1] == -9);
    CHECK(list[2] == -9);
  }
  SECTION("count 0 restores the default (NULL or non-NULL devices)") {
    CHECK(batcheigSetDevices(h, 0, nullptr) == BATCHEIG_STATUS_SUCCESS);
    CHECK(device_list(h).empty());
    REQUIRE(batcheigSetDevices(h, 1, zero) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigSetDevices(h, 0, zero) == BATCHEIG_STATUS_SUCCESS);
    CHECK(device_list(h).empty());
    CHECK(error_argument(h) == 0);
  }
  SECTION("handles are independent") {
    HandleGuard other;
    REQUIRE(batcheigCreateWithBackend(&other.h, BATCHEIG_BACKEND_CUDA) == BATCHEIG_STATUS_SUCCESS);
    CHECK(device_list(other).empty());
    CHECK(device_list(h) == std::vector<int>{0});
  }
}
