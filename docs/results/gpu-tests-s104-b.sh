# Session 104, call 2 (the same machine, right after gpu-tests-s104.sh,
# whose extracted bundle /tmp/nm it uses): the suites that call 1 ran out
# of time for while every suite shared the GPU (the large-n geev accuracy
# cases in float and double, test_syevj_cuda, test_streaming_cuda), alone.
cd /tmp/nm/bin
export LD_LIBRARY_PATH=/tmp/nm/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
S=$OUT/summary2.txt
run() { local name=$1; shift; ( s=$(date +%s); timeout 420 "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' $OUT/$name.txt | tail -1)" >> $S ) & }
for ty in float double; do
  run acc_large_$ty ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - $ty"
done
run syevj_cuda ./test_syevj_cuda
run streaming_cuda ./test_streaming_cuda
wait
cat $S
