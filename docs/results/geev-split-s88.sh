set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
BC=./batcheig_geev_bitcheck
$BC --n 5:64 --batch 300 > /tmp/b.txt 2>&1; echo "bit rc=$? $(md5sum < /tmp/b.txt) (ref b3f47dc3) $(el)s" >> $S
$BC --n 5:64 --batch 300 --vectors > /tmp/bv.txt 2>&1; echo "bitv rc=$? $(md5sum < /tmp/bv.txt) (ref ac032bcf) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 > /tmp/bl.txt 2>&1; echo "bitlarge rc=$? $(md5sum < /tmp/bl.txt) (ref c0108c32) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 --vectors > /tmp/blv.txt 2>&1; echo "bitlargev rc=$? $(md5sum < /tmp/blv.txt) (ref ceed8d99) $(el)s" >> $S
P=./batcheig_geev_split_probe
{
$P 200 1000 3 d; $P 256 1000 3 d; $P 200 500 3 d 1
$P 256 1000 3 s; $P 330 1000 3 s
$P 100 500 3 z; $P 200 500 3 z; $P 100 500 3 z 1
$P 200 500 3 c; $P 150 500 3 c 1
} > $OUT/split.txt 2>&1
echo "split done $(el)s" >> $S
cat $OUT/split.txt
cat $S
