# Session 104: the GPU test pass of main's final GPU code (0d83a1b; float's
# trevc solutions X addressed as shared memory, kTrevcXShared), which
# session 103 ran only in part: every GPU suite (geev, syevj, streaming),
# the bitchecks against the references, and compute-sanitizer memcheck and
# racecheck on float and double eigenvector launches (warp variant per
# pivot and kept-own, block variant) and on a staged float eigenvalue
# launch. Built here for sm_90 (Release), device-bundle devrun/m.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nm && mkdir -p /tmp/nm && tar -xJf devrun/m/bundle.tar.xz -C /tmp/nm
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
md5sum /tmp/nm/lib/libbatcheig.so.0.1 >> $S
cd /tmp/nm/bin
export LD_LIBRARY_PATH=/tmp/nm/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz | md5sum | sed 's/^/bit e staged (want 0384a4c5) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 --precision cz | md5sum | sed 's/^/bit v cz (want 7bd2fa21) /' >> $S
echo "bitchecks $(el)s" >> $S
L=$(( 540 - $(el) ))
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
for t in test_geev_cuda test_geev_batch test_geev_args test_api test_syevj_cuda test_syevj_batch test_syevj_args test_syevj_accuracy test_streaming_cuda test_streaming_args; do
  run $t ./$t
done
for ty in float double "std::complex<float>" "std::complex<double>"; do
  tag=$(echo "$ty" | tr -d ':<>' )
  run acc_random_$tag ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
  run acc_normal_$tag ./test_geev_accuracy "geev accuracy: normal families (zero\\, identity\\, diagonal\\, orthogonal similarity\\, companion) - $ty"
  run acc_nonnormal_$tag ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - $ty"
  run acc_bal_$tag ./test_geev_accuracy "geev accuracy: balancing families (triangular\\, zeroed rows/columns\\, graded) and scaled random - $ty"
done
run acc_large ./test_geev_accuracy "geev accuracy: every family and magnitude at large n*"
( CS="compute-sanitizer --print-limit 20"; BC=./batcheig_geev_bitcheck
  for tool in racecheck memcheck; do
    for pr in s d; do
      for a in "--n 30 --batch 4" "--n 20 --batch 6" "--n 12 --batch 8" "--n 70 --batch 2"; do
        timeout 60 $CS --tool $tool $BC --precision $pr --vectors $a > /tmp/cs_$tool$pr.txt 2>&1
        echo "$tool $pr vectors $a rc=$? $(el)s: $(tail -1 /tmp/cs_$tool$pr.txt)" >> $S
      done
    done
  done
  timeout 90 $CS --tool memcheck $BC --precision s --n 20,30 --batch 16500 > /tmp/cs_staged.txt 2>&1
  echo "memcheck s staged --n 20,30 --batch 16500 rc=$? $(el)s: $(tail -1 /tmp/cs_staged.txt)" >> $S ) &
wait
echo "done $(el)s" >> $S
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -80 $f; } >> $OUT/failures.txt; done
cat $S
