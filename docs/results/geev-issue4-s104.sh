# Session 104, call 3 (the same machine, after gpu-tests-s104-b.sh; bundle
# in /tmp/nm): the issue-4 workload with main's final GPU code (0d83a1b):
# double eigenvalues n = 5-30, float n = 15-30, double with right vectors
# n = 30; 500 000 matrices each, the LAPACKE loops on the whole batch
# (float's on 64 matrices, extrapolated), cusolverDnXgeev on a subset.
# Then (call 4) racecheck of the block variant's eigenvector launch,
# which call 1's 60-second limit cut short while the suites ran beside it.
S=$OUT/summary.txt; T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
{ grep -m1 "model name" /proc/cpuinfo; nproc; } >> $S
cd /tmp/nm/bin; export LD_LIBRARY_PATH=/tmp/nm/lib; B=./batcheig_bench
$B geev --memory device --reps 3 --cusolver-subset 100 --n 5:30:5 --batch 500000 --csv $OUT/w_d.csv > $OUT/w_d.txt 2>&1; echo "double rc=$? $(el)s" >> $S
$B geev --memory device --reps 3 --precision s --n 15:30:5 --cusolver-subset 0 --lapacke-subset 1 --batch 500000 --csv $OUT/w_s.csv > $OUT/w_s.txt 2>&1; echo "float rc=$? $(el)s" >> $S
$B geev --memory device --reps 3 --vectors --n 30 --cusolver-subset 20 --batch 500000 --csv $OUT/w_v.csv > $OUT/w_v.txt 2>&1; echo "vectors rc=$? $(el)s" >> $S
cat $S; grep -h "batcheig-device\|lapacke \|cusolver-loop" $OUT/w_d.txt $OUT/w_s.txt $OUT/w_v.txt
# call 4:
for pr in s d; do
  timeout 150 compute-sanitizer --print-limit 20 --tool racecheck ./batcheig_geev_bitcheck --precision $pr --vectors --n 70 --batch 2 > $OUT/rc_$pr.txt 2>&1
  echo "racecheck $pr vectors --n 70 --batch 2 rc=$? $(tail -1 $OUT/rc_$pr.txt)"
done
