set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && tar -xJf devrun/b3/bundle.tar.xz -C /tmp/n
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
BC=./batcheig_geev_bitcheck
BATCHEIG_CHAIN_SHIFTS=0 $BC --n 100,150,180,230,300 --batch 40 > /tmp/bl.txt 2>&1; echo "bitlarge(no chain) rc=$? $(md5sum < /tmp/bl.txt) (ref c0108c32) $(el)s" >> $S
P=./batcheig_geev_split_probe
{
for sh in 0 8 16 24; do export BATCHEIG_CHAIN_SHIFTS=$sh; echo "== shifts $sh"
$P 200 1000 3 d; $P 256 1000 3 d; $P 200 500 3 d 1
$P 256 1000 3 s
$P 200 500 3 z; $P 200 500 3 c
done
export BATCHEIG_CHAIN_SHIFTS=16
for mn in 24 80; do export BATCHEIG_CHAIN_MIN_NH=$mn; echo "== shifts 16 min_nh $mn"; $P 200 1000 3 d; $P 256 1000 3 s; $P 200 500 3 z; done
} > $OUT/split.txt 2>&1
echo "split done $(el)s" >> $S
cat $OUT/split.txt; cat $S
