set -u
W=$PWD/gpu-bin/warpath; d=$OUT/load-after; mkdir -p $d; g=/tmp/g; mkdir -p $g
t() { local name=$1; shift; { echo "\$ $*"; /usr/bin/time -v timeout 300 "$@"; } > $d/$name.txt 2>&1; echo "$name rc=$?"; }
t convert-kron24-el $W convert kron:24 $g/kron-24.el
t convert-kron24-wgr $W convert kron:24 $g/kron-24.wgr
for i in 1 2; do
t info-kron24-el-$i $W info $g/kron-24.el --undirected
t info-kron24-wgr-$i $W info $g/kron-24.wgr
done
t bfs-kron24-wgr $W bfs $g/kron-24.wgr --backend gpu
t bench-kron24-wgr $W bench $g/kron-24.wgr --backend gpu --roots 4
for f in $d/*.txt; do echo "== $f"; grep -E "^read|^build|Elapsed|loaded|place" $f; done
