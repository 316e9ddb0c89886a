// The batcheig handle and params every batcheig implementation of the bench
// runs with (geev and syevj, host and device arrays): a handle on the backend
// named by --backend and a params object carrying --algorithm; for host
// arrays on the CUDA backend also --chunk / --streams
// (batcheigParamsSetStreaming) and --devices (batcheigSetDevices), each set
// only when given (host_streaming.hpp).
#pragma once

#include <batcheig.h>

#include <stdexcept>
#include <string>

#include "bench_common.hpp"
#include "params_shim.h"

namespace bench {

inline void check_batcheig(batcheigStatus_t st, const char *what) {
    if (st != BATCHEIG_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + batcheigGetStatusString(st));
}

// A handle on the backend named by --backend and a params object carrying
// the --algorithm override (0, BATCHEIG_ALG_AUTO, unless given), the
// streaming settings when --chunk or --streams was given, and the device
// list when --devices was (which needs a CUDA handle).
class BatcheigSession {
public:
    explicit BatcheigSession(const Options &opt) {
        batcheigBackend_t b = BATCHEIG_BACKEND_HOST;
        if (opt.backend == "auto") b = BATCHEIG_BACKEND_AUTO;
        else if (opt.backend == "cuda") b = BATCHEIG_BACKEND_CUDA;
        else if (opt.backend != "host") throw std::runtime_error("unknown backend '" + opt.backend + "'");
        check_batcheig(batcheigCreateWithBackend(&h_, b), "batcheigCreateWithBackend");
        try {
            check_batcheig(batcheigGetBackend(h_, &backend_), "batcheigGetBackend");
            check_batcheig(batcheigCreateParams(&p_), "batcheigCreateParams");
            const std::string what = "batcheigParamsSetAlgorithm(" + std::to_string(opt.algorithm) + ")";
            check_batcheig(bench_params_set_algorithm(p_, opt.algorithm), what.c_str());
            if (opt.streaming_given) {
                const std::string st = "batcheigParamsSetStreaming(" + std::to_string(opt.chunk) + ", " +
                                       std::to_string(opt.streams) + ")";
                check_batcheig(batcheigParamsSetStreaming(p_, opt.chunk, opt.streams), st.c_str());
            }
            if (!opt.devices.empty()) {
                if (backend_ != BATCHEIG_BACKEND_CUDA)
                    throw std::runtime_error("--devices: the batcheig handle (--backend " + opt.backend +
                                             ") does not run on the CUDA backend");
                std::string st = "batcheigSetDevices(";
                for (size_t k = 0; k < opt.devices.size(); ++k) st += (k ? "," : "") + std::to_string(opt.devices[k]);
                st += ")";
                check_batcheig(batcheigSetDevices(h_, (int)opt.devices.size(), opt.devices.data()), st.c_str());
            }
        } catch (...) {
            batcheigDestroyParams(p_);
            batcheigDestroy(h_);
            throw;
        }
        algorithm_ = opt.algorithm;
    }
    ~BatcheigSession() {
        batcheigDestroyParams(p_);
        batcheigDestroy(h_);
    }
    BatcheigSession(const BatcheigSession &) = delete;
    BatcheigSession &operator=(const BatcheigSession &) = delete;

    batcheigHandle_t handle() const { return h_; }
    batcheigParams_t params() const { return p_; }
    batcheigBackend_t backend() const { return backend_; }  // as resolved (never AUTO)
    int algorithm() const { return algorithm_; }
    // Throws on failure, naming the call, the backend and the algorithm
    // (nothing is built on success: run() calls this inside the timed region).
    void check(batcheigStatus_t st, const char *call) const {
        if (st == BATCHEIG_STATUS_SUCCESS) return;
        throw std::runtime_error(std::string(call) + " (backend " +
                                 (backend_ == BATCHEIG_BACKEND_CUDA ? "cuda" : "host") + ", algorithm " +
                                 std::to_string(algorithm_) + ") failed: " + batcheigGetStatusString(st));
    }

private:
    batcheigHandle_t h_ = nullptr;
    batcheigParams_t p_ = nullptr;
    batcheigBackend_t backend_ = BATCHEIG_BACKEND_HOST;
    int algorithm_ = 0;
};

}  // namespace bench
