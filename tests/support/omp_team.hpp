// OmpTeam: an execution team (src/core/team.hpp) of P OpenMP threads, so
// that the team code paths of the core routines -- split loops, leader
// writes, barriers, collective reductions -- run on a CPU without a GPU.
//
// Usage: one OmpTeamShared per problem, created outside the parallel region;
// inside `#pragma omp parallel num_threads(P)` every thread builds its own
// OmpTeam from it and calls the core routine with identical arguments:
//
//   bt::OmpTeamShared shared(P);
//   #pragma omp parallel num_threads(P)
//   {
//     bt::OmpTeam tm(shared);                  // rank = omp_get_thread_num()
//     try { info[tm.rank()] = core::geev<C>(tm, ...); }
//     catch (const bt::TeamDivergence &e) { msg[tm.rank()] = e.what(); }
//   }
//
// Semantics (those of the contract in team.hpp and of cuda::BlockTeam):
//   rank()      omp_get_thread_num(), size() = P, leader() = rank 0;
//   first(lo)   the smallest index >= lo congruent to rank modulo P;
//   sync()      a barrier of the P threads (see "Barrier" below);
//   sum/max/min one slot per member in a shared scratch array; after the
//               barrier every member combines all P slots in the same fixed
//               order 0, 1, ..., P-1 with the ops of cuda::BlockTeam
//               (a + b, b > a ? b : a, b < a ? b : a), so every member gets
//               the bitwise same result. float, double, int (core::index_t),
//               std::int64_t.
// Every collective is a full barrier with acquire/release ordering, so all
// writes made before a collective are visible to every member after it.
//
// Barrier. Default (OmpBarrier::Blocking): an arrival counter and a
// generation word (std::atomic, acquire/release); a waiter spins briefly,
// then sleeps on a condition variable. Its cost does not depend on
// OMP_WAIT_POLICY / GOMP_SPINCOUNT or on other load. `#pragma omp barrier`
// (OmpBarrier::OpenMP, or BATCHEIG_TEST_TEAM_BARRIER=omp) gives the same
// semantics -- an orphaned barrier is fine as long as every thread of the
// team reaches it, which the team contract guarantees -- but with P <= cores
// libgomp spins up to GOMP_SPINCOUNT (300000) before sleeping, so when the
// partner thread is descheduled (CI runs two test binaries at once on two
// cores) a barrier can cost 0.5-1 ms instead of microseconds. Measured on
// the 2-core development machine: 0.46-1.1 ms per P = 2 barrier in some runs
// next to three busy processes, and one default run of test_geev_team with
// the OpenMP barrier took 10 min 54 s during a heavy parallel build (about
// 25 s otherwise, with either barrier).
//
// Cost: one barrier per collective. The reduction scratch is
// double-buffered (slot set k % 2 for the k-th collective): a member can
// only write set k % 2 again at collective k + 2, after every member has
// passed collective k + 1 and hence finished reading collective k, so no
// second barrier is needed to protect the slots.
//
// Divergence check: every collective, sync() included, writes a tag (its
// sequence number, kind and value type) into the member's slot; after the
// barrier each member compares all P tags. If the members reached different
// collectives (a branch that not every member took, or a different number
// of syncs), all of them see the mismatch at the same barrier and throw
// TeamDivergence, which the caller catches inside the parallel region. This
// turns "the barriers silently paired up wrong" into a precise failure.
// (A divergence that leaves members with different barrier counts can still
// hang; the tests arm CallWatchdog for that.)
#ifndef BATCHEIG_TESTS_SUPPORT_OMP_TEAM_HPP
#define BATCHEIG_TESTS_SUPPORT_OMP_TEAM_HPP

#include <omp.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/team.hpp"
#include "core/types.hpp"

namespace bt {

/// Thrown by every member of an OmpTeam at the first collective operation
/// at which the members disagree (see the header comment).
struct TeamDivergence : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// How OmpTeam's members wait for each other (see the header comment).
enum class OmpBarrier { Blocking, OpenMP };

/// BATCHEIG_TEST_TEAM_BARRIER=omp selects `#pragma omp barrier`; default Blocking.
inline OmpBarrier default_omp_barrier() {
  const char *e = std::getenv("BATCHEIG_TEST_TEAM_BARRIER");
  return (e != nullptr && std::strcmp(e, "omp") == 0) ? OmpBarrier::OpenMP : OmpBarrier::Blocking;
}

/// State that the members of one OmpTeam share: barrier, reduction slots
/// and per-member counters. Create it before the parallel region.
class OmpTeamShared {
 public:
  explicit OmpTeamShared(int p, OmpBarrier kind = default_omp_barrier())
      : p_(p), kind_(kind), slots_(2 * static_cast<size_t>(p)), members_(static_cast<size_t>(p)) {
    if (p < 1) throw std::invalid_argument("OmpTeamShared: team size must be >= 1");
  }
  int size() const { return p_; }
  OmpBarrier barrier_kind() const { return kind_; }
  /// Collectives (syncs + reductions) member r took part in.
  std::uint64_t collectives(int r) const { return members_[static_cast<size_t>(r)].seq; }
  std::uint64_t syncs(int r) const { return members_[static_cast<size_t>(r)].syncs; }
  std::uint64_t reductions(int r) const { return members_[static_cast<size_t>(r)].seq - members_[static_cast<size_t>(r)].syncs; }

 private:
  friend class OmpTeam;
  struct alignas(64) Slot {
    std::uint64_t tag;
    unsigned char value[8];
  };
  // Each member's counters in their own cache line (only member r writes
  // members_[r]; they live here, not in OmpTeam, so that copies of an
  // OmpTeam object stay consistent).
  struct alignas(64) Member {
    std::uint64_t seq = 0;
    std::uint64_t syncs = 0;
  };
  // Every member calls this the same number of times.
  void barrier() {
    if (kind_ == OmpBarrier::OpenMP) {
#pragma omp barrier
      return;
    }
    const std::uint32_t g = gen_.load(std::memory_order_acquire);
    // acq_rel: the last arrival acquires every member's earlier writes (the
    // RMWs on arrived_ form one release sequence) and publishes them with
    // the release store of gen_, which the waiters acquire.
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == p_ - 1) {
      arrived_.store(0, std::memory_order_relaxed);  // nobody arrives again before gen_ moves
      {
        std::lock_guard<std::mutex> lk(m_);  // a waiter cannot miss the wake-up
        gen_.store(g + 1, std::memory_order_release);
      }
      cv_.notify_all();
      return;
    }
    for (int i = 0; i < kSpin; ++i)
      if (gen_.load(std::memory_order_acquire) != g) return;
    std::unique_lock<std::mutex> lk(m_);
    cv_.wait(lk, [&] { return gen_.load(std::memory_order_acquire) != g; });
  }

  // Loads before sleeping: a few microseconds, enough for a partner on
  // another core (P <= free cores), short enough not to burn a time slice
  // when it is descheduled (libgomp spins up to GOMP_SPINCOUNT = 300000).
  static constexpr int kSpin = 4000;
  int p_;
  OmpBarrier kind_;
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<std::uint32_t> gen_{0};
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<Slot> slots_;  // [2][p]
  std::vector<Member> members_;
};

/// One member's handle on the team; build it inside the parallel region.
class OmpTeam {
 public:
  static constexpr bool serial = false;
  // The vote paths of the core routines run here too, so the tests check
  // their collectives.
  static constexpr bool wide = true;

  explicit OmpTeam(OmpTeamShared &s) : s_(&s), rank_(omp_get_thread_num()), p_(s.p_) {}

  batcheig::core::index_t rank() const { return rank_; }
  batcheig::core::index_t size() const { return p_; }
  batcheig::core::index_t first(batcheig::core::index_t lo) const {
    // (rank - lo) mod p in [0, p), also for lo > rank and negative lo.
    const batcheig::core::index_t d = ((rank_ - lo) % p_ + p_) % p_;
    return lo + d;
  }
  bool leader() const { return rank_ == 0; }

  void sync() const {
    ++s_->members_[rank_].syncs;
    collective(kSync, 0, nullptr);
  }

  template <class S>
  S sum(S v) const {
    return reduce(v, kSum, [](S a, S b) { return a + b; });
  }
  template <class S>
  S max(S v) const {
    return reduce(v, kMax, [](S a, S b) { return b > a ? b : a; });
  }
  template <class S>
  S min(S v) const {
    return reduce(v, kMin, [](S a, S b) { return b < a ? b : a; });
  }
  // A vote, checked like the reductions (a max over the members).
  bool any(bool v) const { return max(v ? 1 : 0) != 0; }

 private:
  enum Kind : std::uint64_t { kSync = 1, kSum = 2, kMax = 3, kMin = 4 };

  template <class S>
  static constexpr std::uint64_t type_code() {
    if constexpr (std::is_same_v<S, float>) return 1;
    else if constexpr (std::is_same_v<S, double>) return 2;
    else if constexpr (std::is_same_v<S, std::int64_t>) return 3;
    else if constexpr (std::is_same_v<S, int>) return 4;
    else return 5;
  }
  static const char *kind_name(std::uint64_t k) {
    switch (k) {
      case kSync: return "sync";
      case kSum: return "sum";
      case kMax: return "max";
      case kMin: return "min";
    }
    return "?";
  }
  static std::string describe(std::uint64_t tag) {
    static const char *types[] = {"-", "float", "double", "int64", "int", "other"};
    const std::uint64_t t = tag & 0xf, k = (tag >> 4) & 0xf;
    return std::string(kind_name(k)) + (k == kSync ? "" : std::string("<") + types[t <= 5 ? t : 5] + ">") +
           " #" + std::to_string(tag >> 8);
  }

  // Write (tag, value) into this member's slot of the current set, barrier,
  // check that every member reached the same collective. Returns the set.
  const OmpTeamShared::Slot *collective(std::uint64_t kind, std::uint64_t type, const void *value) const {
    if (omp_get_thread_num() != rank_ || omp_get_num_threads() != p_)
      throw TeamDivergence("OmpTeam used outside its parallel region or by another thread");
    OmpTeamShared::Member &me = s_->members_[rank_];
    const std::uint64_t seq = me.seq++;
    OmpTeamShared::Slot *set = s_->slots_.data() + (seq % 2) * p_;
    const std::uint64_t tag = (seq << 8) | (kind << 4) | type;
    set[rank_].tag = tag;
    if (value != nullptr) std::memcpy(set[rank_].value, value, sizeof(set[rank_].value));
    s_->barrier();
    for (int r = 0; r < p_; ++r) {
      if (set[r].tag != tag) {
        std::string msg = "team members diverged at a collective operation:";
        for (int q = 0; q < p_; ++q) msg += " member " + std::to_string(q) + ": " + describe(set[q].tag) + ";";
        throw TeamDivergence(msg);
      }
    }
    return set;
  }

  template <class S, class Op>
  S reduce(S v, std::uint64_t kind, Op op) const {
    static_assert(std::is_arithmetic_v<S> && sizeof(S) <= 8, "OmpTeam reduces float, double, int, std::int64_t");
    unsigned char buf[8] = {};
    std::memcpy(buf, &v, sizeof(S));
    const OmpTeamShared::Slot *set = collective(kind, type_code<S>(), buf);
    S r;
    std::memcpy(&r, set[0].value, sizeof(S));
    for (int q = 1; q < p_; ++q) {
      S x;
      std::memcpy(&x, set[q].value, sizeof(S));
      r = op(r, x);
    }
    return r;
  }

  OmpTeamShared *s_;
  int rank_;
  int p_;
};

}  // namespace bt

// The OpenMP team runs gehd2's two-sided form, so the tests check it.
namespace batcheig::core {
template <>
inline constexpr bool team_two_sided<bt::OmpTeam> = true;
}  // namespace batcheig::core

#endif  // BATCHEIG_TESTS_SUPPORT_OMP_TEAM_HPP
