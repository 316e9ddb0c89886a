# Session 103, call E (right after call D, geev-shared-x-d-s103.sh, which
# left 11034a6's library in /tmp/nold on the same machine): cb63bfd's
# library (x_column's shared-memory mark in float only; double and complex
# PTX byte-identical to 11034a6's), built here for sm_90, devrun/e. The
# bitchecks against the references, then float right vectors new / old /
# new / old on one machine, with double n = 30 as a control.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/ne && mkdir -p /tmp/ne && tar -xJf devrun/e/new.tar.xz -C /tmp/ne
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
md5sum /tmp/ne/lib/libbatcheig.so.0.1 /tmp/nold/lib/libbatcheig.so.0.1 >> $S 2>&1
cd /tmp/ne/bin
export LD_LIBRARY_PATH=/tmp/ne/lib
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
echo "bitchecks $(el)s" >> $S
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors"
set1() { { $B --precision s --n 20,24,30 --batch 200000; $B --n 30 --batch 200000; } 2>&1 | grep "batcheig-device device"; }
for r in 1 2; do
  set1 > $OUT/e_new_$r.txt; echo "round $r new $(el)s" >> $S
  [ -e /tmp/nold/lib/libbatcheig.so.0.1 ] && { LD_LIBRARY_PATH=/tmp/nold/lib:/tmp/ne/lib set1 > $OUT/e_old_$r.txt; echo "round $r old $(el)s" >> $S; }
done
cat $S; for f in $OUT/e_*; do echo "== $(basename $f)"; cat $f; done
