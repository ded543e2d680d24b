set -u
timeout 570 bash scripts/gpu-headline > $OUT/headline-console.txt 2>&1; echo "headline rc=$?"
tail -30 $OUT/headline-console.txt
cd $OUT && tar -czf /tmp/B.tgz * && rm -rf $OUT/* && mv /tmp/B.tgz . && ls -la
