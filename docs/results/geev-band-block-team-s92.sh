# Session 89's experiment (branch wip/band-block-team), for a session with a
# device: build the branch for sm_90, bundle batcheig_bench and
# batcheig_geev_bitcheck into devrun/b1, then `bash <this>` on the device.
# A: the band QR stages with a whole block per matrix (BATCHEIG_BAND_BLOCK_MIN_M,
#    BATCHEIG_BAND_BLOCK_THREADS) where the band fits now (AUTO).
# B: the eigenvalues beyond the matrix's fit as the blocked reduction in place,
#    then the band QR (off: BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND=1), or
#    (BATCHEIG_GLOBAL_QR_WARP=1) the QR with a warp per matrix on H in place.
# C: the QR passes in chunks of 4 per member over a MatView (kQrChunk, every
#    in-place QR): main's library (built on the device from
#    devrun/main-src.tar.xz, `git archive 3102349 | xz`, while A runs)
#    against the branch's, switches off.
# Usage: bash <this> [all|inside|beyond] (default all, about 400 s estimated).
PART=${1:-all}
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/s.txt
mkdir -p /tmp/n /tmp/m/lib /tmp/ms && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n && cp /tmp/n/lib/lib[!b]* /tmp/m/lib/
( tar -xJf devrun/main-src.tar.xz -C /tmp/ms && cd /tmp/ms && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > /tmp/ms.log 2>&1 && ninja -C build -j12 batcheig >> /tmp/ms.log 2>&1; echo "main build rc=$? $(el)s" >> $S; cp -L /tmp/ms/build/src/libbatcheig.so.0.1 /tmp/m/lib/ ) &
BUILD=$!
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1
BC=./batcheig_geev_bitcheck
bit() { local tag=$1; shift; "$@" > /tmp/bit.txt 2>&1; echo "$tag rc=$? $(md5sum < /tmp/bit.txt) $(el)s" >> $S; }
# Every form must print main's references: large c0108c32, large --vectors ceed8d99, 5:64 b3f47dc3.
BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND=1 bit "large off (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
bit "large band-warp (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
BATCHEIG_GLOBAL_QR_WARP=1 bit "large global-warp (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
BATCHEIG_BAND_BLOCK_MIN_M=8 bit "large band-block8 (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
bit "large vectors (ref ceed8d99)" $BC --n 100,150,180,230,300 --batch 40 --vectors
BATCHEIG_BAND_BLOCK_MIN_M=8 bit "5:64 block8 (ref b3f47dc3)" $BC --n 5:64 --batch 300
B=./batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 2"
inside() {
$B geev $C --precision d --n 64,100,128,160 --batch 2000
$B geev $C --precision s --n 100,160,200,238 --batch 2000
$B geev $C --precision c --n 64,100,144 --batch 1000
$B geev $C --precision z --n 64,80 --batch 1000
}
beyond() {
$B geev $C --precision d --n 180,200,236 --batch 1000
$B geev $C --precision s --n 250,300,336 --batch 1000
$B geev $C --precision c --n 150,200,236 --batch 500
$B geev $C --precision z --n 100,130,166 --batch 500
}
cfg() { unset BATCHEIG_BAND_BLOCK_MIN_M BATCHEIG_BAND_BLOCK_THREADS BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND BATCHEIG_GLOBAL_QR_WARP
  export LD_LIBRARY_PATH=/tmp/n/lib
  case $1 in off) export BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND=1;; warp) ;;
  main) export LD_LIBRARY_PATH=/tmp/m/lib;; gwarp) export BATCHEIG_GLOBAL_QR_WARP=1;;
  *) export BATCHEIG_BAND_BLOCK_MIN_M=40 BATCHEIG_BAND_BLOCK_THREADS=$1;; esac; }
[ $PART = beyond ] || for c in off 128 256 64 off; do cfg $c; echo "== inside $c" >> $OUT/inside.txt; inside >> $OUT/inside.txt 2>&1; echo "inside $c $(el)s" >> $S; done
[ $PART = inside ] && { cat $S; exit 0; }
wait $BUILD
LD_LIBRARY_PATH=/tmp/m/lib bit "large main (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
for c in main off gwarp warp 128 256 main off gwarp; do cfg $c; echo "== beyond $c" >> $OUT/beyond.txt; beyond >> $OUT/beyond.txt 2>&1; echo "beyond $c $(el)s" >> $S; done
cat $S
