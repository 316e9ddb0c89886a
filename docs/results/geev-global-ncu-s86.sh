set -u
mkdir -p /tmp/n && tar -xJf devrun/b86b/bundle.tar.xz -C /tmp/n
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1
cd /tmp/n/bin
which ncu nsys > $OUT/s.txt 2>&1
prof() { echo "== $*"; ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__block_size,launch__occupancy_limit_registers,sm__inst_executed.sum "$@" 2>&1 | grep -vE "^==PROF==|^D n=|^Z n=|^ *-+ |Section:|Metric Name" ; }
{
for n in 160 200; do
  prof ./batcheig_geev_bitcheck --precision d --n $n --batch 2000
  BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND=1 prof ./batcheig_geev_bitcheck --precision d --n $n --batch 2000
done
prof ./batcheig_geev_bitcheck --precision z --n 100 --batch 2000
BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND=1 prof ./batcheig_geev_bitcheck --precision z --n 100 --batch 2000
} >> $OUT/s.txt 2>&1
wc -l $OUT/s.txt
