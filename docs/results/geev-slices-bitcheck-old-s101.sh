# Session 101, call 2: main 863b75d's library (devrun/old) on the bitcheck with vectors, for the carve change.
set -u
S=$OUT/summary.txt
[ -x /tmp/nb4/bin/batcheig_bench ] || { echo "no /tmp/nb4: a fresh machine" >> $S; cat $S; exit 1; }
mkdir -p /tmp/old && xz -dc devrun/old/libbatcheig.so.0.1.xz > /tmp/old/libbatcheig.so.0.1
cd /tmp/nb4/bin
export LD_LIBRARY_PATH=/tmp/old:/tmp/nb4/lib
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 > /tmp/bit_v_old.txt 2>&1; echo "old bit v rc=$? $(md5sum < /tmp/bit_v_old.txt)" >> $S
cmp /tmp/bit_v_old.txt /tmp/bit_v.txt && echo "old == new (vectors)" >> $S
cat $S
