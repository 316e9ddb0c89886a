# Session 105 (prepared, not run: three starts failed and the device time
# was spent). Apply docs/results/geev-xcolumn-fold-s105.patch to main first.
# The change: x_column's mark folded (same_space removed: x_column sets
# x.p = assume_shared(x.p) itself where T is a SharedView, float only as
# before). The PTX of geev_cuda_{d,c,z}.cu is identical; geev_cuda_s.cu's
# differs in the warp and block Vectors kernels only (fewer address
# computations and branches, the same divisions, square roots, loads and
# stores), so float's eigenvector launches are checked here, in order:
# the bitchecks against the references, the float geev suites with
# compute-sanitizer on float eigenvector launches beside them, then an
# A/B of float right vectors alternated with main's library
# (scripts/ab.sh). Both libraries built here with
# -DCMAKE_CUDA_ARCHITECTURES=90-real: the fold packed with device-bundle
# devrun/f (bench, bitcheck, test_geev_cuda, test_geev_batch,
# test_geev_accuracy, lib), main's library as devrun/f/old.tar.xz
# (lib/libbatcheig.so.0.1). LEFT: seconds the script may take (default
# 420); the tests first, then ROUNDS (default 2) rounds of the A/B, for
# which ABS seconds (default 80) are kept.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
ROOT=$PWD
rm -rf /tmp/nf /tmp/nh && mkdir -p /tmp/nf /tmp/nh && tar -xJf devrun/f/bundle.tar.xz -C /tmp/nf && tar -xJf devrun/f/old.tar.xz -C /tmp/nh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
md5sum /tmp/nf/lib/libbatcheig.so.0.1 /tmp/nh/lib/libbatcheig.so.0.1 >> $S
cd /tmp/nf/bin
export LD_LIBRARY_PATH=/tmp/nf/lib OPENBLAS_NUM_THREADS=1
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 --precision cz | md5sum | sed 's/^/bit v cz (want 7bd2fa21) /' >> $S
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
echo "bitchecks $(el)s" >> $S
cat $S
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
L=$(( ${LEFT:-420} - ${ABS:-80} - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' $OUT/$name.txt | tail -1)" >> $S ) & }
run test_geev_cuda ./test_geev_cuda
run test_geev_batch ./test_geev_batch
run acc_random_float ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - float"
run acc_normal_float ./test_geev_accuracy "geev accuracy: normal families (zero\\, identity\\, diagonal\\, orthogonal similarity\\, companion) - float"
run acc_nonnormal_float ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - float"
run acc_bal_float ./test_geev_accuracy "geev accuracy: balancing families (triangular\\, zeroed rows/columns\\, graded) and scaled random - float"
( CS="compute-sanitizer --print-limit 20"; BC=./batcheig_geev_bitcheck
  for tool in memcheck racecheck; do
    for a in "--n 30 --batch 4" "--n 70 --batch 2" "--n 20 --batch 6" "--n 12 --batch 8"; do
      [ $(( $(el) + 30 )) -lt $(( ${LEFT:-420} - ${ABS:-80} )) ] || break
      timeout 60 $CS --tool $tool $BC --precision s --vectors $a > /tmp/cs_$tool.txt 2>&1
      echo "$tool s vectors $a rc=$? $(el)s: $(tail -1 /tmp/cs_$tool.txt)" >> $S
    done
  done ) &
wait
echo "tests $(el)s" >> $S
export -n BATCHEIG_TEST_BACKENDS
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors --precision s"
AB="$ROOT/scripts/ab.sh --base /tmp/nh/lib --new /tmp/nf/lib --rounds ${ROUNDS:-2} --grep batcheig-device --"
{ $AB $B --n 20,24,30 --batch 200000; $AB $B --n 40 --batch 100000; $AB $B --n 56,64 --batch 20000; } > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
echo "done $(el)s" >> $S
cat $S
