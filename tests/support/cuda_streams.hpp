// Stream helpers of the CUDA-backend tests: a user stream set on a handle,
// and a gate that holds a stream until the test releases it.
#ifndef BATCHEIG_TESTS_SUPPORT_CUDA_STREAMS_HPP
#define BATCHEIG_TESTS_SUPPORT_CUDA_STREAMS_HPP

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "batcheig.h"
#include "catch_compat.hpp"

#ifndef CUDA_REQUIRE
#define CUDA_REQUIRE(call) REQUIRE((call) == cudaSuccess)
#endif

namespace bt {

/// Owns a stream (non-blocking with respect to the legacy default stream, so
/// that nothing the library might put there orders it) set on a handle;
/// restores the default stream on scope exit.
struct UserStream {
  cudaStream_t s = nullptr;
  batcheigHandle_t h = nullptr;
  explicit UserStream(batcheigHandle_t handle) : h(handle) {
    CUDA_REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    REQUIRE(batcheigSetStream(h, reinterpret_cast<batcheigStream_t>(s)) == BATCHEIG_STATUS_SUCCESS);
    batcheigStream_t got = nullptr;
    REQUIRE(batcheigGetStream(h, &got) == BATCHEIG_STATUS_SUCCESS);
    REQUIRE(reinterpret_cast<cudaStream_t>(got) == s);
  }
  UserStream(const UserStream &) = delete;
  UserStream &operator=(const UserStream &) = delete;
  ~UserStream() {
    batcheigSetStream(h, nullptr);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
};

/// Blocks the stream it is enqueued on (cudaLaunchHostFunc) until released,
/// or for at most 30 s so that a call that wrongly waits for the stream fails
/// instead of hanging.
struct StreamGate {
  std::atomic<bool> release{false}, finished{false}, timed_out{false};
  static void CUDART_CB hold(void *self) {
    auto *g = static_cast<StreamGate *>(self);
    const auto t0 = std::chrono::steady_clock::now();
    while (!g->release.load()) {
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(30)) {
        g->timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    g->finished = true;
  }
};

}  // namespace bt

#endif
