#!/bin/sh
# rdmabench matrix under Slurm's srun, in the lab: munged, slurmctld and
# slurmd run in the guest (one node, the guest, with 2 CPUs; srun -n 4
# --overcommit), configured in a scratch directory since the guest's root
# is this machine's, read-only.  What the guest needs beyond the packages:
# its host name in /etc/hosts (a copy bind-mounted over it), cgroup2
# mounted with a system.slice for slurmd's cgroup/v2 plugin, and munged
# forced to run as root.  The four ranks find rank 0 through Slurm's node
# list (SLURM_JOB_NODELIST), take rank, size and local rank from SLURM_*,
# and run send_lat between every pair of lab hosts (-d rxe%r, --bind
# 192.0.2.%R): every pair good.  Then srun --mpi=pmix: the ranks find rank
# 0 through Slurm's PMIx server instead (a simulated job, --simulate
# outlier=1: the JSON says coordinator_found "pmix" when rdmabench links
# libpmix, and names rank 1).  Skipped when Slurm or munge is missing.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# Three daemons and four ranks take minutes under emulation: a long test,
# run when RDMABENCH_LONG=1 (scripts/check --long).
if [ "${RDMABENCH_LONG:-0}" != 1 ]; then
	echo "SKIP: a long test (RDMABENCH_LONG=1 or scripts/check --long runs it)"
	exit 77
fi
for t in slurmctld slurmd srun munged mungekey; do
	if ! command -v "$t" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$t" ]; then
		echo "SKIP: $t not installed (apt-get install slurmctld slurmd slurm-client munge)"
		exit 77
	fi
done

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=4
LAB_TIMEOUT=${LAB_TIMEOUT:-900}

lab_run '
S=$(mktemp -d /tmp/slurm.XXXXXX)
H=$(hostname)
cp /etc/hosts "$S/hosts"
echo "127.0.0.1 $H" >>"$S/hosts"
mount --bind "$S/hosts" /etc/hosts
mount -t cgroup2 none /sys/fs/cgroup
mkdir -p /sys/fs/cgroup/system.slice "$S/ctld" "$S/d"
mungekey -c -k "$S/munge.key"
munged --force --key-file="$S/munge.key" --socket="$S/munge.socket" \
	--pid-file="$S/munged.pid" --log-file="$S/munged.log" --seed-file="$S/munged.seed"
cat >"$S/slurm.conf" <<EOC
ClusterName=lab
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge.socket
CredType=cred/munge
StateSaveLocation=$S/ctld
SlurmdSpoolDir=$S/d
SlurmctldPidFile=$S/ctld.pid
SlurmdPidFile=$S/d.pid
SlurmctldLogFile=$S/ctld.log
SlurmdLogFile=$S/d.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
NodeName=$H NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=lab Nodes=$H Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
EOC
printf "CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n" >"$S/cgroup.conf"
export SLURM_CONF="$S/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
i=0
while [ "$(sinfo -h -o %t)" != idle ] && [ $i -lt 120 ]; do
	sleep 1
	i=$((i + 1))
done
sinfo >"$OUT/sinfo.out"
srun -n 4 -O "$RB" matrix send_lat -d "rxe%r" --bind "192.0.2.%R" --cpu none --timeout 30 \
	-n 100 --tolerance 1000 --csv "$OUT/srun.csv" >"$OUT/srun.out" 2>"$OUT/srun.err"
echo $? >"$OUT/srun.rc"
srun -n 4 -O --mpi=pmix "$RB" matrix send_lat --simulate outlier=1 --timeout 30 -p 19200 \
	--json "$OUT/pmix.json" >"$OUT/pmix.out" 2>"$OUT/pmix.err"
echo $? >"$OUT/pmix.rc"
cp "$S/ctld.log" "$OUT/ctld.log"
cp "$S/d.log" "$OUT/slurmd.log"
'

cat "$OUT/sinfo.out"
grep -q ' idle ' "$OUT/sinfo.out" || {
	tail -20 "$OUT/slurmd.log" >&2
	fail "the lab's Slurm node never became idle"
}
cat "$OUT/srun.out"
expect_rc srun 0
expect_grep srun.out '^# rdmabench .* matrix send_lat: 4 ranks, 12 pairs in 6 rounds'
jcheck srun.csv 'len(d) == 12' 'all(r["status"] == "ok" for r in d)' \
	'all(r["src_device"] == "rxe" + r["src_rank"] for r in d)' \
	'all(float(r["lat_p50_us"]) > 0 for r in d)'
cat "$OUT/pmix.out" "$OUT/pmix.err"
expect_rc pmix 1
if grep -q '^#define HAVE_PMIX 1' "$TOP_BUILDDIR/config.h"; then
	found=pmix
else
	found=slurm
fi
jcheck pmix.json "d[\"matrix\"][\"coordinator_found\"] == \"$found\"" \
	'd["matrix"]["bad_ranks"] == [1]' 'd["matrix"]["failed"] == 0'
pass
