set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
[ -d /tmp/n/bin ] || mkdir -p /tmp/n && tar -xJf devrun/b5/bundle.tar.xz -C /tmp/n
cd /tmp/n/bin; export LD_LIBRARY_PATH=/tmp/n/lib
BC=./batcheig_geev_bitcheck
( timeout 300 compute-sanitizer --tool memcheck $BC --precision sdcz --n 200 --batch 2 > /tmp/mc1.txt 2>&1; echo "memcheck eig n=200 rc=$? $(grep 'ERROR SUMMARY' /tmp/mc1.txt | tr '\n' ' ') $(el)s" >> $S ) &
( timeout 300 compute-sanitizer --tool memcheck $BC --precision sdcz --n 200 --batch 2 --vectors > /tmp/mc2.txt 2>&1; echo "memcheck vec n=200 rc=$? $(grep 'ERROR SUMMARY' /tmp/mc2.txt | tr '\n' ' ') $(el)s" >> $S ) &
( timeout 300 compute-sanitizer --tool memcheck $BC --precision cz --n 101,151 --batch 2 > /tmp/mc3.txt 2>&1; echo "memcheck cz n=101,151 rc=$? $(grep 'ERROR SUMMARY' /tmp/mc3.txt | tr '\n' ' ') $(el)s" >> $S ) &
( timeout 320 compute-sanitizer --tool racecheck $BC --precision dz --n 200 --batch 1 > /tmp/rc1.txt 2>&1; echo "racecheck dz n=200 rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' /tmp/rc1.txt | tr '\n' ' ') $(el)s" >> $S ) &
( timeout 320 compute-sanitizer --tool racecheck $BC --precision sc --n 251,151 --batch 1 > /tmp/rc2.txt 2>&1; echo "racecheck s n=251 c n=151 rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' /tmp/rc2.txt | tr '\n' ' ') $(el)s" >> $S ) &
wait
for f in /tmp/mc*.txt /tmp/rc*.txt; do echo "== $f"; tail -5 $f; done > $OUT/tails.txt
cat $S
