#include "gpu.hpp"

#include <cstdio>
#include <stdexcept>

#if BATCHEIG_HAVE_CUDA
#include "cuda_util.hpp"
#endif

namespace bench::gpu {

#if BATCHEIG_HAVE_CUDA

std::string unavailable_reason() {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
    if (count == 0) return "cudaGetDeviceCount found 0 devices";
    return {};
}

void clear_last_error() { (void)cudaGetLastError(); }

std::string describe_device() {
    cudaDeviceProp p{};
    cuda::check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    char b[512];
    std::snprintf(b, sizeof b, "%s (sm_%d%d, %d SMs, %.1f GiB), CUDA runtime %d.%d, driver %d.%d", p.name, p.major,
                  p.minor, p.multiProcessorCount, p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), rt / 1000,
                  rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
    return b;
}

struct DeviceInput::State {
    void *host = nullptr;
    std::size_t bytes_per_matrix = 0;
    long long count = 0;
    bool registered = false;
    cuda::DeviceArray<unsigned char> pristine, working;
    cuda::Stream stream;
    cuda::EventTimer timer;
    ~State() {
        if (registered) cudaHostUnregister(host);
    }
};

DeviceInput::DeviceInput(const void *host, std::size_t bytes_per_matrix, long long count) : s_(new State) {
    s_->host = const_cast<void *>(host);
    s_->bytes_per_matrix = bytes_per_matrix;
    s_->count = count;
    const std::size_t bytes = bytes_per_matrix * (std::size_t)count;
    // Page-lock the caller's buffer in place rather than copying it into a
    // cudaMallocHost buffer: the upload then runs at DMA speed, without a
    // second multi-GB host array.
    cuda::check(cudaHostRegister(s_->host, bytes, cudaHostRegisterDefault), "cudaHostRegister");
    s_->registered = true;
    s_->pristine = cuda::DeviceArray<unsigned char>(bytes);
    s_->working = cuda::DeviceArray<unsigned char>(bytes);
}

DeviceInput::~DeviceInput() = default;

double DeviceInput::upload() {
    s_->timer.start(s_->stream.get());
    cuda::check(cudaMemcpyAsync(s_->pristine.get(), s_->host, s_->pristine.bytes(), cudaMemcpyHostToDevice,
                                s_->stream.get()),
                "cudaMemcpyAsync (upload of A)");
    return s_->timer.stop(s_->stream.get());
}

void DeviceInput::restore(long long count) {
    if (count > s_->count) throw std::logic_error("DeviceInput::restore: more matrices than uploaded");
    cuda::check(cudaMemcpyAsync(s_->working.get(), s_->pristine.get(), s_->bytes_per_matrix * (std::size_t)count,
                                cudaMemcpyDeviceToDevice, s_->stream.get()),
                "cudaMemcpyAsync (restore of A)");
    // Device-wide, so the implementations' own streams see the copy finished.
    cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

void *DeviceInput::working() const { return s_->working.get(); }
long long DeviceInput::count() const { return s_->count; }

#else  // no CUDA in this build

std::string unavailable_reason() { return "this build has no CUDA support (BATCHEIG_HAVE_CUDA off)"; }
std::string describe_device() { return "none (built without CUDA)"; }
void clear_last_error() {}

struct DeviceInput::State {};
DeviceInput::DeviceInput(const void *, std::size_t, long long) {
    throw std::runtime_error("DeviceInput: this build has no CUDA support");
}
DeviceInput::~DeviceInput() = default;
double DeviceInput::upload() { return 0; }
void DeviceInput::restore(long long) {}
void *DeviceInput::working() const { return nullptr; }
long long DeviceInput::count() const { return 0; }

#endif

}  // namespace bench::gpu
