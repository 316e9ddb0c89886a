# Session 102: the issue-4 workload with main a534558 (built here for
# sm_90, device-bundle devrun/b1; its GPU code is ea827f1's: the PTX of the
# four geev objects is byte-identical), and the bitchecks against the
# references: double eigenvalues n = 5-30, float n = 15-30, double with
# right vectors n = 30; 500 000 matrices each, the LAPACKE loops on the
# whole batch, cusolverDnXgeev on a subset.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/n && mkdir -p /tmp/n && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
{ grep -m1 "model name" /proc/cpuinfo; nproc; } >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
echo "bitchecks $(el)s" >> $S
B=./batcheig_bench
$B geev --memory device --reps 3 --cusolver-subset 100 --n 5:30:5 --batch 500000 --csv $OUT/w_d.csv > $OUT/w_d.txt 2>&1; echo "double rc=$? $(el)s" >> $S
$B geev --memory device --reps 3 --precision s --n 15:30:5 --cusolver-subset 0 --lapacke-subset 1 --batch 500000 --csv $OUT/w_s.csv > $OUT/w_s.txt 2>&1; echo "float rc=$? $(el)s" >> $S
$B geev --memory device --reps 3 --vectors --n 30 --cusolver-subset 20 --batch 500000 --csv $OUT/w_v.csv > $OUT/w_v.txt 2>&1; echo "vectors rc=$? $(el)s" >> $S
cat $S; grep -h "batcheig-device\|lapacke \|cusolver-loop" $OUT/w_d.txt $OUT/w_s.txt $OUT/w_v.txt
