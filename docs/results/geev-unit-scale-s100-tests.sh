# Session 100, last call: the GPU tests of be4b9c0 (unit_scale written once;
# the same expression as before), double, built here for sm_90, device-bundle
# devrun/b6. Limited to what the session's remaining device time allowed.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n6 && tar -xJf devrun/b6/bundle.tar.xz -C /tmp/n6
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n6/bin
export LD_LIBRARY_PATH=/tmp/n6/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=200
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout 150 "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
ty=double
run acc_random_$ty ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
run acc_normal_$ty ./test_geev_accuracy "geev accuracy: normal families (zero\\, identity\\, diagonal\\, orthogonal similarity\\, companion) - $ty"
run acc_nonnormal_$ty ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - $ty"
run acc_bal_$ty ./test_geev_accuracy "geev accuracy: balancing families (triangular\\, zeroed rows/columns\\, graded) and scaled random - $ty"
wait
cat $S
