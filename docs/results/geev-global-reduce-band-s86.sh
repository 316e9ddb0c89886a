set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && tar -xJf devrun/b86b/bundle.tar.xz -C /tmp/n
export OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300 LD_LIBRARY_PATH=/tmp/n/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
BC=./batcheig_geev_bitcheck
$BC --n 5:64 --batch 300 > $OUT/bit.txt 2>&1; echo "bit rc=$? $(md5sum < $OUT/bit.txt) $(el)s" >> $S
$BC --n 5:64 --batch 300 --vectors > $OUT/bitv.txt 2>&1; echo "bitv rc=$? $(md5sum < $OUT/bitv.txt) $(el)s" >> $S
for v in "" "--vectors"; do for a in 17 18; do $BC --precision s --n 49:64 --batch 300 --algorithm $a $v > /tmp/s$a$v.txt 2>&1; done; done
cmp <(grep -E "^S n=(49|5[0-9]|6[0-4]) " $OUT/bit.txt) /tmp/s17.txt && echo "AUTO float 49-64 = forced warp (eigenvalues)" >> $S
cmp <(grep -E "^S n=(49|5[0-9]|6[0-4]) " $OUT/bitv.txt) /tmp/s17--vectors.txt && echo "AUTO float 49-64 = forced warp (vectors)" >> $S
recon() { /usr/bin/python3 - "$1" "$2" <<'P'
import sys,re
lines=open(sys.argv[1]).read().splitlines(True); blk={l.split()[1]:l for l in open(sys.argv[2]).read().splitlines(True)}
out=[blk[l.split()[1]] if l.startswith('S ') and 49<=int(l.split()[1][2:])<=64 else l for l in lines]
import hashlib; print(hashlib.md5(''.join(out).encode()).hexdigest())
P
}
echo "old AUTO reconstructed (float 49-64 from forced block): eig $(recon $OUT/bit.txt /tmp/s18.txt) vec $(recon $OUT/bitv.txt /tmp/s18--vectors.txt)  (s75 refs 622ceafd / d0ce02fb)" >> $S
$BC --precision sdcz --n 150,180,230,300 --batch 40 > $OUT/bitlarge.txt 2>&1; echo "bitlarge rc=$? $(md5sum < $OUT/bitlarge.txt) $(el)s" >> $S
BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND=1 $BC --precision sdcz --n 150,180,230,300 --batch 40 > $OUT/bitlarge-off.txt 2>&1; echo "bitlarge-off rc=$? $(md5sum < $OUT/bitlarge-off.txt) $(el)s" >> $S
L=$(( 330 - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/$name.txt | tail -1)" >> $S; tail -c 3000 /tmp/$name.txt > $OUT/t_$name.txt ) & }
run geev_cuda ./test_geev_cuda
run geev_batch ./test_geev_batch
BATCHEIG_TEST_LEVEL=full BATCHEIG_TEST_SIZES=200 run large_d ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - double"
BATCHEIG_TEST_LEVEL=full BATCHEIG_TEST_SIZES=300 run large_s ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - float"
BATCHEIG_TEST_LEVEL=full BATCHEIG_TEST_SIZES=200 run large_c ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - std::complex<float>"
BATCHEIG_TEST_LEVEL=full BATCHEIG_TEST_SIZES=150 run large_z ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - std::complex<double>"
( timeout 200 compute-sanitizer --tool memcheck $BC --precision sdcz --n 180 --batch 4 > /tmp/mc.txt 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' /tmp/mc.txt | tr '\n' ' ') $(el)s" >> $S ) &
( timeout 300 compute-sanitizer --tool racecheck $BC --precision dc --n 180 --batch 2 > /tmp/rc.txt 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' /tmp/rc.txt | tr '\n' ' ') $(el)s" >> $S ) &
wait
echo "tests done $(el)s" >> $S
B=./batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 2 --check 2 --warmup 1000 --algorithm geev-cuda-global"
ab() { for off in 0 1 0 1; do echo "== off=$off $*"; if [ $off = 1 ]; then export BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND=1; else unset BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND; fi; timeout 100 $B geev $C "$@" | grep -E "^ +[0-9]+ .*batcheig-device" ; done; unset BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND; }
{
ab --precision d --n 170,200,235 --batch 2000
ab --precision s --n 240,280,330 --batch 2000
ab --precision c --n 150,200,235 --batch 1000
ab --precision z --n 81,100,130,166 --batch 1000
} > $OUT/bench.txt 2>&1
echo "done $(el)s" >> $S
cat $S; cat $OUT/bench.txt
