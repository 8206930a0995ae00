#!/usr/bin/env bash
# The sweep on a real Slurm: installs Slurm and munge from the distribution's packages where they are missing
# (slurm-wlm, munge), starts munged, slurmctld and slurmd on this machine as a one-node cluster of its own (its
# own key, socket, ports, state and logs, all in a temporary directory), submits scripts/sweep-slurm.sh as a
# job array over a small grid, waits for it, merges the shards and compares the merged files byte for byte with
# an unsharded run of the same grid; then the same for a tree count (scripts/count-slurm.sh, merge-counts) and
# for a count of distinct positions, one job array a ply, each after the one before, exchanging positions
# (scripts/count-positions-slurm.sh). It stops the daemons it started and removes its directory, however it
# ends.
#
#   scripts/slurm-check.sh            # .ci/run calls it after the tests
#
# Where it cannot run — no root and no sudo to install packages or start the daemons, no apt-get, no Slurm
# after installing — it says why and exits 0 with "SKIPPED" in its last line; every failure of the check itself
# exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

skip() {
    echo "slurm-check: SKIPPED: $*"
    exit 0
}

# The daemons live in the system directories, which a user's PATH may leave out.
export PATH="$PATH:/usr/sbin:/sbin"
command -v python3 >/dev/null || skip "python3 (to find two free ports) is missing"

if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    skip "the daemons of a one-node cluster need root (or password-less sudo), which this account has not"
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || skip "Slurm is not installed and there is no apt-get to install it"
    echo "== installing slurm-wlm and munge"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi
command -v sbatch >/dev/null || skip "slurm-wlm installed no sbatch"

bench=${BENCH_SUITE:-$repo/target/debug/bench-suite}
if [ ! -x "$bench" ]; then
    cargo build -q -p bench-suite
    bench=$repo/target/debug/bench-suite
fi

dir=$(mktemp -d /tmp/khela-slurm.XXXXXX)
chmod 755 "$dir"
pids=()
cleanup() {
    local status=$?
    # The jobs first, so that no task runs on in a directory about to go.
    if [ -n "${SLURM_CONF:-}" ]; then
        squeue --noheader --format=%i 2>/dev/null | xargs -r scancel 2>/dev/null || true
    fi
    for pid in "${pids[@]}"; do
        $sudo kill "$pid" 2>/dev/null || true
    done
    # Each daemon gets ten seconds to stop, then is killed.
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 20); do
            $sudo kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        $sudo kill -9 "$pid" 2>/dev/null || true
    done
    $sudo rm -rf "$dir"
    exit $status
}
trap cleanup EXIT

# Munge: a key of our own and a socket of our own, so that a munged already running is left alone.
$sudo dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
$sudo chmod 400 "$dir/munge.key"
$sudo munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed"
pids+=("$($sudo cat "$dir/munged.pid")")

# Two free ports for the controller and the node daemon.
read -r ctld_port node_port < <(python3 -c '
import socket
ports = []
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ports.append(s.getsockname()[1]); s.close()
print(*ports)')

host=$(hostname -s)
cpus=$(nproc)
memory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2))
mkdir -p "$dir/state" "$dir/spool" "$dir/out" "$dir/logs"
cat >"$dir/slurm.conf" <<EOF
ClusterName=khela-check
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=$ctld_port
SlurmdPort=$node_port
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
# A count of positions holds one array a ply until the one before has finished: look every second, not minute.
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
echo "== a one-node cluster: $host, $cpus CPUs, ports $ctld_port and $node_port, in $dir"
$sudo env SLURM_CONF="$SLURM_CONF" slurmctld -f "$SLURM_CONF"
$sudo env SLURM_CONF="$SLURM_CONF" slurmd -f "$SLURM_CONF"
for _ in $(seq 1 60); do
    [ -f "$dir/slurmctld.pid" ] && [ -f "$dir/slurmd.pid" ] && break
    sleep 0.5
done
for daemon in slurmctld slurmd; do
    if [ ! -f "$dir/$daemon.pid" ]; then
        echo "slurm-check: $daemon did not start; the daemons' logs:" >&2
        $sudo tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
        exit 1
    fi
    pids+=("$($sudo cat "$dir/$daemon.pid")")
done
state=""
for _ in $(seq 1 60); do
    state=$(sinfo --noheader --format=%t 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
if [ "$state" != idle ]; then
    echo "slurm-check: the node did not come up (state ${state:-unknown}); the daemons' logs:" >&2
    $sudo tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
    exit 1
fi

# The sweep over a small grid: a job array of 4 tasks, one CPU each, then the merge; and the same grid whole.
grid=(--b 2..4 --d 2..5 --seeds 0..2)
shards=4
echo "== sbatch --array=0-$((shards - 1)) scripts/sweep-slurm.sh ${grid[*]}"
started=$(date +%s)
job=$(sbatch --parsable --wait --array=0-$((shards - 1)) --cpus-per-task=1 --mem-per-cpu=256M \
    --chdir="$repo" --output="$dir/logs/%A_%a.log" \
    --export=ALL,OUT="$dir/out",BENCH_SUITE="$bench" \
    scripts/sweep-slurm.sh "${grid[@]}") || {
    echo "slurm-check: the job array failed; its logs:" >&2
    tail -n 20 "$dir"/logs/*.log >&2 || true
    exit 1
}
echo "job $job: $shards tasks done in $(($(date +%s) - started)) s"
shard_dirs=()
for k in $(seq 0 $((shards - 1))); do
    shard_dirs+=("$dir/out/shards/shard-$k-of-$shards")
done
"$bench" merge --out "$dir/merged" "${shard_dirs[@]}" >/dev/null
"$bench" sweep "${grid[@]}" --out "$dir/whole" >"$dir/whole.log" 2>&1 || {
    echo "slurm-check: the unsharded sweep failed:" >&2
    tail -n 20 "$dir/whole.log" >&2
    exit 1
}
compared=0
for file in "$dir"/whole/*; do
    name=$(basename "$file")
    case "$name" in *.meta.json) continue ;; esac # the sidecars hold times and dates
    cmp "$file" "$dir/merged/$name"
    compared=$((compared + 1))
done
if [ "$compared" -lt 2 ]; then
    echo "slurm-check: the unsharded sweep wrote $compared files to compare" >&2
    exit 1
fi
echo "the merged shards equal the unsharded sweep, $compared files byte for byte"

# A tree count as a job array of 3 parts, added up, against the count in one piece.
count=(--game connect4 --depth 9)
parts=3
echo "== sbatch --array=0-$((parts - 1)) scripts/count-slurm.sh ${count[*]}"
started=$(date +%s)
job=$(sbatch --parsable --wait --array=0-$((parts - 1)) --cpus-per-task=1 --mem-per-cpu=256M \
    --chdir="$repo" --output="$dir/logs/count-%A_%a.log" \
    --export=ALL,OUT="$dir/out",BENCH_SUITE="$bench" \
    scripts/count-slurm.sh "${count[@]}") || {
    echo "slurm-check: the count's job array failed; its logs:" >&2
    tail -n 20 "$dir"/logs/count-*.log >&2 || true
    exit 1
}
echo "job $job: $parts parts done in $(($(date +%s) - started)) s"
part_files=()
for k in $(seq 0 $((parts - 1))); do
    part_files+=("$dir/out/count-parts/part-$k-of-$parts.csv")
done
"$bench" merge-counts "${part_files[@]}" --out "$dir/count-merged.csv" >/dev/null
"$bench" count "${count[@]}" --only sequences --out "$dir/count-whole.csv" >"$dir/count-whole.log" 2>&1
cmp "$dir/count-merged.csv" "$dir/count-whole.csv"
echo "the parts of the count add up to the count in one piece, byte for byte"

# Distinct positions as one job array of 3 tasks a ply, each array after the one before, then the merge; against
# the count in one piece.
positions=(--game connect4 --depth 8)
echo "== PARTS=3 scripts/count-positions-slurm.sh ${positions[*]}"
started=$(date +%s)
PARTS=3 OUT="$dir/out" BENCH_SUITE="$bench" WAIT=1 SBATCH_ARGS="--cpus-per-task=1 --mem-per-cpu=256M --chdir=$repo" \
    scripts/count-positions-slurm.sh "${positions[@]}" >"$dir/positions-submit.log" 2>&1 || {
    echo "slurm-check: the count of positions failed; its logs:" >&2
    tail -n 20 "$dir/positions-submit.log" "$dir"/out/count-positions/logs/*.log >&2 || true
    exit 1
}
echo "$((${positions[3]} + 1)) job arrays and the merge done in $(($(date +%s) - started)) s"
if [ ! -f "$dir/out/count-positions/positions.csv" ]; then
    echo "slurm-check: the count of positions merged nothing; its logs:" >&2
    tail -n 20 "$dir/positions-submit.log" "$dir"/out/count-positions/logs/*.log >&2 || true
    exit 1
fi
"$bench" count "${positions[@]}" --only positions --out "$dir/positions-whole.csv" >"$dir/positions-whole.log" 2>&1
cmp "$dir/out/count-positions/positions.csv" "$dir/positions-whole.csv"
echo "the tasks that exchanged positions count them as the count in one piece, byte for byte"
echo "slurm-check: passed"
