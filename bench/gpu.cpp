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

int device_count() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return count;
}

std::string describe_device(int ordinal) {
    cudaDeviceProp p{};
    cuda::check(cudaGetDeviceProperties(&p, ordinal), "cudaGetDeviceProperties");
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    char b[512];
    std::snprintf(b, sizeof b, "%s (sm_%d%d, %d SMs, %.1f GiB), CUDA runtime %d.%d, driver %d.%d", p.name, p.major,
                  p.minor, p.multiProcessorCount, p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), rt / 1000,
                  rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
    return b;
}

void *alloc_pinned(std::size_t bytes) {
    void *p = nullptr;
    if (bytes) cuda::check(cudaMallocHost(&p, bytes), "cudaMallocHost");
    return p;
}

void free_pinned(void *p) noexcept {
    if (p) cudaFreeHost(p);
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

namespace {
// Makes `device` current for the lifetime of the object, then restores the
// caller's (batcheig calls without a device list run on the current device).
class CurrentDevice {
public:
    explicit CurrentDevice(int device) {
        cuda::check(cudaGetDevice(&previous_), "cudaGetDevice");
        if (device != previous_) cuda::check(cudaSetDevice(device), "cudaSetDevice");
    }
    ~CurrentDevice() { cudaSetDevice(previous_); }
    CurrentDevice(const CurrentDevice &) = delete;
    CurrentDevice &operator=(const CurrentDevice &) = delete;

private:
    int previous_ = 0;
};

// Offsets of arrays of the given sizes packed into one buffer, each aligned
// to 256 bytes (as cudaMalloc'ed arrays are); the last entry is the total.
std::vector<std::size_t> packed_offsets(const std::vector<std::size_t> &bytes) {
    std::vector<std::size_t> off{0};
    for (std::size_t b : bytes) off.push_back(off.back() + (b + 255) / 256 * 256);
    return off;
}
}  // namespace

struct PinnedTransfer::State {
    int device = 0;
    std::vector<std::size_t> in, out, in_off, out_off;
    cuda::PinnedArray<unsigned char> h_in, h_out;
    cuda::DeviceArray<unsigned char> d_in, d_out;
    cudaStream_t stream = nullptr, stream2 = nullptr;  // stream2: duplex only, the outputs
    cudaEvent_t ev[3] = {nullptr, nullptr, nullptr};
    ~State() {  // never throws: also runs when the constructor failed
        int previous = 0;
        const bool switched = cudaGetDevice(&previous) == cudaSuccess && previous != device &&
                              cudaSetDevice(device) == cudaSuccess;
        for (cudaEvent_t e : ev)
            if (e) cudaEventDestroy(e);
        if (stream) cudaStreamDestroy(stream);
        if (stream2) cudaStreamDestroy(stream2);
        d_in = {};
        d_out = {};
        if (switched) cudaSetDevice(previous);
        (void)cudaGetLastError();
    }
};

PinnedTransfer::PinnedTransfer(int device, const std::vector<std::size_t> &input_bytes,
                               const std::vector<std::size_t> &output_bytes, bool duplex)
    : s_(new State) {
    s_->device = device;
    s_->in = input_bytes;
    s_->out = output_bytes;
    s_->in_off = packed_offsets(input_bytes);
    s_->out_off = packed_offsets(output_bytes);
    CurrentDevice on(device);
    s_->h_in = cuda::PinnedArray<unsigned char>(s_->in_off.back());
    s_->h_out = cuda::PinnedArray<unsigned char>(s_->out_off.back());
    s_->d_in = cuda::DeviceArray<unsigned char>(s_->in_off.back());
    s_->d_out = cuda::DeviceArray<unsigned char>(s_->out_off.back());
    cuda::check(cudaStreamCreateWithFlags(&s_->stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    if (duplex)
        cuda::check(cudaStreamCreateWithFlags(&s_->stream2, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    for (cudaEvent_t &e : s_->ev) cuda::check(cudaEventCreate(&e), "cudaEventCreate");
}

PinnedTransfer::~PinnedTransfer() = default;

PinnedTransfer::Times PinnedTransfer::measure() {
    start();
    return finish();
}

void PinnedTransfer::start() {
    CurrentDevice on(s_->device);
    State &s = *s_;
    cuda::check(cudaEventRecord(s.ev[0], s.stream), "cudaEventRecord");
    for (std::size_t k = 0; k < s.in.size(); ++k)
        cuda::check(cudaMemcpyAsync(s.d_in.get() + s.in_off[k], s.h_in.get() + s.in_off[k], s.in[k],
                                    cudaMemcpyHostToDevice, s.stream),
                    "cudaMemcpyAsync (pinned transfer, input)");
    cuda::check(cudaEventRecord(s.ev[1], s.stream), "cudaEventRecord");
    // Duplex: the outputs start with the inputs, on their own stream.
    cudaStream_t out = s.stream;
    if (s.stream2) {
        cuda::check(cudaStreamWaitEvent(s.stream2, s.ev[0], 0), "cudaStreamWaitEvent");
        out = s.stream2;
    }
    for (std::size_t k = 0; k < s.out.size(); ++k)
        cuda::check(cudaMemcpyAsync(s.h_out.get() + s.out_off[k], s.d_out.get() + s.out_off[k], s.out[k],
                                    cudaMemcpyDeviceToHost, out),
                    "cudaMemcpyAsync (pinned transfer, output)");
    cuda::check(cudaEventRecord(s.ev[2], out), "cudaEventRecord");
}

PinnedTransfer::Times PinnedTransfer::finish() {
    CurrentDevice on(s_->device);
    State &s = *s_;
    cuda::check(cudaEventSynchronize(s.ev[1]), "cudaEventSynchronize");
    cuda::check(cudaEventSynchronize(s.ev[2]), "cudaEventSynchronize");
    float a = 0, b = 0;
    cuda::check(cudaEventElapsedTime(&a, s.ev[0], s.ev[1]), "cudaEventElapsedTime");
    cuda::check(cudaEventElapsedTime(&b, s.stream2 ? s.ev[0] : s.ev[1], s.ev[2]), "cudaEventElapsedTime");
    Times t;
    t.h2d = a * 1e-3;
    t.d2h = b * 1e-3;
    return t;
}

#else  // no CUDA in this build

std::string unavailable_reason() { return "this build has no CUDA support (BATCHEIG_HAVE_CUDA off)"; }
int device_count() { return 0; }
std::string describe_device(int) { return "none (built without CUDA)"; }
void clear_last_error() {}
void *alloc_pinned(std::size_t) { throw std::runtime_error("pinned host memory: this build has no CUDA support"); }
void free_pinned(void *) noexcept {}

struct DeviceInput::State {};
DeviceInput::DeviceInput(const void *, std::size_t, long long) {
    throw std::runtime_error("DeviceInput: this build has no CUDA support");
}
DeviceInput::~DeviceInput() = default;
double DeviceInput::upload() { return 0; }
void DeviceInput::restore(long long) {}
void *DeviceInput::working() const { return nullptr; }
long long DeviceInput::count() const { return 0; }

struct PinnedTransfer::State {};
PinnedTransfer::PinnedTransfer(int, const std::vector<std::size_t> &, const std::vector<std::size_t> &, bool) {
    throw std::runtime_error("PinnedTransfer: this build has no CUDA support");
}
PinnedTransfer::~PinnedTransfer() = default;
PinnedTransfer::Times PinnedTransfer::measure() { return {}; }
void PinnedTransfer::start() {}
PinnedTransfer::Times PinnedTransfer::finish() { return {}; }

#endif

}  // namespace bench::gpu
