# Session 101, call C: main ea827f1 (the replay's stages on the counters;
# built here for sm_90, device-bundle devrun/b6): the vectors row of the
# issue-4 workload, the bitchecks against call 1's hashes, the GPU tests
# (test_geev_cuda, test_geev_batch, the accuracy suites below large n in
# float and double), memcheck and racecheck with vectors (racecheck at a
# batch where the first logged stage's teams take several matrices).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/n && mkdir -p /tmp/n && tar -xJf devrun/b6/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
{ grep -m1 "model name" /proc/cpuinfo; nproc; } >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
./batcheig_bench geev --memory device --reps 3 --vectors --n 30 --cusolver-subset 20 --batch 500000 > $OUT/w_v.txt 2>&1; echo "vectors n=30 rc=$? $(el)s" >> $S
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
echo "bitchecks $(el)s" >> $S
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
L=$(( 330 - $(el) ))
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
for a in "--vectors --precision d --n 30 --batch 600" "--vectors --precision s --n 30 --batch 600"; do
  timeout 60 $CS --tool memcheck ./batcheig_geev_bitcheck $a > /tmp/cs.txt 2>&1
  echo "memcheck $a rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
done
R=$(( 520 - $(el) ))
timeout $R $CS --tool racecheck ./batcheig_geev_bitcheck --vectors --precision d --n 20 --batch 13000 > /tmp/cs.txt 2>&1
echo "racecheck --vectors --precision d --n 20 --batch 13000 (limit ${R}s) rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -120 $f; } >> $OUT/failures.txt; done
cat $S; grep -h "batcheig-device\|lapacke \|cusolver-loop" $OUT/w_v.txt
