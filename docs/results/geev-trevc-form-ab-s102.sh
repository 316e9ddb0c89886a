# Session 102, call 3 (after call 2 unpacked main a534558's library to
# /tmp/old on the same warm machine): the eigenvector launch's pivots with
# each member's last-formed eigenvector kept (core/trevc.hpp, built here
# for sm_90, device-bundle devrun/b2) against a534558, alternated, two
# rounds; the bitchecks of the new library against the references.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/n && mkdir -p /tmp/n && tar -xJf devrun/b2/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
ls -la /tmp/old >> $S
cd /tmp/n/bin
NEW=/tmp/n/lib; OLD=/tmp/old:/tmp/n/lib
LD_LIBRARY_PATH=$NEW ./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/new bit v (want 5eb51171) /' >> $S
LD_LIBRARY_PATH=$NEW ./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/new bit v staged (want c9aeeb26) /' >> $S
echo "bitchecks $(el)s" >> $S
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors"
for r in 1 2; do
  for which in NEW OLD; do
    L=${!which}
    LD_LIBRARY_PATH=$L $B --n 20,25,30 --batch 200000 > $OUT/warp_${which}_$r.txt 2>&1
    LD_LIBRARY_PATH=$L $B --n 40 --batch 100000 > $OUT/warp40_${which}_$r.txt 2>&1
    LD_LIBRARY_PATH=$L $B --precision s --n 24,30 --batch 200000 > $OUT/warps_${which}_$r.txt 2>&1
    LD_LIBRARY_PATH=$L $B --n 56,64 --batch 20000 > $OUT/block_${which}_$r.txt 2>&1
    echo "round $r $which $(el)s" >> $S
  done
done
cat $S
for f in $OUT/warp_* $OUT/warp40_* $OUT/warps_* $OUT/block_*; do echo "== $(basename $f)"; grep "batcheig-device device" $f; done
