// geevBatched batch semantics: per-matrix independence (bitwise equal to
// single-matrix calls), NaN/Inf isolation, forced non-convergence (LAPACK's
// partial-result meaning of info), leading dimensions > n, user workspace,
// the handle's workspace cache and params that must not change geev.
//
// Every case runs on each forced algorithm variant of each backend under test
// (geev_forced_variants(): AUTO resolves to one of them), skipping the
// (variant, n, jobs) a variant does not claim (geev_variant_claims(): the
// shared-memory CUDA variants at large n). The params case also runs AUTO,
// whose default path (no params object) it is about. The expectations are
// the LAPACK contract and hold for every variant.
#include <cmath>
#include <cstdio>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "catch_compat.hpp"
#include "support/backend.hpp"
#include "support/generators.hpp"
#include "support/geev_checks.hpp"
#include "support/geev_runner.hpp"
#include "support/lapacke_oracle.hpp"
#include "support/ratios.hpp"
#include "support/test_config.hpp"

using namespace bt;

#define BT_GEEV_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

/// Seven matrices of mixed families and magnitudes, all n x n.
template <class T>
std::vector<TestMatrix<T>> mixed_batch(int n, std::uint64_t salt) {
  const std::pair<Family, Magnitude> kinds[] = {
      {Family::RandomDense, Magnitude::Unit},   {Family::Jordan, Magnitude::Unit},
      {Family::Companion, Magnitude::Unit},     {Family::IllArith, Magnitude::Unit},
      {Family::ZeroRowsCols, Magnitude::Unit},  {Family::RandomDense, Magnitude::NearOverflow},
      {Family::OrthCluster, Magnitude::NearUnderflow},
  };
  std::vector<TestMatrix<T>> out;
  int k = 0;
  for (const auto &fm : kinds) out.push_back(make_matrix<T>(fm.first, fm.second, n, make_seed(77, salt, n, k++)));
  return out;
}

template <class T>
std::vector<std::vector<T>> data_of(const std::vector<TestMatrix<T>> &ms) {
  std::vector<std::vector<T>> out;
  for (const auto &m : ms) out.push_back(m.a);
  return out;
}

GeevOptions jobs(batcheigEigMode_t jl, batcheigEigMode_t jr, batcheigParams_t params = nullptr) {
  GeevOptions o;
  o.jobvl = jl;
  o.jobvr = jr;
  o.params = params;
  return o;
}

const batcheigEigMode_t V = BATCHEIG_EIG_MODE_VECTOR;
const batcheigEigMode_t N = BATCHEIG_EIG_MODE_NOVECTOR;

/// Force `alg` on `p` (other settings of `p` are kept).
void force_algorithm(const ParamsGuard &p, batcheigAlgorithm_t alg) {
  REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
}

/// Whether `alg` claims order n with the jobs of `opt` (unclaimed cases are skipped).
template <class T>
bool claims(batcheigAlgorithm_t alg, int n, const GeevOptions &opt) {
  return geev_variant_claims<T>(alg, n, opt.jobvl == V, opt.jobvr == V);
}

}  // namespace

TEMPLATE_TEST_CASE("geev batch: every matrix's results are bitwise those of a single-matrix call",
                   "[geev][batch]", BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      force_algorithm(p, alg);
      for (const int n : {1, 2, 3, 5, 8, 17, 33, 64}) {
        const auto ms = mixed_batch<T>(n, 1);
        const auto data = data_of(ms);
        for (const auto &opt : {jobs(V, V, p), jobs(N, N, p), jobs(V, N, p)}) {
          if (!claims<T>(alg, n, opt)) continue;
          INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg)
                                   << " n=" << n << " jobvl=" << job_name(opt.jobvl)
                                   << " jobvr=" << job_name(opt.jobvr));
          const GeevRun<T> batch = run_geev<T>(h, n, data, opt);
          REQUIRE(batch.status == BATCHEIG_STATUS_SUCCESS);
          for (int b = 0; b < batch.batch; ++b) {
            INFO("batch index " << b << ": " << ms[b].info.describe());
            const GeevRun<T> single = run_geev_single<T>(h, data[b], n, opt);
            REQUIRE(single.status == BATCHEIG_STATUS_SUCCESS);
            CHECK(same_bytes(output_bytes(batch, b), output_bytes(single, 0)));
            if (opt.jobvl == V && opt.jobvr == V) check_geev_matrix(ms[b], batch, b, oracle_geev(ms[b].a, n));
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("geev batch: many small matrices (thread partitioning) equal single calls", "[geev][batch]",
                   BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const int n : {3, 9}) {
      std::vector<std::vector<T>> data;
      for (int b = 0; b < 301; ++b)
        data.push_back(make_matrix<T>(b % 5 == 0 ? Family::Companion : Family::RandomDense, Magnitude::Unit, n,
                                      make_seed(5, n, b))
                           .a);
      for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
        ParamsGuard p;
        force_algorithm(p, alg);
        const GeevOptions opt = jobs(V, V, p);
        if (!claims<T>(alg, n, opt)) continue;
        INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg)
                                 << " n=" << n << " batch 301");
        const GeevRun<T> batch = run_geev<T>(h, n, data, opt);
        REQUIRE(batch.status == BATCHEIG_STATUS_SUCCESS);
        int mismatches = 0;
        for (int b = 0; b < batch.batch; ++b) {
          const GeevRun<T> single = run_geev_single<T>(h, data[b], n, opt);
          mismatches += (output_bytes(batch, b) != output_bytes(single, 0));
        }
        CHECK(mismatches == 0);
      }
    }
  }
}

namespace {

enum class BadKind { NaN, PosInf, NegInf, ImagNaN };

const char *bad_kind_name(BadKind k) {
  switch (k) {
    case BadKind::NaN: return "NaN";
    case BadKind::PosInf: return "+Inf";
    case BadKind::NegInf: return "-Inf";
    case BadKind::ImagNaN: return "NaN in the imaginary part";
  }
  return "?";
}

template <class T>
void poison(std::vector<T> &a, int n, int i, int j, BadKind k) {
  using R = real_t<T>;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  const R inf = std::numeric_limits<R>::infinity();
  T &x = a[static_cast<size_t>(j) * n + i];
  R v = nan;
  if (k == BadKind::PosInf) v = inf;
  if (k == BadKind::NegInf) v = -inf;
  if constexpr (is_complex_v<T>) {
    x = (k == BadKind::ImagNaN) ? T(x.real(), nan) : T(v, x.imag());
  } else {
    x = v;
  }
}

template <class T>
void nonfinite_isolation(const std::vector<BadKind> &kinds) {
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      force_algorithm(p, alg);
      for (const int n : {1, 3, 16, 40})
        for (const BadKind kind : kinds) {
          if (kind == BadKind::ImagNaN && !is_complex_v<T>) continue;
          for (const auto &opt : {jobs(V, V, p), jobs(N, N, p)}) {
            if (!claims<T>(alg, n, opt)) continue;
            const auto ms = mixed_batch<T>(n, 2);
            std::vector<std::vector<T>> with = data_of(ms), without;
            const int bad = 3;
            // A single bad entry, in the last row of the first column (below
            // the Hessenberg band for n > 2) or on the diagonal.
            const int i = (n % 2 == 0) ? n - 1 : n / 2, j = (n % 2 == 0) ? 0 : n / 2;
            poison(with[bad], n, i, j, kind);
            for (int b = 0; b < static_cast<int>(with.size()); ++b)
              if (b != bad) without.push_back(with[b]);
            INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg)
                                     << " n=" << n << " bad entry " << bad_kind_name(kind) << " at (" << i << ","
                                     << j << ") jobvl=" << job_name(opt.jobvl) << " jobvr=" << job_name(opt.jobvr));
            const GeevRun<T> rw = run_geev<T>(h, n, with, opt);
            const GeevRun<T> ro = run_geev<T>(h, n, without, opt);
            REQUIRE(rw.status == BATCHEIG_STATUS_SUCCESS);
            REQUIRE(ro.status == BATCHEIG_STATUS_SUCCESS);
            CHECK(rw.info[bad] == BATCHEIG_INFO_NONFINITE);
            const int non_nan = count_non_nan_outputs(rw, bad);
            INFO("outputs of the bad matrix that are not (written) NaN: " << non_nan);
            CHECK(non_nan == 0);
            for (int b = 0, k = 0; b < rw.batch; ++b) {
              if (b == bad) continue;
              INFO("neighbour " << b << " (" << ms[b].info.describe() << ")");
              CHECK(rw.info[b] == 0);
              CHECK(same_bytes(output_bytes(rw, b), output_bytes(ro, k)));
              ++k;
            }
          }
        }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("geev batch: a NaN matrix is isolated (info = NONFINITE, NaN outputs, neighbours unchanged)",
                   "[geev][batch][nonfinite]", BT_GEEV_TYPES) {
  nonfinite_isolation<TestType>({BadKind::NaN, BadKind::ImagNaN});
}

TEMPLATE_TEST_CASE("geev batch: an Inf matrix is isolated (info = NONFINITE, NaN outputs, neighbours unchanged)",
                   "[geev][batch][nonfinite]", BT_GEEV_TYPES) {
  nonfinite_isolation<TestType>({BadKind::PosInf, BadKind::NegInf});
}

TEMPLATE_TEST_CASE("geev batch: a batch of only non-finite matrices", "[geev][batch][nonfinite]", BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    const int n = 6;
    std::vector<std::vector<T>> data;
    for (int b = 0; b < 4; ++b) {
      auto a = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(9, b)).a;
      poison(a, n, b, (b * 5) % n, b % 2 ? BadKind::PosInf : BadKind::NaN);
      data.push_back(a);
    }
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      force_algorithm(p, alg);
      const GeevOptions opt = jobs(V, V, p);
      if (!claims<T>(alg, n, opt)) continue;
      INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg));
      const GeevRun<T> r = run_geev<T>(h, n, data, opt);
      REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
      for (int b = 0; b < r.batch; ++b) {
        INFO("matrix " << b);
        CHECK(r.info[b] == BATCHEIG_INFO_NONFINITE);
        CHECK(count_non_nan_outputs(r, b) == 0);
      }
    }
  }
}

// Forced non-convergence. batcheig.h: info = k in 1..n means QR did not
// converge; eigenvalues k+1..n (1-based) are valid, the others and all
// vectors of that matrix are NaN. LAPACKE cannot be given an iteration cap
// (ITMAX is a constant inside xLAHQR), so the valid eigenvalues are compared
// with LAPACKE's full spectrum: each must pair with a distinct LAPACKE
// eigenvalue within the usual tolerance 20 n u ||A|| kappa_j.
namespace {

template <class T>
void check_partial_result(const TestMatrix<T> &tm, const GeevRun<T> &r, int b, int *n_failed) {
  using R = real_t<T>;
  using W = acc_t<T>;
  const int n = tm.n();
  const int info = r.info[b];
  INFO(precision_name<T>() << " | " << tm.info.describe() << " | info = " << info);
  REQUIRE(info >= 0);
  REQUIRE(info <= n);
  const OracleGeev<T> o = oracle_geev(tm.a, n);
  REQUIRE(o.info == 0);
  const ScaledMatrix<T> S = scale_matrix(tm.a, n);
  const std::vector<W> unit = eigenvalue_units(S, tm.info, o);
  std::vector<std::complex<W>> ref(n), got;
  for (int j = 0; j < n; ++j) ref[j] = S.scale(o.w[j]);
  int invalid_not_nan = 0, valid_not_finite = 0;
  for (int j = 0; j < n; ++j) {
    const std::complex<R> e = r.eig(b, j);
    if (j < info) {
      bool nan_written;
      if constexpr (is_complex_v<T>) {
        nan_written = std::isnan(e.real()) && std::isnan(e.imag()) && !is_sentinel(r.W[static_cast<size_t>(b) * n + j]);
      } else {
        const size_t k = static_cast<size_t>(b) * n + j;
        nan_written = std::isnan(r.wr[k]) && std::isnan(r.wi[k]) && !is_sentinel(r.wr[k]) && !is_sentinel(r.wi[k]);
      }
      invalid_not_nan += !nan_written;
    } else {
      if (!std::isfinite(e.real()) || !std::isfinite(e.imag())) ++valid_not_finite;
      got.push_back(S.scale(e));
    }
  }
  CHECK(valid_not_finite == 0);
  INFO("eigenvalues 1..info that are not NaN: " << invalid_not_nan);
  CHECK(invalid_not_nan == 0);
  if constexpr (!is_complex_v<T>) {
    const size_t off = static_cast<size_t>(b) * n + info;
    const std::string packing = check_pair_packing<R>(n - info, r.wr.data() + off, r.wi.data() + off);
    INFO("conjugate-pair packing of the valid eigenvalues: " << packing);
    CHECK(packing.empty());
  }
  const W em = match_eigenvalues(got, ref, unit, static_cast<W>(kGeevThreshold));
  INFO("valid eigenvalues vs LAPACKE's spectrum, bottleneck ratio " << em);
  CHECK(em <= static_cast<W>(kGeevThreshold));
  if (info > 0) {
    ++*n_failed;
    // "no eigenvectors were computed": vectors of that matrix are NaN.
    int non_nan = 0;
    auto block = [&](const T *Vp, int ld) {
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const T &x = Vp[static_cast<size_t>(j) * ld + i];
          bool isnan_written;
          if constexpr (is_complex_v<T>)
            isnan_written = std::isnan(x.real()) && std::isnan(x.imag()) && !is_sentinel(x);
          else
            isnan_written = std::isnan(x) && !is_sentinel(x);
          non_nan += !isnan_written;
        }
    };
    if (r.want_vl()) block(r.vl_of(b), r.ldvl);
    if (r.want_vr()) block(r.vr_of(b), r.ldvr);
    INFO("vector entries of a non-converged matrix that are not NaN: " << non_nan);
    CHECK(non_nan == 0);
  } else {
    check_geev_matrix(tm, r, b, o);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("geev: forced non-convergence (max iterations = 1) gives LAPACK's partial results",
                   "[geev][convergence]", BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      force_algorithm(p, alg);
      REQUIRE(batcheigParamsSetMaxIterations(p, 1) == BATCHEIG_STATUS_SUCCESS);
      INFO("backend " << backend_name(backend) << " algorithm " << algorithm_name(alg) << ", max iterations 1");
      int total = 0, failed = 0;
      for (const int n : {10, 12, 16, 23, 32, 40}) {
        const GeevOptions opt = jobs(V, V, p), optn = jobs(N, N, p);
        if (!claims<T>(alg, n, opt) || !claims<T>(alg, n, optn)) continue;
        std::vector<TestMatrix<T>> ms;
        for (int b = 0; b < 6; ++b)
          ms.push_back(make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(31, n, b)));
        const auto data = data_of(ms);
        const GeevRun<T> r = run_geev<T>(h, n, data, opt);
        REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
        for (int b = 0; b < r.batch; ++b) {
          check_partial_result(ms[b], r, b, &failed);
          ++total;
          if (verbose_tests())
            std::printf("  %s %s n=%d matrix %d: info=%d (valid eigenvalues %d)\n", backend_name(backend),
                        algorithm_name(alg), n, b, r.info[b], n - r.info[b]);
        }
        // Without vectors: the same info and bitwise the same valid eigenvalues.
        const GeevRun<T> rn = run_geev<T>(h, n, data, optn);
        REQUIRE(rn.status == BATCHEIG_STATUS_SUCCESS);
        for (int b = 0; b < r.batch; ++b) {
          INFO("n=" << n << " matrix " << b << ": eigenvalues-only run");
          CHECK(rn.info[b] == r.info[b]);
          if (rn.info[b] == r.info[b]) {
            int diff = 0;
            for (int j = r.info[b]; j < n; ++j) {
              const auto a = r.eig(b, j), c = rn.eig(b, j);
              diff += !(bits_equal(a.real(), c.real()) && bits_equal(a.imag(), c.imag()));
            }
            CHECK(diff == 0);
          }
        }
      }
      if (verbose_tests())
        std::printf("%s %s %s: max iterations 1: %d of %d random matrices reported non-convergence\n",
                    precision_name<T>().c_str(), backend_name(backend), algorithm_name(alg), failed, total);
      INFO(precision_name<T>() << ": " << failed << " of " << total << " matrices reported non-convergence");
      CHECK(total > 0);
      CHECK(2 * failed >= total);  // "info > 0 for most matrices"
    }
  }
}

TEMPLATE_TEST_CASE("geev: small iteration caps give partial results (some eigenvalues deflated, then failure)",
                   "[geev][convergence]", BT_GEEV_TYPES) {
  // With a cap of 1, QR fails before the first deflation (info = n, no valid
  // eigenvalue). Caps of a few iterations let some eigenvalues deflate at
  // the bottom before a later deflation runs out of iterations, so
  // 0 < info < n and eigenvalues info+1..n must be correct.
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      INFO("backend " << backend_name(backend) << " algorithm " << algorithm_name(alg));
      int partial = 0, total = 0, converged = 0, failed = 0;
      for (const int cap : {2, 3, 4, 6, 8}) {
        ParamsGuard p;
        force_algorithm(p, alg);
        REQUIRE(batcheigParamsSetMaxIterations(p, cap) == BATCHEIG_STATUS_SUCCESS);
        for (const int n : {12, 24, 40}) {
          const GeevOptions opt = jobs(V, V, p);
          if (!claims<T>(alg, n, opt)) continue;
          std::vector<TestMatrix<T>> ms;
          for (int b = 0; b < 4; ++b)
            ms.push_back(make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(37, n, b)));
          const GeevRun<T> r = run_geev<T>(h, n, data_of(ms), opt);
          REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
          for (int b = 0; b < r.batch; ++b) {
            INFO("max iterations " << cap);
            check_partial_result(ms[b], r, b, &failed);
            ++total;
            partial += (r.info[b] > 0 && r.info[b] < n);
            converged += (r.info[b] == 0);
            if (verbose_tests())
              std::printf("  %s %s cap=%d n=%d matrix %d: info=%d\n", backend_name(backend), algorithm_name(alg),
                          cap, n, b, r.info[b]);
          }
        }
      }
      if (verbose_tests())
        std::printf("%s %s %s: small caps: %d partial, %d converged, %d total\n", precision_name<T>().c_str(),
                    backend_name(backend), algorithm_name(alg), partial, converged, total);
      INFO(precision_name<T>() << ": " << partial << " partial results (0 < info < n) of " << total);
      CHECK(partial > 0);  // the partial-result path was exercised
    }
  }
}

TEMPLATE_TEST_CASE("geev: non-convergence keeps eigenvalues isolated by balancing (LAPACK behaviour)",
                   "[geev][convergence]", BT_GEEV_TYPES) {
  // A = [[B, C], [0, U]] with U 3x3 upper triangular: balancing's
  // permutation isolates U's diagonal at positions n-2..n without any QR
  // iteration, so even a failing QR leaves them valid: info <= n-3 and U's
  // diagonal is among the valid eigenvalues, exactly (xGEBAL + xHSEQR do
  // this in LAPACK).
  using T = TestType;
  using R = real_t<T>;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      force_algorithm(p, alg);
      REQUIRE(batcheigParamsSetMaxIterations(p, 1) == BATCHEIG_STATUS_SUCCESS);
      for (const int n : {12, 20, 33}) {
        const GeevOptions opt = jobs(V, V, p);
        if (!claims<T>(alg, n, opt)) continue;
        TestMatrix<T> tm = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(41, n));
        const T diag[3] = {T(R(0.25)), T(R(-0.5)), T(R(0.75))};
        for (int j = 0; j < n; ++j)
          for (int i = n - 3; i < n; ++i) {
            T &x = tm.a[static_cast<size_t>(j) * n + i];
            if (j < i) x = T(0);
            if (j == i) x = diag[i - (n - 3)];
          }
        const GeevRun<T> r = run_geev_single<T>(h, tm.a, n, opt);
        REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
        INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg)
                                 << " n=" << n << " info=" << r.info[0]);
        int dummy = 0;
        check_partial_result(tm, r, 0, &dummy);
        CHECK(r.info[0] <= n - 3);
        for (const T &d : diag) {
          bool found = false;
          for (int j = std::max(r.info[0], 0); j < n && !found; ++j) {
            const auto e = r.eig(0, j);
            found = (e.real() == to_wide<R>(d).real() && e.imag() == R(0));
          }
          INFO("isolated eigenvalue " << to_wide<R>(d).real() << " among the valid ones");
          CHECK(found);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("geev: leading dimensions larger than n (padding untouched, not read)", "[geev][batch][ld]",
                   BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      force_algorithm(p, alg);
      for (const int n : {1, 2, 5, 17, 40}) {
        auto ms = mixed_batch<T>(n, 3);
        ms.resize(3);
        const auto data = data_of(ms);
        for (const auto &base : {jobs(V, V, p), jobs(V, N, p), jobs(N, V, p)}) {
          if (!claims<T>(alg, n, base)) continue;
          GeevOptions opt = base;
          opt.lda_pad = 3;
          opt.ldvl_pad = 2;
          opt.ldvr_pad = 5;
          opt.pass_unwanted_vectors = true;
          INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg)
                                   << " n=" << n << " lda=n+3 ldvl=n+2 ldvr=n+5 jobvl=" << job_name(opt.jobvl)
                                   << " jobvr=" << job_name(opt.jobvr));
          const GeevRun<T> r = run_geev<T>(h, n, data, opt);
          REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
          // A's padding rows hold sentinel NaNs: reading them would flag the
          // matrix as non-finite (info != 0); writing them is caught here.
          int a_pad_touched = 0;
          for (int b = 0; b < r.batch; ++b)
            for (int j = 0; j < n; ++j)
              for (int i = n; i < r.lda; ++i)
                a_pad_touched +=
                    !bits_equal(r.A[(static_cast<size_t>(b) * n + j) * r.lda + i], sentinel_value<T>());
          INFO("padding entries of A modified: " << a_pad_touched);
          CHECK(a_pad_touched == 0);
          for (int b = 0; b < r.batch; ++b) check_geev_matrix(ms[b], r, b, oracle_geev(ms[b].a, n));
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("geev: user workspace (exact query size, oversized) gives the results of work = NULL",
                   "[geev][workspace]", BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      force_algorithm(p, alg);
      for (const int n : {1, 7, 12, 40, 100}) {
        const auto data = data_of(mixed_batch<T>(n, 4));
        for (const auto &base : {jobs(V, V, p), jobs(N, N, p), jobs(N, V, p)}) {
          if (!claims<T>(alg, n, base)) continue;
          INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg)
                                   << " n=" << n << " batch 7 jobvl=" << job_name(base.jobvl)
                                   << " jobvr=" << job_name(base.jobvr));
          const GeevRun<T> ref = run_geev<T>(h, n, data, base);
          REQUIRE(ref.status == BATCHEIG_STATUS_SUCCESS);
          for (const WorkMode wm : {WorkMode::ExactQuery, WorkMode::Oversized}) {
            GeevOptions opt = base;
            opt.work = wm;
            const GeevRun<T> r = run_geev<T>(h, n, data, opt);
            INFO((wm == WorkMode::ExactQuery ? "exact" : "oversized") << " workspace, query = " << r.lwork_query
                                                                       << " bytes");
            REQUIRE(r.query_status == BATCHEIG_STATUS_SUCCESS);
            REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
            CHECK(r.work_guard_intact);
            for (int b = 0; b < r.batch; ++b) {
              INFO("matrix " << b);
              CHECK(same_bytes(output_bytes(r, b), output_bytes(ref, b)));
            }
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("geev: the handle's cached workspace is reused correctly across sizes", "[geev][workspace]",
                   BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    // One handle for every variant: its cache also sees the workspaces of
    // the other variants (of different sizes and layouts).
    HandleGuard shared;
    BT_CREATE_HANDLE_OR_SKIP(shared, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      force_algorithm(p, alg);
      const std::pair<int, int> seq[] = {{5, 3}, {60, 2}, {5, 3}, {1, 4}, {33, 5}, {2, 1}};
      int step = 0;
      for (const auto &nb : seq) {
        const int n = nb.first;
        const GeevOptions opt = (step % 2) ? jobs(N, N, p) : jobs(V, V, p);
        if (!claims<T>(alg, n, opt)) {
          ++step;
          continue;
        }
        std::vector<std::vector<T>> data;
        for (int b = 0; b < nb.second; ++b)
          data.push_back(make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(51, step, b)).a);
        const GeevRun<T> r = run_geev<T>(shared, n, data, opt);
        HandleGuard fresh;
        BT_CREATE_HANDLE_OR_SKIP(fresh, backend);
        const GeevRun<T> f = run_geev<T>(fresh, n, data, opt);
        INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg)
                                 << " step " << step << " n=" << n << " batch " << nb.second);
        REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
        REQUIRE(f.status == BATCHEIG_STATUS_SUCCESS);
        for (int b = 0; b < r.batch; ++b) CHECK(same_bytes(output_bytes(r, b), output_bytes(f, b)));
        ++step;
      }
    }
  }
}

TEMPLATE_TEST_CASE("geev: params that do not concern geev leave results bitwise unchanged", "[geev][params]",
                   BT_GEEV_TYPES) {
  // AUTO (the default path: the reference call passes no params object) and
  // every forced variant (the reference call forces only the variant).
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    const int n = 20;
    const auto data = data_of(mixed_batch<T>(n, 6));
    for (const batcheigAlgorithm_t alg : geev_variants(backend)) {
      if (!claims<T>(alg, n, jobs(V, V))) continue;
      INFO(precision_name<T>() << " backend " << backend_name(backend) << " algorithm " << algorithm_name(alg));
      ParamsGuard only_alg;
      force_algorithm(only_alg, alg);
      const GeevRun<T> ref = run_geev<T>(h, n, data, jobs(V, V, alg == BATCHEIG_ALG_AUTO ? nullptr : only_alg.p));
      REQUIRE(ref.status == BATCHEIG_STATUS_SUCCESS);
      struct Case {
        const char *what;
        double tol;
        int maxit;
      };
      for (const Case c : {Case{"default params object", 0.0, 0}, Case{"tolerance 1e-3 (Jacobi only)", 1e-3, 0},
                           Case{"tolerance 1e-30 (Jacobi only)", 1e-30, 0}}) {
        ParamsGuard p;
        REQUIRE(batcheigParamsSetTolerance(p, c.tol) == BATCHEIG_STATUS_SUCCESS);
        REQUIRE(batcheigParamsSetMaxIterations(p, c.maxit) == BATCHEIG_STATUS_SUCCESS);
        if (alg != BATCHEIG_ALG_AUTO) force_algorithm(p, alg);
        const GeevRun<T> r = run_geev<T>(h, n, data, jobs(V, V, p));
        INFO(c.what);
        REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
        for (int b = 0; b < r.batch; ++b) CHECK(same_bytes(output_bytes(r, b), output_bytes(ref, b)));
      }
      {
        // max iterations 0 after a non-default value restores the default
        ParamsGuard p;
        if (alg != BATCHEIG_ALG_AUTO) force_algorithm(p, alg);
        REQUIRE(batcheigParamsSetMaxIterations(p, 1) == BATCHEIG_STATUS_SUCCESS);
        REQUIRE(batcheigParamsSetMaxIterations(p, 0) == BATCHEIG_STATUS_SUCCESS);
        const GeevRun<T> r = run_geev<T>(h, n, data, jobs(V, V, p));
        INFO("max iterations reset to 0 (default)");
        REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
        for (int b = 0; b < r.batch; ++b) CHECK(same_bytes(output_bytes(r, b), output_bytes(ref, b)));
      }
    }
  }
}
