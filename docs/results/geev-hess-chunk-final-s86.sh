set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
mkdir -p /tmp/n /tmp/b/lib && tar -xJf devrun/b86d/bundle.tar.xz -C /tmp/n && cp /tmp/n/lib/lib[!b]* /tmp/b/lib/
S=$OUT/s.txt
( mkdir -p /tmp/bs && tar -xJf devrun/bsrc.tar.xz -C /tmp/bs && cd /tmp/bs && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > /tmp/bs.log 2>&1 && ninja -C build -j12 batcheig >> /tmp/bs.log 2>&1; echo "B build rc=$? $(el)s" >> $S; cp -L /tmp/bs/build/src/libbatcheig.so.0.1 /tmp/b/lib/; grep -o "geev_global_kernel[^']*', [0-9]* bytes spill stores, [0-9]* bytes spill loads" /tmp/bs.log >> $S ) &
BUILD=$!
export OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
cd /tmp/n/bin
BC=./batcheig_geev_bitcheck
bits() { local lib=$1
LD_LIBRARY_PATH=/tmp/$lib/lib $BC --n 100,150,180,230,300 --batch 40 > /tmp/bl.txt 2>&1; echo "$lib bitlarge rc=$? $(md5sum < /tmp/bl.txt) (ref 1d6b68a0) $(el)s" >> $S
LD_LIBRARY_PATH=/tmp/$lib/lib $BC --n 100,150,180,230,300 --batch 40 --vectors > /tmp/blv.txt 2>&1; echo "$lib bitlargev rc=$? $(md5sum < /tmp/blv.txt) (ref b23375f3) $(el)s" >> $S
LD_LIBRARY_PATH=/tmp/$lib/lib $BC --n 5:64 --batch 300 > /tmp/b.txt 2>&1; echo "$lib bit rc=$? $(md5sum < /tmp/b.txt) (ref b3f47dc3) $(el)s" >> $S
LD_LIBRARY_PATH=/tmp/$lib/lib $BC --n 5:64 --batch 300 --vectors > /tmp/bv.txt 2>&1; echo "$lib bitv rc=$? $(md5sum < /tmp/bv.txt) (ref ac032bcf) $(el)s" >> $S
}
B=./batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 0 --check 2 --warmup 1000"
bench() { local lib=$1; export LD_LIBRARY_PATH=/tmp/$lib/lib; echo "== $lib"
$B geev $C --precision d --n 128,200,256 --batch 1000
$B geev $C --precision d --vectors --n 128,200 --batch 500
$B geev $C --precision s --n 256,330 --batch 1000
$B geev $C --precision z --n 100,200 --batch 500
$B geev $C --precision c --n 200 --batch 500
$B geev $C --precision c --vectors --n 150 --batch 500
export LD_LIBRARY_PATH=/tmp/n/lib; }
export LD_LIBRARY_PATH=/tmp/n/lib
bits n
bench n > $OUT/bench.txt 2>&1
echo "A bench $(el)s" >> $S
L=$(( 300 - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
run geev_batch ./test_geev_batch
for ty in float double "std::complex<float>" "std::complex<double>"; do
  t=$(echo $ty | tr -dc 'a-z')
  run large_$t ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - $ty"
done
wait
echo "A tests $(el)s" >> $S
bits b
bench b >> $OUT/bench.txt 2>&1
echo "done $(el)s" >> $S
cat $S; grep -E "^==|^ +[0-9]+ " $OUT/bench.txt
