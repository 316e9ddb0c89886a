set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n /tmp/a/lib && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n && cp /tmp/n/lib/lib[!b]* /tmp/a/lib/
( mkdir -p /tmp/as && tar -xJf devrun/asrc.tar.xz -C /tmp/as && cd /tmp/as && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > /tmp/as.log 2>&1 && ninja -C build -j10 batcheig >> /tmp/as.log 2>&1; echo "A build rc=$? $(el)s" >> $S; cp -L /tmp/as/build/src/libbatcheig.so.0.1 /tmp/a/lib/ ) &
BUILD=$!
export OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
BC=./batcheig_geev_bitcheck
$BC --n 5:64 --batch 300 > /tmp/b.txt 2>&1; echo "bit rc=$? $(md5sum < /tmp/b.txt) (ref b3f47dc3) $(el)s" >> $S
$BC --n 5:64 --batch 300 --vectors > /tmp/bv.txt 2>&1; echo "bitv rc=$? $(md5sum < /tmp/bv.txt) (ref ac032bcf) $(el)s" >> $S
BATCHEIG_GLOBAL_PANEL_NB=0 $BC --n 100,150,180,230,300 --batch 40 > /tmp/bl0.txt 2>&1; echo "nb0 bitlarge rc=$? $(md5sum < /tmp/bl0.txt) (ref 1d6b68a0) $(el)s" >> $S
BATCHEIG_GLOBAL_PANEL_NB=0 $BC --n 100,150,180,230,300 --batch 40 --vectors > /tmp/bl0v.txt 2>&1; echo "nb0 bitlargev rc=$? $(md5sum < /tmp/bl0v.txt) (ref b23375f3) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 > /tmp/bl.txt 2>&1; echo "bitlarge rc=$? $(md5sum < /tmp/bl.txt) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 --vectors > /tmp/blv.txt 2>&1; echo "bitlargev rc=$? $(md5sum < /tmp/blv.txt) $(el)s" >> $S
diff /tmp/bl0.txt /tmp/bl.txt | head -c 1500 > $OUT/bitdiff.txt
L=$(( 300 - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/t_$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/t_$name.txt | tail -1)" >> $S ) & PIDS="$PIDS $!"; }
PIDS=""

run geev_cuda ./test_geev_cuda
run geev_batch ./test_geev_batch
run geev_args ./test_geev_args
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
bench $lib --precision d --n 200,256 --batch 1000
bench $lib --precision d --vectors --n 200 --batch 500
bench $lib --precision s --n 256,330 --batch 1000
bench $lib --precision z --n 100,200 --batch 500
bench $lib --precision z --vectors --n 100 --batch 500
bench $lib --precision c --n 200 --batch 500
bench $lib --precision c --vectors --n 150 --batch 500
}
{
rows a; rows n; echo "NB=0"; export BATCHEIG_GLOBAL_PANEL_NB=0; rows n; echo "NB=8"; export BATCHEIG_GLOBAL_PANEL_NB=8; rows n; unset BATCHEIG_GLOBAL_PANEL_NB; rows a
} > $OUT/bench.txt 2>&1
echo "done $(el)s" >> $S
cat $S
