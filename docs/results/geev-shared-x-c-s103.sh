# Session 103, call C: after call B found wrong right vectors wherever
# trevc's wavefront forms each eigenvector at every pivot (double n > 32
# in the warp variant, float), a narrower form: only x_column's view is
# marked as shared memory (the back-transformation's and the wavefront
# updates' accesses), none of the views the solves keep; built here for
# sm_90, device-bundle devrun/c. The bitchecks against the references,
# the GPU tests that failed in call B, and the A/B set once (compared with
# call B's "old" rounds on another machine of the same kind).
set -u
R=$PWD
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nc && mkdir -p /tmp/nc && tar -xJf devrun/c/bundle.tar.xz -C /tmp/nc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
md5sum /tmp/nc/lib/libbatcheig.so.0.1 >> $S
cd /tmp/nc/bin
export LD_LIBRARY_PATH=/tmp/nc/lib
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 --precision cz | md5sum | sed 's/^/bit v cz (want 7bd2fa21) /' >> $S
echo "bitchecks $(el)s" >> $S
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout 200 "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
for ty in float double; do
  run "acc_random_$ty" ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
done
run acc_nonnormal_double ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - double"
wait
echo "tests $(el)s" >> $S
bash $R/docs/results/geev-shared-x-set-s103.sh > $OUT/ab_c.txt 2>&1; echo "set $(el)s" >> $S
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -40 $f; } >> $OUT/failures.txt; done
cat $S $OUT/ab_c.txt
