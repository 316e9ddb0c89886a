set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n /tmp/x/lib && tar -xJf devrun/b2/bundle.tar.xz -C /tmp/n && cp /tmp/n/lib/lib[!b]* /tmp/x/lib/
( mkdir -p /tmp/xs && tar -xJf devrun/xsrc.tar.xz -C /tmp/xs && cd /tmp/xs && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > /tmp/xs.log 2>&1 && ninja -C build -j10 batcheig >> /tmp/xs.log 2>&1; echo "X build rc=$? $(el)s" >> $S; cp -L /tmp/xs/build/src/libbatcheig.so.0.1 /tmp/x/lib/ ) &
BUILD=$!
export OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
BC=./batcheig_geev_bitcheck
$BC --n 5:64 --batch 300 > /tmp/b.txt 2>&1; echo "bit rc=$? $(md5sum < /tmp/b.txt) (ref b3f47dc3) $(el)s" >> $S
$BC --n 5:64 --batch 300 --vectors > /tmp/bv.txt 2>&1; echo "bitv rc=$? $(md5sum < /tmp/bv.txt) (ref ac032bcf) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 > $OUT/bitlarge.txt 2>&1; echo "bitlarge rc=$? $(md5sum < $OUT/bitlarge.txt) (r1 a81d1d43) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 --vectors > $OUT/bitlargev.txt 2>&1; echo "bitlargev rc=$? $(md5sum < $OUT/bitlargev.txt) (r1 6672c347) $(el)s" >> $S
L=$(( 300 - $(el) ))
PIDS=""
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/t_$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/t_$name.txt | tail -1)" >> $S ) & PIDS="$PIDS $!"; }
run geev_cuda ./test_geev_cuda
run geev_batch ./test_geev_batch
for ty in float double "std::complex<float>" "std::complex<double>"; do
  t=$(echo $ty | tr -dc 'a-z')
  run large_$t ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - $ty"
  run rand_$t ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
done
wait $PIDS
echo "tests done $(el)s" >> $S
for f in /tmp/t_*.txt; do if ! grep -q "All tests passed" $f; then echo "== $f" >> $OUT/fail.txt; tail -c 3000 $f >> $OUT/fail.txt; fi; done
wait $BUILD
B=./batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 32 --check 2 --warmup 1000"
bench() { local lib=$1; shift; echo "== $lib $*"; LD_LIBRARY_PATH=/tmp/$lib/lib timeout 60 $B geev $C "$@" | grep -E "^ +[0-9]+ " ; }
rows() { local lib=$1
bench $lib --precision z --n 100,200,300 --batch 500
bench $lib --precision z --vectors --n 100,200 --batch 500
bench $lib --precision c --n 200,300 --batch 500
bench $lib --precision c --vectors --n 150,200 --batch 500
}
{
rows x; rows n; rows x; rows n
bench n --precision d --n 200,256 --batch 1000
bench n --precision d --vectors --n 200 --batch 500
bench n --precision s --n 256,330 --batch 1000
} > $OUT/bench.txt 2>&1
echo "done $(el)s" >> $S
cat $S
