# Session 103, call E (right after call D, geev-shared-x-d-s103.sh, which
# left 11034a6's library in /tmp/nold on the same machine):
# x_column's shared-memory mark in float only (kTrevcXShared; the double
# and complex PTX byte-identical to 11034a6's), built here for sm_90,
# device-bundle devrun/e. Bitchecks against the references; float right
# vectors new / old / new / old (and double n = 30 as a control); the GPU
# tests of float; compute-sanitizer on float n = 30.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/ne && mkdir -p /tmp/ne && tar -xJf devrun/e/bundle.tar.xz -C /tmp/ne
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
md5sum /tmp/ne/lib/libbatcheig.so.0.1 /tmp/nold/lib/libbatcheig.so.0.1 >> $S 2>&1
cd /tmp/ne/bin
export LD_LIBRARY_PATH=/tmp/ne/lib
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
echo "bitchecks $(el)s" >> $S
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors"
set1() { { $B --precision s --n 12,16,20,24,30 --batch 200000; $B --precision s --n 40,46 --batch 50000; $B --precision s --n 64 --batch 20000; $B --n 30 --batch 200000; } 2>&1 | grep "batcheig-device device"; }
for r in 1 2; do
  set1 > $OUT/e_new_$r.txt; echo "round $r new $(el)s" >> $S
  [ -e /tmp/nold/lib/libbatcheig.so.0.1 ] && { LD_LIBRARY_PATH=/tmp/nold/lib:/tmp/ne/lib set1 > $OUT/e_old_$r.txt; echo "round $r old $(el)s" >> $S; }
done
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout 150 "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
run acc_random_float ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - float"
run acc_nonnormal_float ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - float"
wait
echo "tests $(el)s" >> $S
for ta in "memcheck --vectors --precision s --n 30 --batch 600" "racecheck --vectors --precision s --n 30 --batch 600"; do
  set -- $ta; tool=$1; shift
  timeout 60 compute-sanitizer --print-limit 20 --tool $tool ./batcheig_geev_bitcheck "$@" > /tmp/cs.txt 2>&1
  echo "$tool $* rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
done
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -40 $f; } >> $OUT/failures.txt; done
cat $S; for f in $OUT/e_*; do echo "== $(basename $f)"; cat $f; done
