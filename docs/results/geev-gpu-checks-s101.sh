# Session 101, call B (right after call A, same machine: /tmp/n holds
# devrun/b4): main 7bc17d8's GPU checks: the bitcheck against call 1's
# hashes, test_geev_cuda, test_geev_batch, the accuracy suites (every case
# below large n, float and double), racecheck and memcheck.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
[ -x /tmp/n/bin/batcheig_bench ] || { mkdir -p /tmp/n && tar -xJf devrun/b4/bundle.tar.xz -C /tmp/n; echo "fresh machine" >> $S; }
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz | md5sum | sed 's/^/bit staged (want 0384a4c5) /' >> $S
echo "bitchecks $(el)s" >> $S
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
L=$(( 420 - $(el) ))
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
run geev_batch ./test_geev_batch
for ty in float double; do
  run acc_random_$ty ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
  run acc_normal_$ty ./test_geev_accuracy "geev accuracy: normal families (zero\\, identity\\, diagonal\\, orthogonal similarity\\, companion) - $ty"
  run acc_nonnormal_$ty ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - $ty"
  run acc_bal_$ty ./test_geev_accuracy "geev accuracy: balancing families (triangular\\, zeroed rows/columns\\, graded) and scaled random - $ty"
done
wait
CS="compute-sanitizer --print-limit 20"
for tool in racecheck memcheck; do
  for a in "--vectors --precision d --n 30 --batch 600" "--vectors --precision c --n 20 --batch 600" "--precision d --n 30 --batch 17000"; do
    timeout 90 $CS --tool $tool ./batcheig_geev_bitcheck $a > /tmp/cs.txt 2>&1
    echo "$tool $a rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
  done
done
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -120 $f; } >> $OUT/failures.txt; done
cat $S
