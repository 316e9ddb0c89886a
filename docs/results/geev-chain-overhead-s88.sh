cd /tmp/n/bin 2>/dev/null || { mkdir -p /tmp/n && tar -xJf devrun/b3/bundle.tar.xz -C /tmp/n && cd /tmp/n/bin; }
export LD_LIBRARY_PATH=/tmp/n/lib
P=./batcheig_geev_split_probe
for cfg in "0 40" "8 10000" "8 40" "4 40" "4 10000"; do set -- $cfg; export BATCHEIG_CHAIN_SHIFTS=$1 BATCHEIG_CHAIN_MIN_NH=$2; echo "== shifts $1 min_nh $2"
$P 200 1000 3 d; $P 256 1000 3 s; $P 200 500 3 z
done
