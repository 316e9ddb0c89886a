// syevjBatched / heevjBatched and their _bufferSize queries: argument
// checking (every invalid argument in turn: INVALID_VALUE, its 1-based
// position, nothing written), quick returns, variants that are not Jacobi
// variants of the backend (NOT_SUPPORTED: the host variants on a CUDA handle,
// the CUDA variants on a host handle, geev variants on either), and the
// Jacobi params API. On a CUDA handle the calls take host arrays (staged
// through the GPU); test_syevj_cuda.cpp covers device arrays.
#include <algorithm>
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "catch_compat.hpp"
#include "support/arg_check.hpp"
#include "support/backend.hpp"
#include "support/herm_generators.hpp"
#include "support/syevj_api.hpp"

using namespace bt;

#define BT_SYEVJ_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

/// A valid call on a batch of small random Hermitian matrices, every output
/// sentinel-filled, that individual tests corrupt.
template <class T>
struct SyevjArgFixture {
  using R = real_t<T>;
  static constexpr int n = 4;
  static constexpr int batch = 2;
  batcheigHandle_t handle;
  std::vector<T> A;
  std::vector<R> W;
  std::vector<int> info, sweeps;
  std::vector<double> resid;
  std::vector<unsigned char> work;
  ParamsGuard params;

  explicit SyevjArgFixture(batcheigHandle_t h) : handle(h) {
    for (int b = 0; b < batch; ++b) {
      const auto m = make_herm_matrix<T>(HermFamily::Random, Magnitude::Unit, n, make_seed(12, b));
      A.insert(A.end(), m.a.begin(), m.a.end());
    }
    W.assign(static_cast<size_t>(n) * batch, sentinel_nan<R>());
    info.assign(batch, kInfoSentinel);
    sweeps.assign(batch, -77);
    resid.assign(batch, -77.0);
    work.assign(1 << 16, 0x5a);
    REQUIRE(batcheigParamsSetJacobiOutputs(params, sweeps.data(), resid.data()) == BATCHEIG_STATUS_SUCCESS);
  }

  SyevjArgs<T> valid_args() {
    SyevjArgs<T> g;
    g.handle = handle;
    g.jobz = BATCHEIG_EIG_MODE_VECTOR;
    g.uplo = BATCHEIG_FILL_MODE_LOWER;
    g.n = n;
    g.A = A.data();
    g.lda = n;
    g.W = W.data();
    g.work = nullptr;
    g.lwork = 0;
    g.info = info.data();
    g.params = params;
    g.batch = batch;
    return g;
  }

  OutputGuard guard() const {
    OutputGuard gd;
    gd.watch_vector("A", A);
    gd.watch_vector("W", W);
    gd.watch_vector("info", info);
    gd.watch_vector("sweeps", sweeps);
    gd.watch_vector("residual", resid);
    gd.watch_vector("work", work);
    return gd;
  }
};

}  // namespace

TEMPLATE_TEST_CASE("syevj: every invalid argument in turn", "[syevj][args]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    SyevjArgFixture<T> fx(h);
    // On a CUDA handle, AUTO at this n may pick a shared-memory variant that
    // needs no workspace: force the global-memory one, whose workspace makes
    // the lwork cases meaningful (they are dropped if it needs none either).
    if (backend == BATCHEIG_BACKEND_CUDA)
      REQUIRE(batcheigParamsSetAlgorithm(fx.params, BATCHEIG_ALG_JACOBI_CUDA_GLOBAL) == BATCHEIG_STATUS_SUCCESS);
    struct Case {
      const char *what;
      SyevjArg arg;
      std::function<void(SyevjArgs<T> &)> corrupt;
    };
    size_t required = 0;
    {
      SyevjArgs<T> g = fx.valid_args();
      REQUIRE(call_syevj_buffersize(g, &required) == BATCHEIG_STATUS_SUCCESS);
      if (backend == BATCHEIG_BACKEND_HOST) REQUIRE(required > 0);
      REQUIRE(required <= fx.work.size());
    }
    std::vector<Case> cases = {
        {"jobz = 2", SyevjArg::jobz, [](SyevjArgs<T> &g) { g.jobz = 2; }},
        {"jobz = -1", SyevjArg::jobz, [](SyevjArgs<T> &g) { g.jobz = -1; }},
        {"uplo = 2", SyevjArg::uplo, [](SyevjArgs<T> &g) { g.uplo = 2; }},
        {"uplo = 'L'", SyevjArg::uplo, [](SyevjArgs<T> &g) { g.uplo = 'L'; }},
        {"n = -1", SyevjArg::n, [](SyevjArgs<T> &g) { g.n = -1; }},
        {"A = NULL", SyevjArg::A, [](SyevjArgs<T> &g) { g.A = nullptr; }},
        {"lda = n - 1", SyevjArg::lda, [](SyevjArgs<T> &g) { g.lda = g.n - 1; }},
        {"lda = 0", SyevjArg::lda, [](SyevjArgs<T> &g) { g.lda = 0; }},
        {"W = NULL", SyevjArg::W, [](SyevjArgs<T> &g) { g.W = nullptr; }},
        {"info = NULL", SyevjArg::info, [](SyevjArgs<T> &g) { g.info = nullptr; }},
        {"batch = -1", SyevjArg::batch, [](SyevjArgs<T> &g) { g.batch = -1; }},
        // Several bad arguments: the first in the documented order wins.
        {"jobz and n bad", SyevjArg::jobz,
         [](SyevjArgs<T> &g) {
           g.jobz = 5;
           g.n = -3;
         }},
        {"uplo and A bad", SyevjArg::uplo,
         [](SyevjArgs<T> &g) {
           g.uplo = 7;
           g.A = nullptr;
         }},
        {"batch and A bad (sizes before pointers)", SyevjArg::batch,
         [](SyevjArgs<T> &g) {
           g.batch = -2;
           g.A = nullptr;
         }},
        {"A and info bad", SyevjArg::A,
         [](SyevjArgs<T> &g) {
           g.A = nullptr;
           g.info = nullptr;
         }},
    };
    if (required > 0) {
      cases.push_back({"lwork one byte short", SyevjArg::lwork, [&](SyevjArgs<T> &g) {
                         g.work = fx.work.data();
                         g.lwork = required - 1;
                       }});
      cases.push_back({"lwork = 0 with work", SyevjArg::lwork, [&](SyevjArgs<T> &g) {
                         g.work = fx.work.data();
                         g.lwork = 0;
                       }});
    }
    for (const Case &c : cases) {
      INFO(precision_name<T>() << " backend " << backend_name(backend) << ": " << c.what);
      SyevjArgs<T> g = fx.valid_args();
      c.corrupt(g);
      const OutputGuard guard = fx.guard();
      expect_invalid_argument(h, call_syevj(g), syevj_position(c.arg), guard);
    }
    SECTION("NULL handle: NOT_INITIALIZED, nothing written") {
      SyevjArgs<T> g = fx.valid_args();
      g.handle = nullptr;
      const OutputGuard guard = fx.guard();
      CHECK(call_syevj(g) == BATCHEIG_STATUS_NOT_INITIALIZED);
      size_t lw = 12345;
      CHECK(call_syevj_buffersize(g, &lw) == BATCHEIG_STATUS_NOT_INITIALIZED);
      CHECK(lw == 12345);
      CHECK(guard.changed().empty());
    }
    SECTION("a successful call clears the recorded error position; info and the outputs are written") {
      SyevjArgs<T> g = fx.valid_args();
      g.n = -1;
      REQUIRE(call_syevj(g) == BATCHEIG_STATUS_INVALID_VALUE);
      g = fx.valid_args();
      g.work = fx.work.data();
      g.lwork = required;
      expect_success_and_no_error_argument(h, call_syevj(g));
      for (int b = 0; b < SyevjArgFixture<T>::batch; ++b) {
        CHECK(fx.info[b] == 0);
        CHECK(fx.sweeps[b] >= 1);
        CHECK(fx.resid[b] >= 0);
      }
      for (const auto w : fx.W) CHECK(!is_sentinel(w));
    }
  }
}

TEMPLATE_TEST_CASE("syevj_bufferSize: every invalid argument in turn", "[syevj][args]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    SyevjArgFixture<T> fx(h);
    struct Case {
      const char *what;
      SyevjArg arg;
      std::function<void(SyevjArgs<T> &)> corrupt;
    };
    const std::vector<Case> cases = {
        {"jobz = 3", SyevjArg::jobz, [](SyevjArgs<T> &g) { g.jobz = 3; }},
        {"uplo = -1", SyevjArg::uplo, [](SyevjArgs<T> &g) { g.uplo = -1; }},
        {"n = -1", SyevjArg::n, [](SyevjArgs<T> &g) { g.n = -1; }},
        {"lda = n - 1", SyevjArg::lda, [](SyevjArgs<T> &g) { g.lda = g.n - 1; }},
        {"batch = -1", SyevjArg::batch, [](SyevjArgs<T> &g) { g.batch = -1; }},
    };
    for (const Case &c : cases) {
      INFO(precision_name<T>() << " backend " << backend_name(backend) << ": " << c.what);
      SyevjArgs<T> g = fx.valid_args();
      c.corrupt(g);
      size_t lw = 4242;
      const OutputGuard guard = fx.guard();
      expect_invalid_argument(h, call_syevj_buffersize(g, &lw), syevj_buffersize_position(c.arg), guard);
      CHECK(lw == 4242);
    }
    {
      INFO("lwork = NULL");
      SyevjArgs<T> g = fx.valid_args();
      const OutputGuard guard = fx.guard();
      expect_invalid_argument(h, call_syevj_buffersize(g, nullptr), syevj_buffersize_position(SyevjArg::lwork),
                              guard);
    }
    {
      INFO("the query takes NULL data pointers, and depends on jobz, n, batch and the variant");
      SyevjArgs<T> g = fx.valid_args();
      g.A = nullptr;
      g.W = nullptr;
      size_t v = 0, nv = 0, big = 0, blk = 0;
      expect_success_and_no_error_argument(h, call_syevj_buffersize(g, &v));
      g.jobz = BATCHEIG_EIG_MODE_NOVECTOR;
      REQUIRE(call_syevj_buffersize(g, &nv) == BATCHEIG_STATUS_SUCCESS);
      g.n = 40;
      g.lda = 40;
      REQUIRE(call_syevj_buffersize(g, &big) == BATCHEIG_STATUS_SUCCESS);
      if (backend == BATCHEIG_BACKEND_HOST) {
        CHECK(v > 0);
        CHECK(nv > 0);
        CHECK(nv <= v);
        CHECK(big > nv);
        ParamsGuard p;
        REQUIRE(batcheigParamsSetAlgorithm(p, BATCHEIG_ALG_JACOBI_HOST_BLOCK) == BATCHEIG_STATUS_SUCCESS);
        g.params = p;
        REQUIRE(call_syevj_buffersize(g, &blk) == BATCHEIG_STATUS_SUCCESS);
        CHECK(blk > big);  // the block variant keeps Q and the pair scratch
      } else {
        // CUDA: the shared-memory and lane variants need no device
        // workspace; the global, block and grid ones at most max(the input batch's bytes, its need for
        // one matrix) (test_syevj_cuda.cpp checks this over many n).
        for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend))
          for (const auto jobz : {BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_EIG_MODE_NOVECTOR}) {
            INFO(syevj_variant_name(alg) << " jobz " << jobz);
            ParamsGuard p;
            REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
            g.params = p;
            g.jobz = jobz;
            g.batch = 1;
            size_t one = 1;
            if (!syevj_variant_claims<T>(alg, g.n, jobz == BATCHEIG_EIG_MODE_VECTOR)) {
              CHECK(call_syevj_buffersize(g, &one) == BATCHEIG_STATUS_NOT_SUPPORTED);  // e.g. LANE: n <= 128
              continue;
            }
            REQUIRE(call_syevj_buffersize(g, &one) == BATCHEIG_STATUS_SUCCESS);
            g.batch = SyevjArgFixture<T>::batch;
            size_t lw = 1;
            REQUIRE(call_syevj_buffersize(g, &lw) == BATCHEIG_STATUS_SUCCESS);
            if (syevj_is_mixed(alg)) {
              // About 5 n^2 elements per matrix (test_syevj_cuda.cpp).
              CHECK(lw >= 5 * sizeof(T) * static_cast<size_t>(g.n) * g.n * g.batch);
            } else if (alg != BATCHEIG_ALG_JACOBI_CUDA_GLOBAL && alg != BATCHEIG_ALG_JACOBI_CUDA_BLOCK &&
                       alg != BATCHEIG_ALG_JACOBI_CUDA_GRID) {
              CHECK(one == 0);
              CHECK(lw == 0);
            } else {
              const size_t input = sizeof(T) * static_cast<size_t>(g.lda) * g.n * g.batch;
              CHECK(lw <= std::max(input, one));
            }
          }
      }
    }
  }
}

TEMPLATE_TEST_CASE("syevj: n == 0 and batch == 0 are quick returns even with NULL pointers", "[syevj][args]",
                   BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    SyevjArgFixture<T> fx(h);
    for (const auto jobz : {BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_EIG_MODE_NOVECTOR})
      for (const auto uplo : {BATCHEIG_FILL_MODE_LOWER, BATCHEIG_FILL_MODE_UPPER}) {
        INFO(precision_name<T>() << " jobz " << jobz << " uplo " << uplo_name(uplo));
        const OutputGuard guard = fx.guard();
        SyevjArgs<T> g;
        g.handle = h;
        g.jobz = jobz;
        g.uplo = uplo;
        g.params = fx.params;  // its sweeps/residual arrays must not be written either
        {
          INFO("n = 0, NULL pointers");
          g.n = 0;
          g.lda = 1;
          g.batch = 3;
          expect_success_and_no_error_argument(h, call_syevj(g));
          size_t lw = 99;
          expect_success_and_no_error_argument(h, call_syevj_buffersize(g, &lw));
          CHECK(lw == 0);
        }
        {
          INFO("batch = 0, NULL pointers");
          g.n = 5;
          g.lda = 5;
          g.batch = 0;
          expect_success_and_no_error_argument(h, call_syevj(g));
          size_t lw = 99;
          expect_success_and_no_error_argument(h, call_syevj_buffersize(g, &lw));
          CHECK(lw == 0);
        }
        {
          INFO("n = 0 still checks lda >= 1");
          g.n = 0;
          g.lda = 0;
          g.batch = 1;
          CHECK(call_syevj(g) == BATCHEIG_STATUS_INVALID_VALUE);
        }
        CHECK(guard.changed().empty());
      }
  }
}

TEMPLATE_TEST_CASE("syevj: a forced algorithm that is not a Jacobi variant of the backend is NOT_SUPPORTED",
                   "[syevj][args][params]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    std::vector<int> mine;
    for (const batcheigAlgorithm_t a : syevj_variants(backend)) mine.push_back(a);
    std::vector<int> tried;
    // Values 0..31 (the params object rejects unknown ones); they are set
    // through a C shim, as ints (syevj_raw.h).
    for (int v = 0; v < 32; ++v) {
      if (std::find(mine.begin(), mine.end(), v) != mine.end()) continue;
      ParamsGuard p;
      if (bt_params_set_algorithm_raw(p, v) != BATCHEIG_STATUS_SUCCESS) continue;
      tried.push_back(v);
      INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm value " << v);
      SyevjArgFixture<T> fx(h);
      SyevjArgs<T> g = fx.valid_args();
      g.params = p;
      const OutputGuard guard = fx.guard();
      CHECK(call_syevj(g) == BATCHEIG_STATUS_NOT_SUPPORTED);
      CHECK(guard.changed().empty());
      size_t lw = 7;
      CHECK(call_syevj_buffersize(g, &lw) == BATCHEIG_STATUS_NOT_SUPPORTED);
      CHECK(lw == 7);
    }
    CHECK(tried.size() > 0);  // at least the geev variant(s)
    // The other backend's Jacobi variants are among the refused ones.
    const batcheigBackend_t other =
        backend == BATCHEIG_BACKEND_HOST ? BATCHEIG_BACKEND_CUDA : BATCHEIG_BACKEND_HOST;
    for (const batcheigAlgorithm_t a : syevj_forced_variants(other)) {
      INFO(backend_name(backend) << " handle, " << syevj_variant_name(a));
      CHECK(std::find(tried.begin(), tried.end(), static_cast<int>(a)) != tried.end());
    }
  }
}

TEST_CASE("params: Jacobi options (max sweeps, sort, per-matrix outputs)", "[api][params][syevj]") {
  ParamsGuard p;
  int v = -1;
  SECTION("defaults") {
    CHECK(batcheigParamsGetMaxSweeps(p, &v) == BATCHEIG_STATUS_SUCCESS);
    CHECK(v == 0);
    CHECK(batcheigParamsGetSortEigenvalues(p, &v) == BATCHEIG_STATUS_SUCCESS);
    CHECK(v == 1);
    int *s = reinterpret_cast<int *>(1);
    double *r = reinterpret_cast<double *>(1);
    CHECK(batcheigParamsGetJacobiOutputs(p, &s, &r) == BATCHEIG_STATUS_SUCCESS);
    CHECK(s == nullptr);
    CHECK(r == nullptr);
  }
  SECTION("max sweeps") {
    CHECK(batcheigParamsSetMaxSweeps(p, 7) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetMaxSweeps(p, &v) == BATCHEIG_STATUS_SUCCESS);
    CHECK(v == 7);
    CHECK(batcheigParamsSetMaxSweeps(p, -1) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(batcheigParamsGetMaxSweeps(p, &v) == BATCHEIG_STATUS_SUCCESS);
    CHECK(v == 7);  // unchanged
    CHECK(batcheigParamsSetMaxSweeps(p, 0) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetMaxSweeps(p, &v) == BATCHEIG_STATUS_SUCCESS);
    CHECK(v == 0);
  }
  SECTION("sort") {
    CHECK(batcheigParamsSetSortEigenvalues(p, 0) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetSortEigenvalues(p, &v) == BATCHEIG_STATUS_SUCCESS);
    CHECK(v == 0);
    CHECK(batcheigParamsSetSortEigenvalues(p, 42) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetSortEigenvalues(p, &v) == BATCHEIG_STATUS_SUCCESS);
    CHECK(v == 1);
  }
  SECTION("per-matrix outputs") {
    int sw[3];
    double re[3];
    CHECK(batcheigParamsSetJacobiOutputs(p, sw, re) == BATCHEIG_STATUS_SUCCESS);
    int *s = nullptr;
    double *r = nullptr;
    CHECK(batcheigParamsGetJacobiOutputs(p, &s, &r) == BATCHEIG_STATUS_SUCCESS);
    CHECK(s == sw);
    CHECK(r == re);
    CHECK(batcheigParamsGetJacobiOutputs(p, nullptr, &r) == BATCHEIG_STATUS_SUCCESS);  // either may be NULL
    CHECK(batcheigParamsSetJacobiOutputs(p, nullptr, re) == BATCHEIG_STATUS_SUCCESS);
    CHECK(batcheigParamsGetJacobiOutputs(p, &s, nullptr) == BATCHEIG_STATUS_SUCCESS);
    CHECK(s == nullptr);
  }
  SECTION("algorithm values of the Jacobi variants") {
    batcheigAlgorithm_t a = BATCHEIG_ALG_AUTO;
    for (const auto alg : {BATCHEIG_ALG_JACOBI_HOST_SCALAR, BATCHEIG_ALG_JACOBI_HOST_BLOCK,
                           BATCHEIG_ALG_JACOBI_CUDA_WARP, BATCHEIG_ALG_JACOBI_CUDA_SHARED,
                           BATCHEIG_ALG_JACOBI_CUDA_GLOBAL, BATCHEIG_ALG_JACOBI_CUDA_BLOCK,
                           BATCHEIG_ALG_JACOBI_CUDA_LANE, BATCHEIG_ALG_JACOBI_CUDA_CLUSTER,
                           BATCHEIG_ALG_JACOBI_CUDA_GRID, BATCHEIG_ALG_JACOBI_CUDA_MIXED,
                           BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG}) {
      CHECK(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      CHECK(batcheigParamsGetAlgorithm(p, &a) == BATCHEIG_STATUS_SUCCESS);
      CHECK(a == alg);
    }
  }
  SECTION("NULL params object and NULL outputs") {
    int *s = nullptr;
    double *r = nullptr;
    CHECK(batcheigParamsSetMaxSweeps(nullptr, 3) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetMaxSweeps(nullptr, &v) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsSetSortEigenvalues(nullptr, 1) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetSortEigenvalues(nullptr, &v) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsSetJacobiOutputs(nullptr, nullptr, nullptr) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetJacobiOutputs(nullptr, &s, &r) == BATCHEIG_STATUS_NOT_INITIALIZED);
    CHECK(batcheigParamsGetMaxSweeps(p, nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
    CHECK(batcheigParamsGetSortEigenvalues(p, nullptr) == BATCHEIG_STATUS_INVALID_VALUE);
  }
}
