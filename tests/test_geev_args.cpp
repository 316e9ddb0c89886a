// geevBatched / geevBatched_bufferSize argument checking, quick returns and
// the handle's error-argument record (batcheig.h: "Argument errors return
// BATCHEIG_STATUS_INVALID_VALUE, write nothing, and record the 1-based
// position of the offending argument").
#include <algorithm>
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "catch_compat.hpp"
#include "support/arg_check.hpp"
#include "support/backend.hpp"
#include "support/generators.hpp"
#include "support/geev_api.hpp"
#include "support/geev_runner.hpp"
#include "support/scalar.hpp"

using namespace bt;

#define BT_GEEV_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

/// A valid geev call on a batch of small random matrices, with every
/// output buffer sentinel-filled, that individual tests corrupt.
template <class T>
struct GeevArgFixture {
  using R = real_t<T>;
  static constexpr int n = 4;
  static constexpr int batch = 2;
  batcheigHandle_t handle;
  std::vector<T> A, W, VL, VR;
  std::vector<R> wr, wi;
  std::vector<int> info;
  std::vector<unsigned char> work;

  explicit GeevArgFixture(batcheigHandle_t h) : handle(h) { reset(); }

  void reset() {
    A.clear();
    for (int b = 0; b < batch; ++b) {
      const auto m = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(11, b));
      A.insert(A.end(), m.a.begin(), m.a.end());
    }
    const size_t nn = static_cast<size_t>(n) * n * batch;
    VL.assign(nn, sentinel_value<T>());
    VR.assign(nn, sentinel_value<T>());
    W.assign(static_cast<size_t>(n) * batch, sentinel_value<T>());
    wr.assign(static_cast<size_t>(n) * batch, sentinel_nan<R>());
    wi.assign(static_cast<size_t>(n) * batch, sentinel_nan<R>());
    info.assign(batch, kInfoSentinel);
    work.assign(1 << 16, 0x5a);
  }

  GeevArgs<T> valid_args() {
    GeevArgs<T> g;
    g.handle = handle;
    g.jobvl = BATCHEIG_EIG_MODE_VECTOR;
    g.jobvr = BATCHEIG_EIG_MODE_VECTOR;
    g.n = n;
    g.A = A.data();
    g.lda = n;
    if constexpr (is_complex_v<T>) {
      g.W = W.data();
    } else {
      g.wr = wr.data();
      g.wi = wi.data();
    }
    g.VL = VL.data();
    g.ldvl = n;
    g.VR = VR.data();
    g.ldvr = n;
    g.work = nullptr;
    g.lwork = 0;
    g.info = info.data();
    g.params = nullptr;
    g.batch = batch;
    return g;
  }

  OutputGuard guard() const {
    OutputGuard gd;
    gd.watch_vector("A", A);
    gd.watch_vector("VL", VL);
    gd.watch_vector("VR", VR);
    if constexpr (is_complex_v<T>) {
      gd.watch_vector("W", W);
    } else {
      gd.watch_vector("wr", wr);
      gd.watch_vector("wi", wi);
    }
    gd.watch_vector("info", info);
    gd.watch_vector("work", work);
    return gd;
  }
};

template <class T>
struct Mutation {
  std::string what;
  GeevArg arg;  // the argument whose position must be reported
  std::function<void(GeevArgs<T> &)> apply;
};

template <class T>
std::vector<Mutation<T>> geev_mutations(size_t lwork_query, void *work) {
  using M = Mutation<T>;
  const int bad7 = 7;  // invalid enum values, passed through the C shims
  const int badm1 = -1;
  const auto NOV = BATCHEIG_EIG_MODE_NOVECTOR;
  std::vector<M> m = {
      {"jobvl = 7", GeevArg::jobvl, [=](GeevArgs<T> &g) { g.jobvl = bad7; }},
      {"jobvl = -1", GeevArg::jobvl, [=](GeevArgs<T> &g) { g.jobvl = badm1; }},
      {"jobvr = 7", GeevArg::jobvr, [=](GeevArgs<T> &g) { g.jobvr = bad7; }},
      {"jobvr = -1", GeevArg::jobvr, [=](GeevArgs<T> &g) { g.jobvr = badm1; }},
      {"n = -1", GeevArg::n, [](GeevArgs<T> &g) { g.n = -1; }},
      {"n = INT_MIN", GeevArg::n, [](GeevArgs<T> &g) { g.n = std::numeric_limits<int>::min(); }},
      {"A = NULL", GeevArg::A, [](GeevArgs<T> &g) { g.A = nullptr; }},
      {"lda = n-1", GeevArg::lda, [](GeevArgs<T> &g) { g.lda = g.n - 1; }},
      {"lda = 0", GeevArg::lda, [](GeevArgs<T> &g) { g.lda = 0; }},
      {"lda = -5", GeevArg::lda, [](GeevArgs<T> &g) { g.lda = -5; }},
      {"VL = NULL with jobvl = V", GeevArg::VL, [](GeevArgs<T> &g) { g.VL = nullptr; }},
      {"ldvl = n-1 with jobvl = V", GeevArg::ldvl, [](GeevArgs<T> &g) { g.ldvl = g.n - 1; }},
      {"ldvl = 0 with jobvl = N", GeevArg::ldvl,
       [=](GeevArgs<T> &g) {
         g.jobvl = NOV;
         g.VL = nullptr;
         g.ldvl = 0;
       }},
      {"VR = NULL with jobvr = V", GeevArg::VR, [](GeevArgs<T> &g) { g.VR = nullptr; }},
      {"ldvr = n-1 with jobvr = V", GeevArg::ldvr, [](GeevArgs<T> &g) { g.ldvr = g.n - 1; }},
      {"ldvr = 0 with jobvr = N", GeevArg::ldvr,
       [=](GeevArgs<T> &g) {
         g.jobvr = NOV;
         g.VR = nullptr;
         g.ldvr = 0;
       }},
      {"info = NULL", GeevArg::info, [](GeevArgs<T> &g) { g.info = nullptr; }},
      {"batch = -1", GeevArg::batch, [](GeevArgs<T> &g) { g.batch = -1; }},
  };
  if constexpr (is_complex_v<T>) {
    m.push_back({"W = NULL", GeevArg::W, [](GeevArgs<T> &g) { g.W = nullptr; }});
  } else {
    m.push_back({"wr = NULL", GeevArg::wr, [](GeevArgs<T> &g) { g.wr = nullptr; }});
    m.push_back({"wi = NULL", GeevArg::wi, [](GeevArgs<T> &g) { g.wi = nullptr; }});
  }
  if (lwork_query > 0) {
    m.push_back({"lwork = query - 1 with work != NULL", GeevArg::lwork, [=](GeevArgs<T> &g) {
                   g.work = work;
                   g.lwork = lwork_query - 1;
                 }});
    m.push_back({"lwork = 0 with work != NULL", GeevArg::lwork, [=](GeevArgs<T> &g) {
                   g.work = work;
                   g.lwork = 0;
                 }});
  }
  return m;
}

}  // namespace

TEMPLATE_TEST_CASE("geev: every invalid argument in turn", "[geev][args]", BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    INFO("backend " << backend_name(backend) << ", " << precision_name<T>());
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    GeevArgFixture<T> fx(h);

    size_t lwork_query = 0;
    REQUIRE(call_geev_buffersize(fx.valid_args(), &lwork_query) == BATCHEIG_STATUS_SUCCESS);
    REQUIRE(lwork_query + 64 <= fx.work.size());  // the fixture's buffer is big enough for the lwork tests
    if (lwork_query == 0) WARN("geev workspace query returned 0 bytes: the lwork-too-small cases are not exercised");

    for (const auto &mu : geev_mutations<T>(lwork_query, fx.work.data())) {
      fx.reset();
      GeevArgs<T> g = fx.valid_args();
      mu.apply(g);
      const int expected = geev_arg_position<T>(mu.arg);
      INFO("invalid argument: " << mu.what << " (" << geev_arg_name(mu.arg) << ", position " << expected << ")");
      const OutputGuard guard = fx.guard();
      const batcheigStatus_t st = call_geev(g);
      expect_invalid_argument(h, st, expected, guard);
    }

    SECTION("NULL handle: NOT_INITIALIZED, nothing written") {
      fx.reset();
      GeevArgs<T> g = fx.valid_args();
      g.handle = nullptr;
      const OutputGuard guard = fx.guard();
      CHECK(call_geev(g) == BATCHEIG_STATUS_NOT_INITIALIZED);
      CHECK(guard.changed().empty());
    }

    SECTION("valid edge cases: unwanted vectors may be NULL with ld 1 < n") {
      for (int k = 0; k < 3; ++k) {
        fx.reset();
        GeevArgs<T> g = fx.valid_args();
        if (k == 0 || k == 2) {
          g.jobvl = BATCHEIG_EIG_MODE_NOVECTOR;
          g.VL = nullptr;
          g.ldvl = 1;
        }
        if (k == 1 || k == 2) {
          g.jobvr = BATCHEIG_EIG_MODE_NOVECTOR;
          g.VR = nullptr;
          g.ldvr = 1;
        }
        INFO("case " << k);
        expect_success_and_no_error_argument(h, call_geev(g));
        for (int b = 0; b < fx.batch; ++b) CHECK(fx.info[b] == 0);
      }
    }

    SECTION("a successful call clears the recorded error position") {
      fx.reset();
      GeevArgs<T> g = fx.valid_args();
      g.n = -1;
      CHECK(call_geev(g) == BATCHEIG_STATUS_INVALID_VALUE);
      fx.reset();
      expect_success_and_no_error_argument(h, call_geev(fx.valid_args()));
    }
  }
}

TEMPLATE_TEST_CASE("geev_bufferSize: every invalid argument in turn", "[geev][args]", BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    INFO("backend " << backend_name(backend) << ", " << precision_name<T>());
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);

    // "Pointers may be NULL" in the query: the baseline passes none.
    GeevArgs<T> base;
    base.handle = h;
    base.n = 5;
    base.lda = 5;
    base.ldvl = 5;
    base.ldvr = 5;
    base.batch = 3;
    const size_t kSentinel = 0xdeadbeefcafeULL;

    size_t lwork = kSentinel;
    expect_success_and_no_error_argument(h, call_geev_buffersize(base, &lwork));
    CHECK(lwork != kSentinel);

    using M = Mutation<T>;
    const auto NOV = BATCHEIG_EIG_MODE_NOVECTOR;
    const std::vector<M> muts = {
        {"jobvl = 7", GeevArg::jobvl, [](GeevArgs<T> &g) { g.jobvl = 7; }},
        {"jobvr = -1", GeevArg::jobvr, [](GeevArgs<T> &g) { g.jobvr = -1; }},
        {"n = -1", GeevArg::n, [](GeevArgs<T> &g) { g.n = -1; }},
        {"lda = n-1", GeevArg::lda, [](GeevArgs<T> &g) { g.lda = g.n - 1; }},
        {"ldvl = n-1 with jobvl = V", GeevArg::ldvl, [](GeevArgs<T> &g) { g.ldvl = g.n - 1; }},
        {"ldvl = 0 with jobvl = N", GeevArg::ldvl, [=](GeevArgs<T> &g) { g.jobvl = NOV; g.ldvl = 0; }},
        {"ldvr = n-1 with jobvr = V", GeevArg::ldvr, [](GeevArgs<T> &g) { g.ldvr = g.n - 1; }},
        {"ldvr = 0 with jobvr = N", GeevArg::ldvr, [=](GeevArgs<T> &g) { g.jobvr = NOV; g.ldvr = 0; }},
        {"batch = -1", GeevArg::batch, [](GeevArgs<T> &g) { g.batch = -1; }},
    };
    for (const auto &mu : muts) {
      GeevArgs<T> g = base;
      mu.apply(g);
      const int expected = geev_buffersize_arg_position<T>(mu.arg);
      INFO("invalid argument: " << mu.what << " (position " << expected << ")");
      lwork = kSentinel;
      OutputGuard guard;
      guard.watch("lwork", &lwork, sizeof lwork);
      expect_invalid_argument(h, call_geev_buffersize(g, &lwork), expected, guard);
    }
    {
      INFO("lwork output pointer NULL");
      OutputGuard guard;
      expect_invalid_argument(h, call_geev_buffersize(base, nullptr), geev_buffersize_arg_position<T>(GeevArg::lwork),
                              guard);
    }
    {
      INFO("NULL handle");
      lwork = kSentinel;
      GeevArgs<T> g = base;
      g.handle = nullptr;
      CHECK(call_geev_buffersize(g, &lwork) == BATCHEIG_STATUS_NOT_INITIALIZED);
      CHECK(lwork == kSentinel);
    }
    {
      INFO("vectors not wanted: ld 1 valid, VL/VR NULL");
      GeevArgs<T> g = base;
      g.jobvl = g.jobvr = NOV;
      g.ldvl = g.ldvr = 1;
      lwork = kSentinel;
      expect_success_and_no_error_argument(h, call_geev_buffersize(g, &lwork));
      CHECK(lwork != kSentinel);
    }
  }
}

TEMPLATE_TEST_CASE("geev: n == 0 and batch == 0 are quick returns even with NULL pointers", "[geev][args]",
                   BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    INFO("backend " << backend_name(backend) << ", " << precision_name<T>());
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const auto jl : {BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_VECTOR})
      for (const auto jr : {BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_VECTOR}) {
        INFO("jobvl=" << jl << " jobvr=" << jr);
        GeevArgs<T> g;  // every pointer NULL
        g.handle = h;
        g.jobvl = jl;
        g.jobvr = jr;
        {
          INFO("n = 0, batch = 3, ld = 1");
          g.n = 0;
          g.lda = g.ldvl = g.ldvr = 1;
          g.batch = 3;
          expect_success_and_no_error_argument(h, call_geev(g));
          size_t lw = 12345;
          expect_success_and_no_error_argument(h, call_geev_buffersize(g, &lw));
        }
        {
          INFO("n = 6, batch = 0, ld = n");
          g.n = 6;
          g.lda = g.ldvl = g.ldvr = 6;
          g.batch = 0;
          expect_success_and_no_error_argument(h, call_geev(g));
          size_t lw = 12345;
          expect_success_and_no_error_argument(h, call_geev_buffersize(g, &lw));
        }
        {
          INFO("n = 0 and batch = 0");
          g.n = 0;
          g.lda = g.ldvl = g.ldvr = 1;
          g.batch = 0;
          expect_success_and_no_error_argument(h, call_geev(g));
        }
      }
  }
}

TEMPLATE_TEST_CASE("geev: a forced algorithm that is not a geev variant of the backend is NOT_SUPPORTED",
                   "[geev][args][params]", BT_GEEV_TYPES) {
  // batcheig.h: "a variant that does not belong to the routine or the
  // handle's backend makes the call return BATCHEIG_STATUS_NOT_SUPPORTED".
  // Every algorithm value the params object accepts and that is not one of
  // geev_variants(backend) is tried (e.g. the Jacobi variants).
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    const std::vector<batcheigAlgorithm_t> mine = geev_variants(backend);
    int tried = 0;
    for (int v = 0; v < 64; ++v) {
      bool is_mine = false;
      for (const batcheigAlgorithm_t a : mine) is_mine = is_mine || static_cast<int>(a) == v;
      if (is_mine) continue;
      ParamsGuard p;
      // Through the C shim: most of these values are outside the enum's
      // range, which C++ may not even form.
      if (bt_c_params_set_algorithm(p, v) != BATCHEIG_STATUS_SUCCESS) continue;
      ++tried;
      INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm value " << v);
      GeevArgFixture<T> fx(h);
      GeevArgs<T> g = fx.valid_args();
      g.params = p;
      const OutputGuard guard = fx.guard();
      CHECK(call_geev(g) == BATCHEIG_STATUS_NOT_SUPPORTED);
      CHECK(guard.changed().empty());
      size_t lw = 0;
      CHECK(call_geev_buffersize(g, &lw) == BATCHEIG_STATUS_NOT_SUPPORTED);
    }
    if (tried == 0) WARN("no foreign algorithm values are known to the params object; nothing to try");
  }
}
