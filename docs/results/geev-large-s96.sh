# Session 96: the large-n accuracy cases (n = 200..512, every family and
# magnitude under AUTO, CUDA backend) in all four precisions with main
# ce28596's GPU code (built for sm_90, device-bundle devrun/b1).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/n96 && mkdir -p /tmp/n96 && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n96
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n96/bin
export LD_LIBRARY_PATH=/tmp/n96/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda
N="geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO"
for t in ${TYPES:-float double "std::complex<float>" "std::complex<double>"}; do
  f="$OUT/large-${t//[^a-z]/}.txt"
  timeout 250 ./test_geev_accuracy "$N - $t" > "$f" 2>&1; echo "large $t rc=$? $(el)s: $(tail -2 "$f" | tr '\n' ' ')" >> $S
done
cat $S
