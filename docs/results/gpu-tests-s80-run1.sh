#!/bin/bash
# Session 80 run 1: GPU tests of the library (launch_resident_teams, counters zeroed only when a stage takes one).
set -u
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b80/bundle.tar.xz -C $B
export LD_LIBRARY_PATH=$B/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader >> $S; nproc >> $S
cd $B/bin
./batcheig_geev_bitcheck --n 5:64 --batch 300 > $OUT/bit.txt 2>&1; echo "bit rc=$? $(md5sum < $OUT/bit.txt) $(el)s" >> $S
./batcheig_geev_bitcheck --n 5:64 --batch 300 --vectors > $OUT/bitv.txt 2>&1; echo "bitv rc=$? $(md5sum < $OUT/bitv.txt) $(el)s" >> $S
./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz > $OUT/big.txt 2>&1; echo "big rc=$? $(md5sum < $OUT/big.txt) $(el)s" >> $S
timeout 60 compute-sanitizer --tool memcheck ./batcheig_geev_bitcheck --precision sdcz --n 20,30 --batch 16500 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' $OUT/memcheck.txt) $(el)s" >> $S
for t in test_geev_cuda test_geev_batch test_geev_args test_api test_geev_accuracy test_syevj_cuda test_syevj_batch test_syevj_accuracy test_syevj_args test_streaming_cuda; do
  ( s=$(date +%s); timeout $(( 585 - $(el) )) ./$t > $OUT/$t.txt 2>&1; echo "$t rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' $OUT/$t.txt | tail -1)" >> $S ) &
done
wait
echo "done $(el)s" >> $S
cat $S
