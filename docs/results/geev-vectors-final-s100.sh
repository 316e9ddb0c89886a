# Session 100, final form: double real eigenvectors of a team normalized in
# three passes per member (core::detail::normalize_real_short), laln2's
# pivot tables as arithmetic (core::pick4; the eigenvector launch's
# 144-byte local array gone), the global variant's gehd2 at n <= 6. Built
# here for sm_90, device-bundle devrun/b5. The issue-4 vectors row (the
# whole LAPACKE loop, cusolverDnXgeev on 20 matrices), the other sizes
# with a LAPACKE subset, the GPU tests of the real types and sanitizers.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nb5 && mkdir -p /tmp/nb5 && tar -xJf devrun/b5/bundle.tar.xz -C /tmp/nb5
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
{ grep -m1 "model name" /proc/cpuinfo; nproc; } >> $S
cd /tmp/nb5/bin
export LD_LIBRARY_PATH=/tmp/nb5/lib
./batcheig_bench geev --memory device --reps 3 --vectors --n 30 --cusolver-subset 20 --batch 500000 > $OUT/w_v.txt 2>&1; echo "vectors n=30 rc=$? $(el)s" >> $S
export OPENBLAS_NUM_THREADS=1
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 16 --check 0 --batch 500000"
{ $B --vectors --n 20,25; $B --n 30; } > $OUT/bench.txt 2>&1; echo "bench rc=$? $(el)s" >> $S
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
L=$(( 480 - $(el) ))
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
  for a in "--precision d --n 30 --batch 4" "--precision s --n 30 --batch 4" "--precision d --n 70 --batch 2"; do
    timeout 60 $CS --tool $tool ./batcheig_geev_bitcheck --vectors $a > /tmp/cs.txt 2>&1
    echo "$tool $a rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
  done
done
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -120 $f; } >> $OUT/failures.txt; done
cat $S; grep -h "batcheig-device\|lapacke \|cusolver-loop" $OUT/w_v.txt $OUT/bench.txt
