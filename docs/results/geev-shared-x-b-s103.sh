# Session 103, call B (right after geev-shared-x-a-s103.sh on the same warm
# machine): trevc's solutions X addressed as shared memory on the GPU
# (core::same_space; "new", main's working tree after 11034a6, built here
# for sm_90) against 11034a6 ("old", left in /tmp/nold by call A): the
# bitchecks of new against the references, the A/B set
# (geev-shared-x-set-s103.sh) new / old / new, the GPU tests and
# compute-sanitizer on the eigenvector launch, and the issue-4 workload
# with new (500 000 matrices).
set -u
R=$PWD
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nnew && mkdir -p /tmp/nnew && tar -xJf devrun/b/new.tar.xz -C /tmp/nnew
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
md5sum /tmp/nnew/lib/libbatcheig.so.0.1 /tmp/nold/lib/libbatcheig.so.0.1 >> $S 2>&1
cd /tmp/nnew/bin
export LD_LIBRARY_PATH=/tmp/nnew/lib
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz | md5sum | sed 's/^/bit e staged (want 0384a4c5) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 --precision cz | md5sum | sed 's/^/bit v cz /' >> $S
LD_LIBRARY_PATH=/tmp/nold/lib:/tmp/nnew/lib ./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 --precision cz | md5sum | sed 's/^/bit v cz old /' >> $S
echo "bitchecks $(el)s" >> $S
SET="bash $R/docs/results/geev-shared-x-set-s103.sh"
$SET > $OUT/ab_new_1.txt 2>&1; echo "round 1 new $(el)s" >> $S
if [ -e /tmp/nold/lib/libbatcheig.so.0.1 ]; then
  LD_LIBRARY_PATH=/tmp/nold/lib:/tmp/nnew/lib $SET > $OUT/ab_old_2.txt 2>&1; echo "round 2 old $(el)s" >> $S
  $SET > $OUT/ab_new_2.txt 2>&1; echo "round 2 new $(el)s" >> $S
else
  echo "no old library here (another machine)" >> $S
fi
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout 200 "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
for ty in float double "std::complex<float>" "std::complex<double>"; do
  run "acc_random_${ty//[:<>]/}" ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
done
for ty in double "std::complex<double>"; do
  run "acc_nonnormal_${ty//[:<>]/}" ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - $ty"
done
wait
echo "tests $(el)s" >> $S
CS="compute-sanitizer --print-limit 20"
for ta in "memcheck --vectors --precision d --n 30 --batch 600" "racecheck --vectors --precision d --n 30 --batch 600" \
          "memcheck --vectors --precision z --n 30 --batch 300" "racecheck --vectors --precision d --n 56 --batch 40"; do
  set -- $ta; tool=$1; shift
  timeout 60 $CS --tool $tool ./batcheig_geev_bitcheck "$@" > /tmp/cs.txt 2>&1
  echo "$tool $* rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
done
B=./batcheig_bench
$B geev --memory device --reps 3 --vectors --n 30 --cusolver-subset 20 --batch 500000 > $OUT/w_v.txt 2>&1; echo "vectors rc=$? $(el)s" >> $S
$B geev --memory device --reps 3 --cusolver-subset 100 --n 5:30:5 --batch 500000 > $OUT/w_d.txt 2>&1; echo "double rc=$? $(el)s" >> $S
$B geev --memory device --reps 3 --precision s --n 15:30:5 --cusolver-subset 0 --lapacke-subset 1 --batch 500000 > $OUT/w_s.txt 2>&1; echo "float rc=$? $(el)s" >> $S
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -60 $f; } >> $OUT/failures.txt; done
cat $S; for f in $OUT/ab_*; do echo "== $(basename $f)"; cat $f; done; grep -h "batcheig-device\|lapacke \|cusolver-loop" $OUT/w_v.txt $OUT/w_d.txt $OUT/w_s.txt
