set -u
( cp -r gpu-bin/peers/gapbs /tmp/gapbs && cd /tmp/gapbs && make -j8 bfs converter > /tmp/gapbs-build.log 2>&1 ) &
W=$PWD/gpu-bin/warpath; d=$OUT/text-load; mkdir -p $d; g=/tmp/g; mkdir -p $g
t() { local name=$1; shift; { echo "\$ $*"; /usr/bin/time -v timeout 300 "$@"; } > $d/$name.txt 2>&1; echo "$name rc=$?"; }
nproc > $d/nproc.txt; free -g >> $d/nproc.txt
timeout 560 bash -c "
$(declare -f t); d=$d; W=$W; g=$g
t convert-kron24-el \$W convert kron:24 \$g/kron-24.el
ls -l \$g >> \$d/files.txt
t info-kron24-el-cold \$W info \$g/kron-24.el --undirected
t info-kron24-el \$W info \$g/kron-24.el --undirected
t bfs-kron24-el \$W bfs \$g/kron-24.el --undirected --backend gpu
wait
t gapbs-bfs-kron24-el /tmp/gapbs/bfs -f \$g/kron-24.el -s -n 1
t convert-kron24-wgr \$W convert kron:24 \$g/kron-24.wgr
t bfs-kron24-wgr \$W bfs \$g/kron-24.wgr --backend gpu
t gapbs-convert-sg /tmp/gapbs/converter -f \$g/kron-24.el -s -b \$g/kron-24.sg
t gapbs-bfs-kron24-sg /tmp/gapbs/bfs -f \$g/kron-24.sg -n 1
rm -f \$g/kron-24.el \$g/kron-24.sg
for s in kron:22 urand:22; do f=\$g/\${s/:/-}.el
  t convert-\${s/:/-}-el \$W convert \$s \$f
  t info-\${s/:/-}-el \$W info \$f --undirected
done
t convert-kron22-elgz \$W convert kron:22 \$g/kron-22.el.gz
ls -l \$g >> \$d/files.txt
t info-kron22-elgz \$W info \$g/kron-22.el.gz --undirected
"
cd $OUT && tar -czf /tmp/run2.tgz * && rm -rf $OUT/* && mv /tmp/run2.tgz . && ls -la
