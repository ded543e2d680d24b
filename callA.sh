set -u
mkdir -p gpu-bin/tests && tar -xJf gpu-bin/tests.tar.xz -C gpu-bin/tests && rm gpu-bin/tests.tar.xz
timeout 360 env TESTS_ONLY=1 bash scripts/gpu-run > $OUT/tests-console.txt 2>&1; echo "tests rc=$?"
tail -5 $OUT/tests-console.txt
timeout 215 env SKIP_TESTS=1 SHORT_BFS=1 bash scripts/gpu-run > $OUT/verify-console.txt 2>&1; echo "verify rc=$?"
grep -c "FAILED" $OUT/*/bfs-runs.txt $OUT/*/cc-runs.txt $OUT/*/sssp-runs.txt 2>/dev/null
cd $OUT && tar -czf /tmp/A.tgz * && rm -rf $OUT/* && mv /tmp/A.tgz . && ls -la
