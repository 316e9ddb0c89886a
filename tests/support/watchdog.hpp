// A watchdog for library calls: a call that does not return within the
// limit (a hang, e.g. an iteration loop that NaN keeps alive) aborts the
// test process with a message naming the call, so ctest reports a failure
// within seconds instead of waiting for its own timeout.
//
// BATCHEIG_TEST_CALL_TIMEOUT=<seconds> (default 30; 0 disables). The
// largest single call of the suite takes milliseconds (well under a second
// with sanitizers).
//
// Usage: { CallWatchdog wd("Cgeev n=3 batch 7"); <call>; }
#ifndef BATCHEIG_TESTS_SUPPORT_WATCHDOG_HPP
#define BATCHEIG_TESTS_SUPPORT_WATCHDOG_HPP

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace bt {

namespace detail {

class WatchdogThread {
 public:
  static WatchdogThread &instance() {
    // Never destroyed: the detached thread keeps waiting on its members
    // until the process exits.
    static WatchdogThread *w = new WatchdogThread();
    return *w;
  }
  void arm(const std::string &what, int seconds) {
    std::lock_guard<std::mutex> lk(m_);
    what_ = what;
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    armed_ = true;
    cv_.notify_all();
  }
  void disarm() {
    std::lock_guard<std::mutex> lk(m_);
    armed_ = false;
  }

 private:
  WatchdogThread() : thread_([this] { loop(); }) { thread_.detach(); }
  void loop() {
    std::unique_lock<std::mutex> lk(m_);
    for (;;) {
      if (!armed_) {
        cv_.wait(lk);
        continue;
      }
      const auto deadline = deadline_;
      if (cv_.wait_until(lk, deadline) == std::cv_status::timeout && armed_ && deadline_ == deadline) {
        std::fprintf(stderr,
                     "\nbatcheig test watchdog: a library call did not return within the limit "
                     "(BATCHEIG_TEST_CALL_TIMEOUT): %s\n",
                     what_.c_str());
        std::fflush(stderr);
        std::abort();
      }
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::string what_;
  std::chrono::steady_clock::time_point deadline_{};
  bool armed_ = false;
  std::thread thread_;
};

inline int call_timeout_seconds() {
  const char *e = std::getenv("BATCHEIG_TEST_CALL_TIMEOUT");
  if (e == nullptr || *e == '\0') return 30;
  return std::atoi(e);
}

}  // namespace detail

/// Arms the watchdog for the lifetime of the object (one at a time; the
/// tests call the library from one thread).
class CallWatchdog {
 public:
  explicit CallWatchdog(const std::string &what) : active_(detail::call_timeout_seconds() > 0) {
    if (active_) detail::WatchdogThread::instance().arm(what, detail::call_timeout_seconds());
  }
  ~CallWatchdog() {
    if (active_) detail::WatchdogThread::instance().disarm();
  }
  CallWatchdog(const CallWatchdog &) = delete;
  CallWatchdog &operator=(const CallWatchdog &) = delete;

 private:
  bool active_;
};

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_WATCHDOG_HPP
