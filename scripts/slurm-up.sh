#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying `solve plan --slurm` and for the
# engine tests. Run as root, with the Debian packages slurm-wlm and munge installed:
#
#   scripts/slurm-up.sh          write the config if needed, start munged, slurmctld and
#                                slurmd, wait until the node is idle (nothing is restarted
#                                that already runs)
#   scripts/slurm-up.sh stop     stop what `scripts/slurm-up.sh` started (scripts/slurm-down.sh)
#   scripts/slurm-up.sh status   say what runs
#
# No systemd is needed: the daemons are started directly. The config goes to
# /etc/slurm/slurm.conf (SLURM_CONF overrides the path); a config that this script did not
# write is left alone. State goes under /var/spool/slurm-boardsolve, logs under
# /var/log/slurm-boardsolve, pid files under /run/slurm-boardsolve.
set -euo pipefail

CONF=${SLURM_CONF:-/etc/slurm/slurm.conf}
MARK="# Written by boardsolve scripts/slurm-up.sh"
STATE=/var/spool/slurm-boardsolve
LOGS=/var/log/slurm-boardsolve
RUN=/run/slurm-boardsolve
MUNGE_KEY=/etc/munge/munge.key
MUNGE_RUN=/run/munge
HOST=$(hostname -s)
WAIT_SECS=${SLURM_UP_WAIT:-90}
CONF_CHANGED=

say() { echo "slurm-up: $*" >&2; }
die() {
    say "$*"
    exit 1
}

# Whether the process in pid file $1 runs.
alive() { [[ -s $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Stop the process in pid file $1 (named $2): TERM, then KILL after 10 s.
stop_pidfile() {
    local file=$1 name=$2 pid
    if ! alive "$file"; then
        rm -f "$file"
        return 0
    fi
    pid=$(cat "$file")
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        say "$name (pid $pid) ignored TERM; killing it"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
    say "stopped $name"
}

node_state() { sinfo -h -n "$HOST" -o %t 2>/dev/null | head -n1 || true; }

status() {
    local what file
    for what in munged slurmctld slurmd; do
        file=$RUN/$what.pid
        [[ $what == munged ]] && file=$MUNGE_RUN/munged.pid
        if alive "$file"; then echo "$what: running (pid $(cat "$file"))"; else echo "$what: stopped"; fi
    done
    echo "node $HOST: $(node_state | grep . || echo "no answer from slurmctld")"
}

stop() {
    [[ $(id -u) == 0 ]] || die "run as root"
    stop_pidfile "$RUN/slurmd.pid" slurmd
    stop_pidfile "$RUN/slurmctld.pid" slurmctld
    # munged only if this script started it.
    if [[ -e $RUN/munged-started ]]; then
        stop_pidfile "$MUNGE_RUN/munged.pid" munged
        rm -f "$RUN/munged-started"
    fi
}

write_conf() {
    local cpus mem
    cpus=$(nproc)
    # Modest, and never more than the machine has (slurmd refuses a node that claims more).
    mem=$(awk '/^MemTotal:/ { m = int($2 / 1024 / 2); print (m < 1024 ? m : 1024) }' /proc/meminfo)
    if [[ -e $CONF ]] && ! grep -qF "$MARK" "$CONF"; then
        die "$CONF exists and was not written by this script; leaving it alone (move it away, or set SLURM_CONF to another path)"
    fi
    mkdir -p "$(dirname "$CONF")"
    cat >"$CONF.tmp" <<EOF
$MARK: a one-node cluster on $HOST.
ClusterName=boardsolve
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# Array tasks start as soon as a CPU is free, not up to 3 s later.
SchedulerParameters=batch_sched_delay=0
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=60
MinJobAge=60
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
    if [[ -e $CONF ]] && cmp -s "$CONF" "$CONF.tmp"; then
        rm -f "$CONF.tmp"
    else
        mv "$CONF.tmp" "$CONF"
        say "wrote $CONF ($HOST, $cpus CPUs, ${mem} MB)"
        CONF_CHANGED=1
    fi
}

start_munge() {
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        return 0 # a munged already answers
    fi
    if [[ ! -s $MUNGE_KEY ]]; then
        mkdir -p "$(dirname "$MUNGE_KEY")"
        mungekey --create --keyfile="$MUNGE_KEY"
        say "created $MUNGE_KEY"
    fi
    chown munge:munge "$MUNGE_KEY" "$(dirname "$MUNGE_KEY")"
    chmod 0400 "$MUNGE_KEY"
    chmod 0700 "$(dirname "$MUNGE_KEY")"
    install -d -o munge -g munge -m 0755 "$MUNGE_RUN" /var/lib/munge /var/log/munge
    # munged daemonizes; it runs as the munge user, as its package expects.
    runuser -u munge -- /usr/sbin/munged
    touch "$RUN/munged-started"
    say "started munged"
    for _ in $(seq 50); do
        munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    die "munged did not answer (see /var/log/munge/munged.log)"
}

start() {
    [[ $(id -u) == 0 ]] || die "run as root (the daemons run as root here)"
    local missing=()
    for cmd in munged munge slurmctld slurmd sinfo scontrol; do
        command -v "$cmd" >/dev/null || missing+=("$cmd")
    done
    ((${#missing[@]} == 0)) || die "missing ${missing[*]}: apt-get install slurm-wlm munge"
    mkdir -p "$RUN" "$STATE/ctld" "$STATE/d" "$LOGS"
    write_conf
    start_munge
    export SLURM_CONF=$CONF
    if ! alive "$RUN/slurmctld.pid"; then
        /usr/sbin/slurmctld -f "$CONF"
        say "started slurmctld"
    elif [[ -n ${CONF_CHANGED:-} ]]; then
        scontrol reconfigure
        say "slurmctld and slurmd reread $CONF"
    fi
    if ! alive "$RUN/slurmd.pid"; then
        /usr/sbin/slurmd -f "$CONF"
        say "started slurmd"
    fi
    local state="" resumed=""
    for _ in $(seq $((WAIT_SECS * 2))); do
        state=$(node_state)
        case $state in
        idle | mix | alloc) break ;;
        down* | drain* | drng*)
            # Left down by an earlier run (a restart, a host change): bring it back once.
            if [[ -z $resumed ]]; then
                scontrol update nodename="$HOST" state=resume 2>/dev/null || true
                resumed=1
            fi
            ;;
        esac
        sleep 0.5
    done
    case $state in
    idle | mix | alloc) say "node $HOST is $state" ;;
    *)
        sinfo -N -l >&2 || true
        die "node $HOST is not idle after ${WAIT_SECS}s (state '${state}'; logs in $LOGS)"
        ;;
    esac
}

case ${1:-start} in
start) start ;;
stop) stop ;;
status) status ;;
*) die "usage: $0 [start|stop|status]" ;;
esac
