#!/bin/bash
# Session 80 run 2: test_streaming_cuda alone on the GPU (its device-memory test needs a GPU no other process
# uses; in run 1 it ran beside nine suites), then racecheck of the staged band QR launches (double n = 20:
# two stages, counters).
set -u
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b80/bundle.tar.xz -C $B
export LD_LIBRARY_PATH=$B/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
cd $B/bin
timeout 140 ./test_streaming_cuda -d yes > $OUT/streaming.txt 2>&1; echo "test_streaming_cuda rc=$? $(el)s $(grep -E 'test cases|All tests passed' $OUT/streaming.txt | tail -1)" >> $S
timeout $(( 245 - $(el) )) compute-sanitizer --tool racecheck ./batcheig_geev_bitcheck --precision d --n 20 --batch 16500 > $OUT/racecheck.txt 2>&1 </dev/null; echo "racecheck rc=$? $(grep -i 'hazard\|ERROR SUMMARY' $OUT/racecheck.txt | tail -1) $(el)s" >> $S
cat $S
