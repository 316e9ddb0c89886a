# Session 100: the GPU tests after double real eigenvectors of a team are
# normalized row-wise (core::detail::normalize_real_rows) and trevc's
# wavefront keeps each member's first eigenvector. Library: main with the
# change (a commit after 0734b86) built here for sm_90, device-bundle
# devrun/b3, extracted to /tmp/nb3 (kept for the timing call that follows).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nb3 && mkdir -p /tmp/nb3 && tar -xJf devrun/b3/bundle.tar.xz -C /tmp/nb3
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/nb3/bin
export LD_LIBRARY_PATH=/tmp/nb3/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
B="./batcheig_bench geev --memory device --reps 2 --cusolver-subset 0 --lapacke-subset 64 --vectors --batch 500000"
$B --n 20,25,30 > $OUT/bench.txt 2>&1; echo "bench rc=$? $(el)s" >> $S
L=$(( 500 - $(el) ))
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
run geev_cuda_small ./test_geev_cuda "geev CUDA: the global variant's eigenvalues without vectors are bitwise those with vectors" -c "small n"
run geev_batch ./test_geev_batch
for ty in float double; do
  run acc_random_$ty ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
  run acc_normal_$ty ./test_geev_accuracy "geev accuracy: normal families (zero\\, identity\\, diagonal\\, orthogonal similarity\\, companion) - $ty"
  run acc_nonnormal_$ty ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - $ty"
  run acc_bal_$ty ./test_geev_accuracy "geev accuracy: balancing families (triangular\\, zeroed rows/columns\\, graded) and scaled random - $ty"
done
wait
CS="compute-sanitizer --print-limit 20"
BC=./batcheig_geev_bitcheck
for tool in racecheck memcheck; do
  for a in "--n 30 --batch 4" "--n 12 --batch 8" "--n 70 --batch 2"; do
    timeout 60 $CS --tool $tool $BC --precision d --vectors $a > /tmp/cs.txt 2>&1
    echo "$tool d $a rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
  done
done
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -120 $f; } >> $OUT/failures.txt; done
cat $S
