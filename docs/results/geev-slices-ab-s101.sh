# Session 101, call 1: the eigenvector launch's slice without tau and scale
# (14 matrices per SM), and the counter QR stages' blocks chosen without the
# `uneven` preference; A/B inside one library by temporary switches
# (BATCHEIG_EXP_OLD_SLICE / BATCHEIG_EXP_UNEVEN give the old choices).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/nb4 && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/nb4
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/nb4/bin
export LD_LIBRARY_PATH=/tmp/nb4/lib OPENBLAS_NUM_THREADS=1
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 0 --batch 200000"
row() { grep -E '^ +[0-9]+ +200000 +batcheig' /tmp/ab.txt | awk '{printf "n=%s %s ms; ", $1, $5}'; }
for round in 1 2; do
  for mode in new old; do
    if [ $mode = old ]; then E="env BATCHEIG_EXP_UNEVEN=1"; else E="env"; fi
    $E $B --n 20,25,30 > /tmp/ab.txt 2>&1
    echo "$mode round $round eigenvalues rc=$? $(el)s: $(row)" >> $S
    if [ $mode = old ]; then E="env BATCHEIG_EXP_OLD_SLICE=1"; else E="env"; fi
    $E $B --vectors --n 20,25,30 > /tmp/ab.txt 2>&1
    echo "$mode round $round vectors rc=$? $(el)s: $(row)" >> $S
  done
done
./batcheig_geev_bitcheck --n 5:64 --batch 300 > /tmp/bit_e.txt 2>&1; echo "bit e rc=$? $(md5sum < /tmp/bit_e.txt) $(el)s" >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 > /tmp/bit_v.txt 2>&1; echo "bit v rc=$? $(md5sum < /tmp/bit_v.txt) $(el)s" >> $S
./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz > /tmp/bit_s.txt 2>&1; echo "bit staged rc=$? $(md5sum < /tmp/bit_s.txt) $(el)s" >> $S
BATCHEIG_EXP_UNEVEN=1 ./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz > /tmp/bit_s2.txt 2>&1; echo "bit staged uneven rc=$? $(md5sum < /tmp/bit_s2.txt) $(el)s" >> $S
BATCHEIG_EXP_OLD_SLICE=1 ./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 > /tmp/bit_v2.txt 2>&1; echo "bit v old slice rc=$? $(md5sum < /tmp/bit_v2.txt) $(el)s" >> $S
cp /tmp/bit_e.txt /tmp/bit_v.txt /tmp/bit_s.txt $OUT/
BATCHEIG_TEST_BACKENDS=cuda ./test_geev_cuda > /tmp/t.txt 2>&1; echo "test_geev_cuda rc=$? $(tail -2 /tmp/t.txt | tr '\n' ' ') $(el)s" >> $S
cat $S
