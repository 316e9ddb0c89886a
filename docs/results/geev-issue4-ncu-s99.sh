# Session 99: Nsight Compute on the issue-4 launches with main's final GPU
# code (a7bc0e4, GPU code = ce28596; built here for sm_90, device-bundle
# devrun/b1): double eigenvalues n = 30 and 25 (batch 100 000), float
# n = 30 (100 000), double with right vectors n = 30 (50 000). Each run
# profiles every geev launch of the bench's two calls (warm-up, timed).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && [ -x /tmp/n/bin/batcheig_bench ] || tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
{ which ncu; ncu --version | tail -1; } >> $S 2>&1
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1
B="./batcheig_bench geev --memory device --reps 1 --cusolver-subset 0 --lapacke-subset 1 --check 0"
SECT="--section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis"
MET="--metrics smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active"
# the metrics' names on this ncu (fall back to the sections alone)
ncu --csv --clock-control none --kernel-name regex:geev $MET $B --n 12 --batch 2000 > $OUT/probe.csv 2>&1 || MET=""
echo "metrics: ${MET:-none}" >> $S
run() { lab=$1; shift; ncu --csv --page details --clock-control none --kernel-name regex:geev $SECT $MET $B "$@" > $OUT/$lab.csv 2>&1; echo "$lab rc=$? $(el)s" >> $S; }
run d30 --n 30 --batch 100000
run d25 --n 25 --batch 100000
run s30 --precision s --n 30 --batch 100000
run d30v --vectors --n 30 --batch 50000
cat $S
