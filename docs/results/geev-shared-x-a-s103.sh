# Session 103, call A of two on one warm machine: main 11034a6's library
# ("old", built here for sm_90), unpacked to /tmp/nold for call B
# (geev-shared-x-b-s103.sh); its bitchecks against the references (the
# final GPU code of session 102, not run on 500 000 matrices there), and
# the first "old" round of the A/B set.
set -u
R=$PWD
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nold && mkdir -p /tmp/nold && tar -xJf devrun/a/old.tar.xz -C /tmp/nold
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
{ grep -m1 "model name" /proc/cpuinfo; nproc; } >> $S
md5sum /tmp/nold/lib/libbatcheig.so.0.1 >> $S
cd /tmp/nold/bin
export LD_LIBRARY_PATH=/tmp/nold/lib
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/old bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/old bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/old bit v staged (want c9aeeb26) /' >> $S
./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz | md5sum | sed 's/^/old bit e staged (want 0384a4c5) /' >> $S
echo "bitchecks $(el)s" >> $S
bash $R/docs/results/geev-shared-x-set-s103.sh > $OUT/ab_old_1.txt 2>&1
echo "round 1 old $(el)s" >> $S
cat $S $OUT/ab_old_1.txt
