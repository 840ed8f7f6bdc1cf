#!/usr/bin/env bash
# ZooKeeper's zkServer.sh for Warden, with its verbs, variables (zkEnv.sh) and pid file:
#   zkServer.sh [--config DIR] {start|start-foreground|stop|version|restart|status|print-cmd} [CONFIG_FILE]
# start runs the server in the background, its output in
# $ZOO_LOG_DIR/warden-$USER-server-$HOSTNAME.out, its pid in dataDir/zookeeper_server.pid
# (ZOOPIDFILE overrides), and returns once it serves (or has failed). stop sends SIGTERM, on
# which Warden stops cleanly, and waits for the process (ZK_STOP_TIMEOUT seconds, default 30).
set -euo pipefail

if [[ "${1:-}" == "--config" ]]; then
    [[ $# -ge 2 ]] || { echo "--config needs a directory" >&2; exit 1; }
    ZOOCFGDIR="$2"
    shift 2
fi
# shellcheck source=zkEnv.sh
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/zkEnv.sh"

usage() {
    echo "Usage: $0 [--config <conf-dir>] {start|start-foreground|stop|version|restart|status|print-cmd} [config file]" >&2
}
[[ $# -ge 1 ]] || { usage; exit 1; }
COMMAND="$1"
if [[ $# -ge 2 ]]; then
    ZOOCFG="$2"
    [[ "$ZOOCFG" == /* ]] || ZOOCFG="$ZOOCFGDIR/$ZOOCFG"
else
    ZOOCFG="$ZOOCFGDIR/$ZOOCFG"
fi
echo "Using config: $ZOOCFG" >&2

# the value of KEY in the config file (last one wins), empty if absent
config_value() {
    sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$ZOOCFG" 2>/dev/null | tail -n 1 | tr -d '\r'
}

ZOO_DATADIR="$(config_value dataDir)"
ZOO_DATADIR="${ZOO_DATADIR:-./data}"
ZOOPIDFILE="${ZOOPIDFILE:-$ZOO_DATADIR/zookeeper_server.pid}"
ZOO_OUT="$ZOO_LOG_DIR/warden-${USER:-$(id -un)}-server-$(hostname).out"
# as ZooKeeper's script: the log directory and file name, for the rolling log file (conf/logback.xml)
ZOO_LOG_FILE="${ZOO_LOG_FILE:-warden-${USER:-$(id -un)}-server-$(hostname).log}"
ZK_STOP_TIMEOUT="${ZK_STOP_TIMEOUT:-30}"
ZK_START_TIMEOUT="${ZK_START_TIMEOUT:-60}"
# ZooKeeper's JMX variables, read as its zkServer.sh reads them: JMXPORT opens a remote JMX port
# (JMXAUTH and JMXSSL, default false, say whether it asks for a password and speaks TLS);
# without it the JMX agent takes local connections (JMXLOCALONLY, default false); JMXDISABLE
# (anything but false) starts no agent. The beans are registered either way, and jconsole or
# jcmd on this machine can attach to the process without a port.
JMX_FLAGS=()
if [[ -z "${JMXDISABLE:-}" || "${JMXDISABLE}" == "false" ]]; then
    if [[ -n "${JMXPORT:-}" ]]; then
        echo "Warden remote JMX port set to $JMXPORT (authenticate ${JMXAUTH:-false}, ssl ${JMXSSL:-false})" >&2
        JMX_FLAGS=(-Dcom.sun.management.jmxremote "-Dcom.sun.management.jmxremote.port=$JMXPORT"
            "-Dcom.sun.management.jmxremote.authenticate=${JMXAUTH:-false}"
            "-Dcom.sun.management.jmxremote.ssl=${JMXSSL:-false}")
    else
        JMX_FLAGS=(-Dcom.sun.management.jmxremote "-Dcom.sun.management.jmxremote.local.only=${JMXLOCALONLY:-false}")
    fi
else
    echo "JMX disabled by user request" >&2
fi
SERVER_COMMAND=("$JAVA" "-Xmx${ZK_SERVER_HEAP:-1000}m" "${JMX_FLAGS[@]}")
SERVER_COMMAND+=("-Dzookeeper.log.dir=$ZOO_LOG_DIR" "-Dzookeeper.log.file=$ZOO_LOG_FILE")
# shellcheck disable=SC2206
SERVER_COMMAND+=(${SERVER_JVMFLAGS:-} ${JVMFLAGS:-} -cp "$CLASSPATH" "$MAIN_CLASS" server --config "$ZOOCFG")

running_pid() {
    [[ -f "$ZOOPIDFILE" ]] || return 1
    local pid
    pid="$(cat "$ZOOPIDFILE")"
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && { echo "$pid"; return 0; }
    return 1
}

start() {
    [[ -f "$ZOOCFG" ]] || { echo "Error: no config file $ZOOCFG" >&2; exit 1; }
    echo -n "Starting warden ... "
    local pid
    if pid="$(running_pid)"; then
        echo "already running as process $pid."
        exit 1
    fi
    mkdir -p "$ZOO_LOG_DIR" "$(dirname "$ZOOPIDFILE")"
    : > "$ZOO_OUT"
    nohup "${SERVER_COMMAND[@]}" > "$ZOO_OUT" 2>&1 < /dev/null &
    pid=$!
    echo "$pid" > "$ZOOPIDFILE"
    # serving, or failed: the server prints one of its start lines, or exits
    local waited=0
    while (( waited < ZK_START_TIMEOUT * 10 )); do
        if grep -q -E '^Warden (serving on|member) ' "$ZOO_OUT" 2>/dev/null; then
            echo "STARTED"
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            rm -f "$ZOOPIDFILE"
            echo "FAILED TO START"
            tail -n 20 "$ZOO_OUT" >&2
            exit 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    echo "FAILED TO START (not serving after ${ZK_START_TIMEOUT} s; see $ZOO_OUT)"
    exit 1
}

stop() {
    echo -n "Stopping warden ... "
    local pid
    if ! pid="$(running_pid)"; then
        rm -f "$ZOOPIDFILE"
        echo "no warden to stop (could not find file $ZOOPIDFILE, or its process is gone)"
        return 0
    fi
    kill "$pid"
    local waited=0
    while kill -0 "$pid" 2>/dev/null; do
        if (( waited >= ZK_STOP_TIMEOUT * 10 )); then
            echo "still running after ${ZK_STOP_TIMEOUT} s; sending SIGKILL"
            kill -9 "$pid" 2>/dev/null || true
            break
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    rm -f "$ZOOPIDFILE"
    echo "STOPPED"
}

status() {
    local port address
    port="$(config_value clientPort)"
    address="$(config_value clientPortAddress)"
    address="${address:-127.0.0.1}"
    [[ "$address" == "0.0.0.0" ]] && address="127.0.0.1"
    if [[ -z "$port" ]]; then
        echo "Unable to find client port in $ZOOCFG" >&2
        exit 1
    fi
    echo "Client port found: $port. Client address: $address. Client SSL: false." >&2
    local reply
    if reply="$(exec 3<>"/dev/tcp/$address/$port" && printf 'srvr' >&3 && timeout 5 cat <&3)" \
            && grep -q '^Mode: ' <<<"$reply"; then
        grep '^Mode: ' <<<"$reply"
    else
        echo "Error contacting service. It is probably not running." >&2
        exit 1
    fi
}

case "$COMMAND" in
    start) start ;;
    start-foreground) exec "${SERVER_COMMAND[@]}" ;;
    stop) stop ;;
    restart) stop; sleep 1; start ;;
    status) status ;;
    print-cmd) printf '%q ' "${SERVER_COMMAND[@]}"; echo ;;
    version) exec "$JAVA" -cp "$CLASSPATH" "$MAIN_CLASS" version ;;
    *) usage; exit 1 ;;
esac
