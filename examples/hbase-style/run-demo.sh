#!/usr/bin/env bash
# Builds the HBase-style example (and the modules it needs) and runs the demo.
# Usage: examples/hbase-style/run-demo.sh [connectString] [regionCount]
# Without a connect string the demo starts a Warden server inside its own JVM.
set -euo pipefail

repo_dir="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd -P)"
module_dir="$repo_dir/examples/hbase-style"

echo "building the example ..." >&2
(cd "$repo_dir" && mvn -B -q -o -DskipTests -pl examples/hbase-style -am package) >&2
exec java -cp "$module_dir/target/classes:$module_dir/target/lib/*" dev.warden.examples.hbase.HBaseDemo "$@"
