# Session 103: main 11034a6 (session 102's final GPU code: trevc's two
# wavefronts, the keeping one for double n <= team size), built here for
# sm_90 (Release, -lineinfo), device-bundle devrun/b1. The bitchecks
# against the references; the issue-4 workload (500 000 matrices, the
# LAPACKE loops on the whole batch, cusolverDnXgeev on a subset); the GPU
# accuracy suites not run on this code before (random dense in all four
# types, non-normal float and complex); Nsight Compute source counters of
# the replay and the eigenvector launch, double n = 30 with right
# vectors, batch 50 000 (as session 100's geev-vectors-source-s100.sh).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/n && mkdir -p /tmp/n && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
{ grep -m1 "model name" /proc/cpuinfo; nproc; } >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz | md5sum | sed 's/^/bit e staged (want 0384a4c5) /' >> $S
echo "bitchecks $(el)s" >> $S
B=./batcheig_bench
$B geev --memory device --reps 3 --cusolver-subset 100 --n 5:30:5 --batch 500000 --csv $OUT/w_d.csv > $OUT/w_d.txt 2>&1; echo "double rc=$? $(el)s" >> $S
$B geev --memory device --reps 3 --precision s --n 15:30:5 --cusolver-subset 0 --lapacke-subset 1 --batch 500000 > $OUT/w_s.txt 2>&1; echo "float rc=$? $(el)s" >> $S
$B geev --memory device --reps 3 --vectors --n 30 --cusolver-subset 20 --batch 500000 > $OUT/w_v.txt 2>&1; echo "vectors rc=$? $(el)s" >> $S
export OPENBLAS_NUM_THREADS=1
K='regex:geev_replay_kernel|Phase\)1'
ncu --clock-control none --kernel-name-base demangled --kernel-name "$K" --launch-skip 2 --launch-count 2 \
    --section SourceCounters --section LaunchStats --section WarpStateStats --import-source yes -f -o /tmp/vsrc \
    $B geev --memory device --reps 1 --cusolver-subset 0 --lapacke-subset 1 --check 0 --vectors --n 30 --batch 50000 > /tmp/collect.txt 2>&1
echo "ncu collect rc=$? $(el)s" >> $S
for i in 0 1; do
  ncu -i /tmp/vsrc.ncu-rep --page source --csv --print-source cuda,sass --launch-skip $i --launch-count 1 2>> /tmp/err.txt | gzip -c > $OUT/src$i.csv.gz
done
ncu -i /tmp/vsrc.ncu-rep --page details --csv 2>&1 | gzip -c > $OUT/details.csv.gz
echo "ncu export $(el)s" >> $S
unset OPENBLAS_NUM_THREADS
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout 240 "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
for ty in float double "std::complex<float>" "std::complex<double>"; do
  run "acc_random_${ty//[:<>]/}" ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
done
for ty in float "std::complex<float>" "std::complex<double>"; do
  run "acc_nonnormal_${ty//[:<>]/}" ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - $ty"
done
wait
echo "tests $(el)s" >> $S
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -60 $f; } >> $OUT/failures.txt; done
cat $S; grep -h "batcheig-device\|lapacke \|cusolver-loop" $OUT/w_d.txt $OUT/w_s.txt $OUT/w_v.txt
