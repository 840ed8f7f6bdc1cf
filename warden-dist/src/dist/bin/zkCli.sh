#!/usr/bin/env bash
# ZooKeeper's zkCli.sh for Warden: the same options and commands (warden shell), against
# Warden or Apache ZooKeeper.  zkCli.sh -server host:port [-timeout ms] [command args...]
set -euo pipefail
# shellcheck source=zkEnv.sh
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/zkEnv.sh"
# shellcheck disable=SC2086
exec "$JAVA" "-Xmx${ZK_CLIENT_HEAP:-256}m" ${CLIENT_JVMFLAGS:-} ${JVMFLAGS:-} -cp "$CLASSPATH" "$MAIN_CLASS" shell "$@"
