#!/usr/bin/env bash
# Runs warden-bench's JMH microbenchmarks. Arguments go to JMH, e.g.
#   warden-bench/run-jmh.sh -f 1 -wi 1 -i 1 -r 1s -w 1s CodecBenchmark
#   warden-bench/run-jmh.sh -p batchSize=16 TxnLogBenchmark
# Run from the repository root. Builds the needed modules (offline) and writes the runtime
# classpath to warden-bench/target/runtime.classpath first.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -o -pl warden-bench -am compile dependency:build-classpath \
    -Dmdep.outputFile=target/runtime.classpath -DincludeScope=runtime
exec java -cp "warden-bench/target/classes:$(cat warden-bench/target/runtime.classpath)" \
    org.openjdk.jmh.Main "$@"
