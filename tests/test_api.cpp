// Handle, information and params API (batcheig.h "Handle", "Information",
// "Parameters").
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>

#include "catch_compat.hpp"
#include "support/backend.hpp"
#include "support/c_shims.h"

using namespace bt;

TEST_CASE("handle: create and destroy", "[api][handle]") {
  batcheigHandle_t h = nullptr;
  REQUIRE(batcheigCreate(&h) == BATCHEIG_STATUS_SUCCESS);
  REQUIRE(h != nullptr);
  batcheigBackend_t b = BATCHEIG_BACKEND_AUTO;
  CHECK(batcheigGetBackend(h, &b) == BATCHEIG_STATUS_SUCCESS);
  CHECK(b != BATCHEIG_BACKEND_AUTO);  // "never AUTO"
  CHECK((b == BATCHEIG_BACKEND_HOST || b == BATCHEIG_BACKEND_CUDA));
  CHECK(batcheigDestroy(h) == BATCHEIG_STATUS_SUCCESS);

  CHECK(batcheigDestroy(nullptr) == BATCHEIG_STATUS_SUCCESS);  // NULL accepted
  CHECK(batcheigCreate(nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
  CHECK(batcheigCreateWithBackend(nullptr, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_INVALID_VALUE);
}

TEST_CASE("handle: host backend", "[api][handle]") {
  HandleGuard h;
  REQUIRE(batcheigCreateWithBackend(&h.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);
  REQUIRE(h.h != nullptr);
  batcheigBackend_t b = BATCHEIG_BACKEND_AUTO;
  CHECK(batcheigGetBackend(h, &b) == BATCHEIG_STATUS_SUCCESS);
  CHECK(b == BATCHEIG_BACKEND_HOST);
}

TEST_CASE("handle: unknown backend value is rejected", "[api][handle]") {
  for (int v : {-1, 3, 7, 1000}) {
    INFO("backend value " << v);
    // "set to NULL on failure": pre-fill with a non-NULL bit pattern.
    batcheigHandle_t h = reinterpret_cast<batcheigHandle_t>(static_cast<uintptr_t>(0x10));
    CHECK(bt_c_create_with_backend(&h, v) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(h == nullptr);
    if (h != nullptr && h != reinterpret_cast<batcheigHandle_t>(static_cast<uintptr_t>(0x10))) batcheigDestroy(h);
  }
}

TEST_CASE("handle: CUDA backend is created or reported NOT_SUPPORTED", "[api][handle][cuda]") {
  batcheigHandle_t h = reinterpret_cast<batcheigHandle_t>(static_cast<uintptr_t>(0x10));
  const batcheigStatus_t st = batcheigCreateWithBackend(&h, BATCHEIG_BACKEND_CUDA);
  if (st == BATCHEIG_STATUS_NOT_SUPPORTED) {
    CHECK(h == nullptr);  // "set to NULL on failure"
    BT_SKIP("CUDA backend not available in this build or on this machine");
  }
  REQUIRE(st == BATCHEIG_STATUS_SUCCESS);
  REQUIRE(h != nullptr);
  batcheigBackend_t b = BATCHEIG_BACKEND_AUTO;
  CHECK(batcheigGetBackend(h, &b) == BATCHEIG_STATUS_SUCCESS);
  CHECK(b == BATCHEIG_BACKEND_CUDA);
  CHECK(batcheigDestroy(h) == BATCHEIG_STATUS_SUCCESS);
}

TEST_CASE("handle: stream round trip (host backend records the stream)", "[api][handle]") {
  HandleGuard h;
  REQUIRE(batcheigCreateWithBackend(&h.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);
  batcheigStream_t s = reinterpret_cast<batcheigStream_t>(static_cast<uintptr_t>(0x1));
  CHECK(batcheigGetStream(h, &s) == BATCHEIG_STATUS_SUCCESS);
  CHECK(s == nullptr);  // default stream
  const batcheigStream_t fake = reinterpret_cast<batcheigStream_t>(static_cast<uintptr_t>(0x1234));
  CHECK(batcheigSetStream(h, fake) == BATCHEIG_STATUS_SUCCESS);
  s = nullptr;
  CHECK(batcheigGetStream(h, &s) == BATCHEIG_STATUS_SUCCESS);
  CHECK(s == fake);
  CHECK(batcheigSetStream(h, nullptr) == BATCHEIG_STATUS_SUCCESS);
  CHECK(batcheigGetStream(h, &s) == BATCHEIG_STATUS_SUCCESS);
  CHECK(s == nullptr);
}

TEST_CASE("handle: NULL handle and NULL outputs", "[api][handle]") {
  batcheigStream_t s = nullptr;
  batcheigBackend_t b = BATCHEIG_BACKEND_AUTO;
  int pos = 0;
  CHECK(batcheigSetStream(nullptr, nullptr) == BATCHEIG_STATUS_NOT_INITIALIZED);
  CHECK(batcheigGetStream(nullptr, &s) == BATCHEIG_STATUS_NOT_INITIALIZED);
  CHECK(batcheigGetBackend(nullptr, &b) == BATCHEIG_STATUS_NOT_INITIALIZED);
  CHECK(batcheigGetErrorArgument(nullptr, &pos) == BATCHEIG_STATUS_NOT_INITIALIZED);

  HandleGuard h;
  REQUIRE(batcheigCreateWithBackend(&h.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);
  pos = -1;
  CHECK(batcheigGetErrorArgument(h, &pos) == BATCHEIG_STATUS_SUCCESS);
  CHECK(pos == 0);  // a fresh handle has no error
  // Output pointers are arguments like any other: NULL is invalid.
  CHECK(batcheigGetStream(h, nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
  CHECK(batcheigGetBackend(h, nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
  CHECK(batcheigGetErrorArgument(h, nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
}

TEST_CASE("handle: distinct handles are independent", "[api][handle]") {
  HandleGuard h1, h2;
  REQUIRE(batcheigCreateWithBackend(&h1.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);
  REQUIRE(batcheigCreateWithBackend(&h2.h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS);
  // Make h1's last call fail on argument 4 (n < 0).
  size_t lwork = 0;
  CHECK(batcheigDgeevBatched_bufferSize(h1, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, -1, nullptr, 1,
                                        nullptr, nullptr, nullptr, 1, nullptr, 1, &lwork, nullptr, 1) ==
        BATCHEIG_STATUS_INVALID_VALUE);
  int p1 = -1, p2 = -1;
  CHECK(batcheigGetErrorArgument(h1, &p1) == BATCHEIG_STATUS_SUCCESS);
  CHECK(batcheigGetErrorArgument(h2, &p2) == BATCHEIG_STATUS_SUCCESS);
  CHECK(p1 == 4);
  CHECK(p2 == 0);
  const batcheigStream_t fake = reinterpret_cast<batcheigStream_t>(static_cast<uintptr_t>(0x42));
  CHECK(batcheigSetStream(h1, fake) == BATCHEIG_STATUS_SUCCESS);
  batcheigStream_t s2 = fake;
  CHECK(batcheigGetStream(h2, &s2) == BATCHEIG_STATUS_SUCCESS);
  CHECK(s2 == nullptr);
}

TEST_CASE("info: version", "[api][info]") {
  int v = -1;
  REQUIRE(batcheigGetVersion(&v) == BATCHEIG_STATUS_SUCCESS);
  CHECK(v == BATCHEIG_VERSION_MAJOR * 10000 + BATCHEIG_VERSION_MINOR * 100 + BATCHEIG_VERSION_PATCH);
  CHECK(batcheigGetVersion(nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
}

TEST_CASE("info: status strings", "[api][info]") {
  std::set<std::string> seen;
  for (int s = BATCHEIG_STATUS_SUCCESS; s <= BATCHEIG_STATUS_INTERNAL_ERROR; ++s) {
    INFO("status " << s);
    const char *str = batcheigGetStatusString(static_cast<batcheigStatus_t>(s));
    REQUIRE(str != nullptr);
    CHECK(std::strlen(str) > 0);
    seen.insert(str);
  }
  CHECK(seen.size() == 7);  // every known status has its own text
  for (int s : {-1, 7, 99, 1 << 20}) {
    INFO("unknown status " << s);
    const char *str = bt_c_get_status_string(s);  // out-of-range enum value: via C
    REQUIRE(str != nullptr);
    CHECK(std::strlen(str) > 0);
  }
}

TEST_CASE("params: defaults, round trips and invalid values", "[api][params]") {
  CHECK(batcheigCreateParams(nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
  CHECK(batcheigDestroyParams(nullptr) == BATCHEIG_STATUS_SUCCESS);

  ParamsGuard p;
  double tol = -1;
  int it = -1;
  batcheigAlgorithm_t alg = BATCHEIG_ALG_GEEV_HOST_QR;  // overwritten by the getters
  SECTION("defaults") {
    CHECK(batcheigParamsGetTolerance(p, &tol) == BATCHEIG_STATUS_SUCCESS);
    CHECK(tol == 0.0);
    CHECK(batcheigParamsGetMaxIterations(p, &it) == BATCHEIG_STATUS_SUCCESS);
    CHECK(it == 0);
    CHECK(batcheigParamsGetAlgorithm(p, &alg) == BATCHEIG_STATUS_SUCCESS);
    CHECK(alg == BATCHEIG_ALG_AUTO);
  }
  SECTION("tolerance") {
    CHECK(batcheigParamsSetTolerance(p, 1e-9) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetTolerance(p, &tol) == BATCHEIG_STATUS_SUCCESS);
    CHECK(tol == 1e-9);
    // "tol <= 0 restores the default" (read back as 0)
    CHECK(batcheigParamsSetTolerance(p, -3.0) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetTolerance(p, &tol) == BATCHEIG_STATUS_SUCCESS);
    CHECK(tol == 0.0);
    CHECK(batcheigParamsSetTolerance(p, 1e-3) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsSetTolerance(p, 0.0) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetTolerance(p, &tol) == BATCHEIG_STATUS_SUCCESS);
    CHECK(tol == 0.0);
  }
  SECTION("max iterations") {
    CHECK(batcheigParamsSetMaxIterations(p, 7) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetMaxIterations(p, &it) == BATCHEIG_STATUS_SUCCESS);
    CHECK(it == 7);
    // Negative values are invalid and leave the value unchanged.
    CHECK(batcheigParamsSetMaxIterations(p, -1) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(batcheigParamsSetMaxIterations(p, std::numeric_limits<int>::min()) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(batcheigParamsGetMaxIterations(p, &it) == BATCHEIG_STATUS_SUCCESS);
    CHECK(it == 7);
    CHECK(batcheigParamsSetMaxIterations(p, 0) == BATCHEIG_STATUS_SUCCESS);  // restores the default
    CHECK(batcheigParamsGetMaxIterations(p, &it) == BATCHEIG_STATUS_SUCCESS);
    CHECK(it == 0);
  }
  SECTION("algorithm") {
    CHECK(batcheigParamsSetAlgorithm(p, BATCHEIG_ALG_GEEV_HOST_QR) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetAlgorithm(p, &alg) == BATCHEIG_STATUS_SUCCESS);
    CHECK(alg == BATCHEIG_ALG_GEEV_HOST_QR);
    // An unknown enum value is an invalid argument; the value is unchanged.
    // (Out-of-range enum values are passed through C: C++ may not form them.)
    CHECK(bt_c_params_set_algorithm(p, 99) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(bt_c_params_set_algorithm(p, -1) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(batcheigParamsGetAlgorithm(p, &alg) == BATCHEIG_STATUS_SUCCESS);
    CHECK(alg == BATCHEIG_ALG_GEEV_HOST_QR);
    CHECK(batcheigParamsSetAlgorithm(p, BATCHEIG_ALG_AUTO) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetAlgorithm(p, &alg) == BATCHEIG_STATUS_SUCCESS);
    CHECK(alg == BATCHEIG_ALG_AUTO);
  }
  SECTION("NULL params object") {
    CHECK(batcheigParamsSetTolerance(nullptr, 1e-6) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetTolerance(nullptr, &tol) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsSetMaxIterations(nullptr, 3) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetMaxIterations(nullptr, &it) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsSetAlgorithm(nullptr, BATCHEIG_ALG_AUTO) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetAlgorithm(nullptr, &alg) == BATCHEIG_STATUS_NOT_INITIALIZED);
  }
  SECTION("NULL output pointers") {
    CHECK(batcheigParamsGetTolerance(p, nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(batcheigParamsGetMaxIterations(p, nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(batcheigParamsGetAlgorithm(p, nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
  }
}
