# Session 95, call A: the GPU checks that session 94 ran before its last
# refactor (280ee47) and did not repeat on main, plus the complex types'
# large-n accuracy cases (not run in session 94). Library: main 355d3e3
# built here for sm_90, packed with device-bundle into devrun/b1.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && [ -x /tmp/n/bin/test_geev_accuracy ] || tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1
BC=./batcheig_geev_bitcheck
if [ "${PART:-all}" != large ]; then
bit() { local tag=$1; shift; "$@" > /tmp/bit.txt 2>&1; echo "$tag rc=$? $(md5sum < /tmp/bit.txt) $(el)s" >> $S; }
bit "5:64 (ref b3f47dc3)" $BC --n 5:64 --batch 300
bit "5:64v (ref ac032bcf)" $BC --n 5:64 --batch 300 --vectors
bit "large (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
bit "largev (ref ceed8d99)" $BC --n 100,150,180,230,300 --batch 40 --vectors
bit "sdc (ref 81d608f8)" $BC --n 128,144,160,200,238,260 --batch 20 --precision sdc
CS="compute-sanitizer --print-limit 20"
timeout 120 $CS --tool memcheck $BC --precision sdc --n 136,203,251 --batch 2 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? $(el)s: $(tail -1 $OUT/memcheck.txt)" >> $S
timeout 120 $CS --tool racecheck $BC --precision d --n 180 --batch 1 > $OUT/racecheck.txt 2>&1; echo "racecheck d180 rc=$? $(el)s: $(tail -2 $OUT/racecheck.txt | tr '\n' ' ')" >> $S
fi
export BATCHEIG_TEST_BACKENDS=cuda
if [ "${PART:-all}" != large ]; then
  timeout 120 ./test_geev_batch > $OUT/geev_batch.txt 2>&1; echo "test_geev_batch rc=$? $(el)s: $(tail -2 $OUT/geev_batch.txt | tr '\n' ' ')" >> $S
fi
[ "${PART:-all}" = checks ] && { cat $S; exit 0; }
N="geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO"
for t in "std::complex<float>" "std::complex<double>"; do
  timeout 200 stdbuf -oL ./test_geev_accuracy "$N - $t" --durations yes > "$OUT/large-${t//[^a-z]/}.txt" 2>&1; echo "large $t rc=$? $(el)s: $(tail -2 "$OUT/large-${t//[^a-z]/}.txt" | tr '\n' ' ')" >> $S
done
cat $S
