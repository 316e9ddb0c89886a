// syevjBatched / heevjBatched: batch semantics and the Jacobi options.
//  - every matrix of a batch gets bitwise the results of a single call
//    (thread partitioning, per-thread workspace), whatever lda and workspace;
//  - NaN / Inf matrices are isolated: info = BATCHEIG_INFO_NONFINITE, NaN
//    outputs, residual NaN, neighbours unchanged; NaN outside the uplo
//    triangle or in the imaginary part of the diagonal is ignored;
//  - max sweeps = 1: BATCHEIG_INFO_JACOBI_NOT_CONVERGED exactly on the
//    matrices whose reported residual exceeds the tolerance;
//  - the tolerance, the sort flag and the per-matrix outputs (sweeps,
//    residual) do what batcheig.h says.
// Every case runs on each forced Jacobi variant of each backend under test
// (BATCHEIG_TEST_BACKENDS): the CUDA variants on host arrays, which the CUDA
// backend stages through the same kernels as device arrays
// (test_syevj_cuda.cpp covers device arrays). The sizes here are claimed by
// every variant; a (variant, n) that is not claimed is checked to be refused.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <vector>

#include "catch_compat.hpp"
#include "support/backend.hpp"
#include "support/herm_generators.hpp"
#include "support/syevj_api.hpp"
#include "support/syevj_checks.hpp"

using namespace bt;

#define BT_SYEVJ_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

/// Matrix b of run x and matrix c of run y have bitwise equal outputs.
template <class T>
void expect_same_matrix_results(const SyevjRun<T> &x, int b, const SyevjRun<T> &y, int c) {
  const int n = x.n;
  CHECK(x.info[b] == y.info[c]);
  CHECK(std::memcmp(x.eigenvalues(b), y.eigenvalues(c), sizeof(real_t<T>) * n) == 0);
  if (x.opt.jobz == BATCHEIG_EIG_MODE_VECTOR) {
    bool same = true;
    for (int j = 0; j < n; ++j)
      same = same && std::memcmp(x.matrix(b) + static_cast<size_t>(j) * x.lda, y.matrix(c) + static_cast<size_t>(j) * y.lda,
                                 sizeof(T) * n) == 0;
    CHECK(same);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("syevj batch: every matrix's results are bitwise those of a single call (lda, workspace, threads)",
                   "[syevj][batch]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend)) {
      ParamsGuard p;
      REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      for (const int n : {1, 3, 8, 21, 33}) {  // 33: the smallest sizes GRID claims
        const int count = n <= 8 ? 67 : 9;  // many small ones: several OpenMP chunks
        const auto mats = mixed_batch<T>(n, count, 5);
        INFO(precision_name<T>() << " " << syevj_variant_name(alg) << " n=" << n);
        SyevjOptions opt;
        opt.params = p;
        opt.uplo = n % 2 ? BATCHEIG_FILL_MODE_UPPER : BATCHEIG_FILL_MODE_LOWER;
        if (!syevj_variant_claims<T>(alg, n, true)) {
          expect_syevj_not_claimed<T>(h, ptrs(mats), n, opt);
          continue;
        }
        const SyevjRun<T> ref = run_syevj<T>(h, ptrs(mats), n, opt);
        REQUIRE(ref.status == BATCHEIG_STATUS_SUCCESS);
        for (int b = 0; b < count; ++b) {
          if (b % 8 != 0 && b != count - 1) continue;  // a sample is checked for accuracy
          check_syevj_matrix(mats[b].a, ref, b, oracle_heev(mats[b].a, n));
        }
        for (int b = 0; b < count; b += 11) {
          const SyevjRun<T> one = run_syevj_single(h, mats[b].a, n, opt);
          REQUIRE(one.status == BATCHEIG_STATUS_SUCCESS);
          expect_same_matrix_results(ref, b, one, 0);
        }
        for (const SyevjWork wm : {SyevjWork::ExactQuery, SyevjWork::Oversized}) {
          SyevjOptions o2 = opt;
          o2.work = wm;
          o2.lda_pad = 3;
          const SyevjRun<T> r = run_syevj<T>(h, ptrs(mats), n, o2);
          REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
          for (int b = 0; b < count; ++b) expect_same_matrix_results(ref, b, r, b);
          check_syevj_matrix(mats[0].a, r, 0, oracle_heev(mats[0].a, n));  // padding rows untouched
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("syevj batch: the handle's cached workspace is reused correctly across sizes and jobs",
                   "[syevj][batch][workspace]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h, fresh;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const int n : {5, 40, 3, 17}) {
      for (const auto jobz : {BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_EIG_MODE_NOVECTOR}) {
        const auto mats = mixed_batch<T>(n, 3, 9);
        SyevjOptions opt;
        opt.jobz = jobz;
        const SyevjRun<T> a = run_syevj<T>(h, ptrs(mats), n, opt);
        REQUIRE(batcheigCreateWithBackend(&fresh.h, backend) == BATCHEIG_STATUS_SUCCESS);
        const SyevjRun<T> b = run_syevj<T>(fresh.h, ptrs(mats), n, opt);
        batcheigDestroy(fresh.h);
        fresh.h = nullptr;
        REQUIRE(a.status == BATCHEIG_STATUS_SUCCESS);
        REQUIRE(b.status == BATCHEIG_STATUS_SUCCESS);
        for (int k = 0; k < 3; ++k) expect_same_matrix_results(a, k, b, k);
      }
    }
  }
}

namespace {

/// A batch with a NaN matrix and an Inf matrix among good ones.
template <class T>
void nonfinite_isolation(batcheigBackend_t backend, batcheigAlgorithm_t alg, batcheigEigMode_t jobz, int n) {
  using R = real_t<T>;
  HandleGuard h;
  BT_CREATE_HANDLE_OR_SKIP(h, backend);
  ParamsGuard p;
  REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
  const int count = 5;
  if (!syevj_variant_claims<T>(alg, n, jobz == BATCHEIG_EIG_MODE_VECTOR)) {
    const auto mats = mixed_batch<T>(n, count, 13);
    SyevjOptions opt;
    opt.params = p;
    opt.jobz = jobz;
    expect_syevj_not_claimed<T>(h, ptrs(mats), n, opt);
    return;
  }
  std::vector<int> sweeps(count, -7);
  std::vector<double> resid(count, -7.0);
  REQUIRE(batcheigParamsSetJacobiOutputs(p, sweeps.data(), resid.data()) == BATCHEIG_STATUS_SUCCESS);
  auto mats = mixed_batch<T>(n, count, 13);
  // Matrix 1: NaN in the lower triangle; matrix 3: Inf (or -Inf) in it.
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  const int i = n - 1, j = n > 1 ? n / 2 - (n > 2 ? 1 : 0) : 0;  // i >= j: in the lower triangle
  auto poison = [&](std::vector<T> &a, R v) {
    T x;
    if constexpr (is_complex_v<T>)
      x = (i == j) ? T(v, R(0)) : T(R(1), v);
    else
      x = v;
    a[static_cast<size_t>(j) * n + i] = x;
    if constexpr (is_complex_v<T>)
      a[static_cast<size_t>(i) * n + j] = (i == j) ? x : T(R(1), -v);
    else
      a[static_cast<size_t>(i) * n + j] = x;
  };
  poison(mats[1].a, nan);
  poison(mats[3].a, -inf);
  SyevjOptions opt;
  opt.params = p;
  opt.jobz = jobz;
  for (const auto uplo : {BATCHEIG_FILL_MODE_LOWER, BATCHEIG_FILL_MODE_UPPER}) {
    opt.uplo = uplo;
    INFO(precision_name<T>() << " " << syevj_variant_name(alg) << " n=" << n << " uplo " << uplo_name(uplo)
                             << " jobz " << (jobz == BATCHEIG_EIG_MODE_VECTOR ? "V" : "N"));
    const SyevjRun<T> r = run_syevj<T>(h, ptrs(mats), n, opt);
    REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
    for (const int b : {1, 3}) {
      INFO("non-finite matrix " << b);
      CHECK(r.info[b] == BATCHEIG_INFO_NONFINITE);
      for (int k = 0; k < n; ++k) {
        CHECK(std::isnan(r.eigenvalues(b)[k]));
        CHECK(!is_sentinel(r.eigenvalues(b)[k]));
      }
      if (jobz == BATCHEIG_EIG_MODE_VECTOR)
        for (int c = 0; c < n; ++c)
          for (int k = 0; k < n; ++k) {
            const T x = r.matrix(b)[static_cast<size_t>(c) * r.lda + k];
            CHECK(!is_finite_scalar(x));
            CHECK(!is_sentinel(x));
          }
      CHECK(sweeps[b] == 0);
      CHECK(std::isnan(resid[b]));
    }
    for (const int b : {0, 2, 4}) {
      INFO("finite neighbour " << b);
      const SyevjRun<T> one = run_syevj_single(h, mats[b].a, n, opt);
      expect_same_matrix_results(r, b, one, 0);
      CHECK(r.info[b] == 0);
      CHECK(sweeps[b] >= 0);
      CHECK(resid[b] >= 0);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("syevj batch: NaN and Inf matrices are isolated (info = NONFINITE, NaN outputs)",
                   "[syevj][batch][nonfinite]", BT_SYEVJ_TYPES) {
  for (const batcheigBackend_t backend : backends_under_test())
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend))
      for (const int n : {1, 2, 6, 19})
        for (const auto jobz : {BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_EIG_MODE_NOVECTOR})
          nonfinite_isolation<TestType>(backend, alg, jobz, n);
}

TEMPLATE_TEST_CASE("syevj batch: NaN outside the uplo triangle and in imaginary parts of the diagonal is ignored",
                   "[syevj][batch][nonfinite]", BT_SYEVJ_TYPES) {
  using T = TestType;
  using R = real_t<T>;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend)) {
      if (!syevj_variant_exists<T>(alg)) continue;  // MIXED: double types only
      ParamsGuard p;
      REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      // n = 9, or the smallest order a variant claims (GRID: 32).
      const int n = syevj_variant_claims<T>(alg, 9, true) ? 9 : 32;
      const auto m = make_herm_matrix<T>(HermFamily::Random, Magnitude::Unit, n, make_seed(3, 1));
      for (const auto uplo : {BATCHEIG_FILL_MODE_LOWER, BATCHEIG_FILL_MODE_UPPER}) {
        SyevjOptions opt;
        opt.params = p;
        opt.uplo = uplo;
        // run_syevj already puts NaN in the other triangle; also put NaN in the
        // imaginary parts of the diagonal (complex types) and compare.
        const SyevjRun<T> ref = run_syevj_single(h, m.a, n, opt);
        REQUIRE(ref.status == BATCHEIG_STATUS_SUCCESS);
        check_syevj_matrix(m.a, ref, 0, oracle_heev(m.a, n));
        if constexpr (is_complex_v<T>) {
          std::vector<T> A = ref.input;
          for (int k = 0; k < n; ++k) A[static_cast<size_t>(k) * ref.lda + k].imag(std::numeric_limits<R>::quiet_NaN());
          std::vector<R> W(n);
          int info = kInfoSentinel;
          SyevjArgs<T> g;
          g.handle = h;
          g.uplo = uplo;
          g.n = n;
          g.A = A.data();
          g.lda = ref.lda;
          g.W = W.data();
          g.info = &info;
          g.params = p;
          REQUIRE(call_syevj(g) == BATCHEIG_STATUS_SUCCESS);
          CHECK(info == 0);
          CHECK(std::memcmp(W.data(), ref.W.data(), sizeof(R) * n) == 0);
          CHECK(std::memcmp(A.data(), ref.A.data(), sizeof(T) * A.size()) == 0);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("syevj: max sweeps = 1 flags exactly the matrices whose residual exceeds the tolerance",
                   "[syevj][batch][convergence]", BT_SYEVJ_TYPES) {
  using T = TestType;
  using R = real_t<T>;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend)) {
      if (!syevj_variant_exists<T>(alg)) continue;  // MIXED: double types only
      // GRID claims n >= 32 only.
      const std::vector<int> sizes =
          syevj_variant_claims<T>(alg, 8, true) ? std::vector<int>{1, 2, 3, 8, 24} : std::vector<int>{32, 40};
      for (const int n : sizes) {
        // Converge at once (diagonal, identity, n <= 2), after one sweep
        // (a nearly diagonal matrix), or not (random, graded, clustered).
        std::vector<HermMatrix<T>> mats;
        mats.push_back(make_herm_matrix<T>(HermFamily::DiagGeom, Magnitude::Unit, n, make_seed(1, n)));
        mats.push_back(make_herm_matrix<T>(HermFamily::Random, Magnitude::Unit, n, make_seed(2, n)));
        mats.push_back(make_herm_matrix<T>(HermFamily::Identity, Magnitude::Unit, n, make_seed(3, n)));
        mats.push_back(make_herm_matrix<T>(HermFamily::Graded, Magnitude::NearOverflow, n, make_seed(4, n)));
        HermMatrix<T> near = make_herm_matrix<T>(HermFamily::DiagArith, Magnitude::Unit, n, make_seed(5, n));
        {
          const auto pert = make_herm_matrix<T>(HermFamily::Random, Magnitude::Unit, n, make_seed(6, n));
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
              if (i != j) near.a[static_cast<size_t>(j) * n + i] += pert.a[static_cast<size_t>(j) * n + i] * R(1e-4);
        }
        mats.push_back(near);
        mats.push_back(make_herm_matrix<T>(HermFamily::OrthCluster, Magnitude::NearUnderflow, n, make_seed(7, n)));
        const int count = static_cast<int>(mats.size());

        ParamsGuard p;
        REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
        REQUIRE(batcheigParamsSetMaxSweeps(p, 1) == BATCHEIG_STATUS_SUCCESS);
        std::vector<int> sweeps(count, -7);
        std::vector<double> resid(count, -7.0);
        REQUIRE(batcheigParamsSetJacobiOutputs(p, sweeps.data(), resid.data()) == BATCHEIG_STATUS_SUCCESS);
        SyevjOptions opt;
        opt.params = p;
        const SyevjRun<T> r = run_syevj<T>(h, ptrs(mats), n, opt);
        REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
        const double tol = syevj_effective_tol<T>(0.0, n, alg);
        int not_converged = 0;
        for (int b = 0; b < count; ++b) {
          INFO(precision_name<T>() << " " << syevj_variant_name(alg) << " n=" << n << " matrix " << b << " ("
                                   << mats[b].describe() << ") residual " << resid[b] << " tol " << tol
                                   << " sweeps " << sweeps[b] << " info " << r.info[b]);
          CHECK((sweeps[b] == 0 || sweeps[b] == 1));
          CHECK(resid[b] >= 0);
          CHECK(std::isfinite(resid[b]));
          CHECK((r.info[b] == BATCHEIG_INFO_JACOBI_NOT_CONVERGED) == (resid[b] > tol));
          CHECK((r.info[b] == 0 || r.info[b] == BATCHEIG_INFO_JACOBI_NOT_CONVERGED));
          if (r.info[b] == BATCHEIG_INFO_JACOBI_NOT_CONVERGED) {
            ++not_converged;
            CHECK(sweeps[b] == 1);
            // The last iterate is returned: sorted finite eigenvalues and
            // orthonormal vectors.
            for (int k = 0; k < n; ++k) CHECK(std::isfinite(r.eigenvalues(b)[k]));
            for (int k = 0; k + 1 < n; ++k) CHECK(r.eigenvalues(b)[k] <= r.eigenvalues(b)[k + 1]);
          } else {
            check_syevj_matrix(mats[b].a, r, b, oracle_heev(mats[b].a, n));
          }
        }
        // One rotation diagonalizes a 2x2 matrix; MIXED's one sweep is the
        // single-precision stage's, whose vectors are short of the tolerance.
        if (n <= 2 && !syevj_is_mixed(alg)) CHECK(not_converged == 0);
        // Random and graded need more sweeps (the tridiagonal method has none).
        if (n >= 8 && syevj_iterates(alg)) CHECK(not_converged >= 2);
        // The default cap converges every matrix of the batch.
        REQUIRE(batcheigParamsSetMaxSweeps(p, 0) == BATCHEIG_STATUS_SUCCESS);
        const SyevjRun<T> full = run_syevj<T>(h, ptrs(mats), n, opt);
        REQUIRE(full.status == BATCHEIG_STATUS_SUCCESS);
        for (int b = 0; b < count; ++b) {
          CHECK(full.info[b] == 0);
          CHECK(resid[b] <= tol);
          CHECK(sweeps[b] >= 0);
          CHECK(sweeps[b] <= 100);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("syevj: the tolerance bounds the reported residual; a loose one saves sweeps",
                   "[syevj][batch][convergence]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend)) {
      if (!syevj_variant_exists<T>(alg)) continue;  // MIXED: double types only
      const int n = syevj_variant_claims<T>(alg, 30, true) ? 30 : 40, count = 4;  // GRID: n >= 32
      const auto mats = mixed_batch<T>(n, count, 21);
      std::vector<int> sw_default(count), sw_loose(count);
      std::vector<double> res_default(count), res_loose(count);
      ParamsGuard p;
      REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      SyevjOptions opt;
      opt.params = p;
      REQUIRE(batcheigParamsSetJacobiOutputs(p, sw_default.data(), res_default.data()) == BATCHEIG_STATUS_SUCCESS);
      const SyevjRun<T> a = run_syevj<T>(h, ptrs(mats), n, opt);
      const double loose = 1e-3;
      REQUIRE(batcheigParamsSetTolerance(p, loose) == BATCHEIG_STATUS_SUCCESS);
      REQUIRE(batcheigParamsSetJacobiOutputs(p, sw_loose.data(), res_loose.data()) == BATCHEIG_STATUS_SUCCESS);
      const SyevjRun<T> b = run_syevj<T>(h, ptrs(mats), n, opt);
      REQUIRE(a.status == BATCHEIG_STATUS_SUCCESS);
      REQUIRE(b.status == BATCHEIG_STATUS_SUCCESS);
      const double tol = syevj_effective_tol<T>(0.0, n, alg);
      int saved = 0;
      for (int k = 0; k < count; ++k) {
        INFO(syevj_variant_name(alg) << " matrix " << k);
        CHECK(a.info[k] == 0);
        CHECK(b.info[k] == 0);
        CHECK(res_default[k] <= tol);
        CHECK(res_loose[k] <= loose);
        CHECK(sw_loose[k] <= sw_default[k]);
        saved += sw_default[k] - sw_loose[k];
      }
      if (syevj_iterates(alg)) CHECK(saved > 0);  // the tridiagonal method runs no sweeps to save
    }
  }
}

TEMPLATE_TEST_CASE("syevj: sort = 0 returns the same eigenpairs, unsorted", "[syevj][batch][params]", BT_SYEVJ_TYPES) {
  using T = TestType;
  using R = real_t<T>;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend)) {
      if (!syevj_variant_exists<T>(alg)) continue;  // MIXED: double types only
      const int n = syevj_variant_claims<T>(alg, 12, true) ? 12 : 33;  // GRID: n >= 32
      const auto mats = mixed_batch<T>(n, 3, 33);
      ParamsGuard p;
      REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      SyevjOptions opt;
      opt.params = p;
      const SyevjRun<T> sorted = run_syevj<T>(h, ptrs(mats), n, opt);
      REQUIRE(batcheigParamsSetSortEigenvalues(p, 0) == BATCHEIG_STATUS_SUCCESS);
      const SyevjRun<T> raw = run_syevj<T>(h, ptrs(mats), n, opt);
      REQUIRE(sorted.status == BATCHEIG_STATUS_SUCCESS);
      REQUIRE(raw.status == BATCHEIG_STATUS_SUCCESS);
      int unsorted = 0;
      for (int b = 0; b < 3; ++b) {
        INFO(syevj_variant_name(alg) << " matrix " << b);
        check_syevj_matrix(mats[b].a, raw, b, oracle_heev(mats[b].a, n), true, /*sorted=*/false);
        std::vector<R> w(raw.eigenvalues(b), raw.eigenvalues(b) + n);
        unsorted += !std::is_sorted(w.begin(), w.end());
        std::sort(w.begin(), w.end());
        CHECK(std::memcmp(w.data(), sorted.eigenvalues(b), sizeof(R) * n) == 0);  // a permutation
      }
      // The iteration does not happen to sort them; the tridiagonal method
      // finds the eigenvalues in ascending order whatever sort says.
      if (syevj_iterates(alg)) CHECK(unsorted > 0);
      else CHECK(unsorted == 0);
    }
  }
}

TEMPLATE_TEST_CASE("syevj: params that do not concern syevj leave results bitwise unchanged", "[syevj][batch][params]",
                   BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    const int n = 10;
    const auto mats = mixed_batch<T>(n, 4, 44);
    SyevjOptions opt;
    const SyevjRun<T> a = run_syevj<T>(h, ptrs(mats), n, opt);
    ParamsGuard p;
    REQUIRE(batcheigParamsSetMaxIterations(p, 3) == BATCHEIG_STATUS_SUCCESS);
    opt.params = p;
    const SyevjRun<T> b = run_syevj<T>(h, ptrs(mats), n, opt);
    REQUIRE(a.status == BATCHEIG_STATUS_SUCCESS);
    REQUIRE(b.status == BATCHEIG_STATUS_SUCCESS);
    for (int k = 0; k < 4; ++k) expect_same_matrix_results(a, k, b, k);
  }
}
