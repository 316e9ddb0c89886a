set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n /tmp/w/bin /tmp/w/lib && tar -xJf devrun/b86/bundle.tar.xz -C /tmp/n
cp devrun/wipbin/test_geev_cuda /tmp/w/bin/ && cp /tmp/n/lib/lib[!b]* /tmp/w/lib/
( mkdir -p /tmp/ws && tar -xJf devrun/wipsrc.tar.xz -C /tmp/ws && cd /tmp/ws && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > /tmp/ws.log 2>&1 && ninja -C build -j14 batcheig >> /tmp/ws.log 2>&1; echo "wipbuild rc=$? $(el)s" >> $S; cp -L /tmp/ws/build/src/libbatcheig.so.0.1 /tmp/w/lib/ ) &
BUILD=$!
export OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
./batcheig_geev_bitcheck --n 5:64 --batch 300 > $OUT/bit.txt 2>&1; echo "bit rc=$? $(md5sum < $OUT/bit.txt) $(el)s" >> $S
./batcheig_geev_bitcheck --n 5:64 --batch 300 --vectors > $OUT/bitv.txt 2>&1; echo "bitv rc=$? $(md5sum < $OUT/bitv.txt) $(el)s" >> $S
L=$(( 330 - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' $OUT/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
run geev_args ./test_geev_args
run geev_batch ./test_geev_batch
run streaming_geev ./test_streaming_cuda "streaming geev*"
for ty in float double "std::complex<float>" "std::complex<double>"; do
  t=$(echo $ty | tr -dc 'a-z')
  run acc_random_$t ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
done
wait
echo "tests done $(el)s" >> $S
wait $BUILD
ls -la /tmp/w/lib >> $S
LD_LIBRARY_PATH=/tmp/w/lib timeout 120 /tmp/w/bin/test_geev_cuda > $OUT/wip_geev_cuda.txt 2>&1; echo "wip_geev_cuda rc=$? $(grep -E 'test cases|All tests passed' $OUT/wip_geev_cuda.txt | tail -1) $(el)s" >> $S
B=/tmp/n/bin/batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 2 --check 2 --warmup 1000"
ab() { for lib in n w n w; do echo "== $lib $*"; LD_LIBRARY_PATH=/tmp/$lib/lib timeout 60 $B geev $C "$@" | grep -E "^ +[0-9]+ .*batcheig-device" ; done; }
{
ab --precision d --vectors --n 96,100,110,118 --batch 2000
ab --precision s --vectors --n 136,140,150,168 --batch 2000
} > $OUT/bench.txt 2>&1
echo "done $(el)s" >> $S
cat $S; cat $OUT/bench.txt
