# Session 94, call 3: the large-n accuracy cases of the real types on the CUDA backend.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && { [ -x /tmp/n/bin/test_geev_accuracy ] || tar -xJf devrun/b5/bundle.tar.xz -C /tmp/n; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda
N="geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO"
for t in double float; do
  timeout 250 stdbuf -oL ./test_geev_accuracy "$N - $t" --durations yes > $OUT/large-$t.txt 2>&1; echo "large $t rc=$? $(el)s: $(tail -1 $OUT/large-$t.txt)" >> $S
done
cat $S
