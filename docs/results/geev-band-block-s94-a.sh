# Session 94, call 1: the band's long QR stages on blocks and the global
# variant's reduction in place then the band (real types), built here for
# sm_90 (devrun/b5); main f293be4's library built on the device for the A/B.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n /tmp/m/lib /tmp/ms && tar -xJf devrun/b5/bundle.tar.xz -C /tmp/n && cp /tmp/n/lib/lib[!b]* /tmp/m/lib/
( tar -xJf devrun/main-src.tar.xz -C /tmp/ms && cd /tmp/ms && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > /tmp/ms.log 2>&1 && ninja -C build -j10 batcheig >> /tmp/ms.log 2>&1; echo "main build rc=$? $(el)s" >> $S; cp -L /tmp/ms/build/src/libbatcheig.so.0.1 /tmp/m/lib/ ) &
BUILD=$!
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1
BC=./batcheig_geev_bitcheck
bit() { local tag=$1; shift; "$@" > /tmp/bit.txt 2>&1; echo "$tag rc=$? $(md5sum < /tmp/bit.txt) $(el)s" >> $S; cp /tmp/bit.txt "$OUT/bit-$(echo ${tag%% *} | tr -c "a-z0-9\n" "_").txt"; }
bit "5:64 (ref b3f47dc3)" $BC --n 5:64 --batch 300
bit "5:64v (ref ac032bcf)" $BC --n 5:64 --batch 300 --vectors
bit "large (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
bit "largev (ref ceed8d99)" $BC --n 100,150,180,230,300 --batch 40 --vectors
bit "sdc (ref 81d608f8)" $BC --n 128,144,160,200,238,260 --batch 20 --precision sdc
timeout 240 ./test_geev_cuda > $OUT/geev_cuda.txt 2>&1; echo "test_geev_cuda rc=$? $(el)s: $(tail -3 $OUT/geev_cuda.txt | tr '\n' ' ')" >> $S
timeout 120 compute-sanitizer --tool memcheck $BC --precision sdc --n 136,203,251 --batch 2 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? $(el)s: $(tail -2 $OUT/memcheck.txt | tr '\n' ' ')" >> $S
wait $BUILD
LD_LIBRARY_PATH=/tmp/m/lib bit "sdcmain (ref 81d608f8)" $BC --n 128,144,160,200,238,260 --batch 20 --precision sdc
B=./batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 2"
ab() {
$B geev $C --precision d --n 128,160 --batch 2000
$B geev $C --precision s --n 200,238 --batch 2000
$B geev $C --precision c --n 144 --batch 1000
$B geev $C --precision d --n 180,200,236 --batch 1000
$B geev $C --precision s --n 250,300,336 --batch 1000
}
for c in m b m b; do
  [ $(el) -gt 470 ] && { echo "stop before $c: $(el)s" >> $S; break; }
  if [ $c = m ]; then export LD_LIBRARY_PATH=/tmp/m/lib; else export LD_LIBRARY_PATH=/tmp/n/lib; fi
  echo "== $c" >> $OUT/ab.txt; ab >> $OUT/ab.txt 2>&1; echo "ab $c $(el)s" >> $S
done
cat $S
