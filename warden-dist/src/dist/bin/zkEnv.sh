#!/usr/bin/env bash
# Settings shared by the scripts in bin/, with ZooKeeper's names so existing environments carry
# over. Sourced, not run. Every variable may be set beforehand:
#   ZOOCFGDIR        directory of the configuration (default: conf/ of this distribution)
#   ZOOCFG           the configuration file's name in ZOOCFGDIR (default: zoo.cfg)
#   ZOO_LOG_DIR      where zkServer.sh start writes the server's output and its rolling log file
#                    (default: logs/)
#   SERVER_JVMFLAGS  JVM options for the server;  ZK_SERVER_HEAP its heap in MB (default 1000)
#   CLIENT_JVMFLAGS  JVM options for zkCli.sh;     ZK_CLIENT_HEAP its heap in MB (default 256)
#   JVMFLAGS         JVM options for both;         JAVA_HOME the Java 17+ to use (else java on PATH)
# $ZOOCFGDIR/java.env, if present, is sourced too (as ZooKeeper does), to set these in one place.

WARDEN_HOME="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)"
ZOOCFGDIR="${ZOOCFGDIR:-$WARDEN_HOME/conf}"
if [[ -f "$ZOOCFGDIR/java.env" ]]; then
    # shellcheck disable=SC1091
    . "$ZOOCFGDIR/java.env"
fi
ZOOCFG="${ZOOCFG:-zoo.cfg}"
ZOO_LOG_DIR="${ZOO_LOG_DIR:-$WARDEN_HOME/logs}"
if [[ -n "${JAVA_HOME:-}" ]]; then
    JAVA="$JAVA_HOME/bin/java"
else
    JAVA="$(command -v java || true)"
fi
if [[ -z "$JAVA" || ! -x "$JAVA" ]]; then
    echo "Error: no java found: set JAVA_HOME or put Java 17 or later on PATH" >&2
    exit 1
fi
# conf/ first: its logback.xml is the one the logging backend reads
CLASSPATH="$ZOOCFGDIR:$WARDEN_HOME/conf:$WARDEN_HOME/lib/*"
MAIN_CLASS="dev.warden.cli.Main"
