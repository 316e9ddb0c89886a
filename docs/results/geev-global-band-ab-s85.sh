set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && tar -xJf devrun/b85n/bundle.tar.xz -C /tmp/n
( mkdir -p /tmp/os && tar -xJf devrun/oldsrc.tar.xz -C /tmp/os && cd /tmp/os && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > /tmp/os.log 2>&1 && ninja -C build -j16 batcheig >> /tmp/os.log 2>&1; echo "oldbuild rc=$? $(el)s" >> $S ) &
export OPENBLAS_NUM_THREADS=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
export LD_LIBRARY_PATH=/tmp/n/lib
cd /tmp/n/bin
./batcheig_geev_bitcheck --n 5:64 --batch 300 > $OUT/bit.txt 2>&1; echo "bit rc=$? $(md5sum < $OUT/bit.txt) $(el)s" >> $S
./batcheig_geev_bitcheck --n 5:64 --batch 300 --vectors > $OUT/bitv.txt 2>&1; echo "bitv rc=$? $(md5sum < $OUT/bitv.txt) $(el)s" >> $S
timeout 100 compute-sanitizer --tool memcheck ./batcheig_geev_bitcheck --precision sdcz --n 72,100 --batch 6 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' $OUT/memcheck.txt | tr '\n' ' ') $(el)s" >> $S
timeout 100 compute-sanitizer --tool racecheck ./batcheig_geev_bitcheck --precision dz --n 72,100 --batch 4 > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/racecheck.txt | tr '\n' ' ') $(el)s" >> $S
wait
mkdir -p /tmp/o/lib && cp /tmp/os/build/src/libbatcheig.so* /tmp/o/lib/ 2>/dev/null; cp /tmp/n/lib/lib[!b]* /tmp/o/lib/; ls /tmp/o/lib >> $S
LD_LIBRARY_PATH=/tmp/o/lib ./batcheig_geev_bitcheck --n 5:64 --batch 300 --vectors > $OUT/bitv-old.txt 2>&1; echo "bitv-old rc=$? $(md5sum < $OUT/bitv-old.txt) $(el)s" >> $S
B=/tmp/n/bin/batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 2 --check 2 --warmup 1000"
ab() { for lib in n o; do echo "== $lib $*"; LD_LIBRARY_PATH=/tmp/$lib/lib $B geev $C "$@" | grep -E "^ +[0-9]+ .*batcheig-device" ; done; }
{
ab --precision d --n 81,96,128,160 --batch 5000
ab --precision s --n 100,160,238 --batch 2000
ab --precision c --n 96,128 --batch 2000
ab --precision z --n 56,64,80 --batch 2000
ab --precision d --vectors --n 88,96 --batch 2000
ab --precision z --vectors --n 56,64 --batch 2000
for a in geev-cuda-block geev-cuda-global; do echo "== n $a c vectors"; LD_LIBRARY_PATH=/tmp/n/lib $B geev $C --algorithm $a --precision c --vectors --n 84,88,92 --batch 2000 | grep -E "^ +[0-9]+ .*batcheig-device"; done
} > $OUT/bench.txt 2>&1
echo "done $(el)s" >> $S
cat $S; cat $OUT/bench.txt
