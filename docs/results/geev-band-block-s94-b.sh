# Session 94, call 2: the rest of the GPU checks of devrun/b5.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && [ -x /tmp/n/bin/test_geev_batch ] || tar -xJf devrun/b5/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda
BC=./batcheig_geev_bitcheck
timeout 150 compute-sanitizer --tool racecheck $BC --precision d --n 130 --batch 1 > $OUT/racecheck1.txt 2>&1; echo "racecheck d130 rc=$? $(el)s: $(tail -2 $OUT/racecheck1.txt | tr '\n' ' ')" >> $S
timeout 200 ./test_geev_accuracy "*large n*" > $OUT/large.txt 2>&1; echo "accuracy large rc=$? $(el)s: $(tail -3 $OUT/large.txt | tr '\n' ' ')" >> $S
timeout 200 ./test_geev_batch > $OUT/geev_batch.txt 2>&1; echo "test_geev_batch rc=$? $(el)s: $(tail -3 $OUT/geev_batch.txt | tr '\n' ' ')" >> $S
cat $S
