#!/bin/sh
# hosts.sh COMMAND: run the sh(1) command line COMMAND with two "hosts":
# two sshd(8) of Debian's openssh-server on 127.0.0.1, on two free
# ports, with a host key and a user key made for the run in a temporary
# directory.  COMMAND finds in $SLF a GNU parallel sshloginfile with an
# entry per host (one job slot each), "ssh -p PORT -i KEY ... root@..."
# with StrictHostKeyChecking=no and a known_hosts file in the temporary
# directory.  Both sshd are stopped and the directory removed on every
# exit path.  Without sshd, ssh, ssh-keygen or parallel it prints a
# "skipped:" line and exits 77.
set -u
for t in /usr/sbin/sshd ssh ssh-keygen parallel; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "skipped: no $t" >&2
		exit 77
	fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/hosts.XXXXXXXXXX") || exit 1
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	rm -rf -- "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

ssh-keygen -q -t ed25519 -N '' -C hosts.sh -f "$work/host_key" &&
    ssh-keygen -q -t ed25519 -N '' -C hosts.sh -f "$work/user_key" &&
    cp "$work/user_key.pub" "$work/authorized_keys" || exit 1
chmod 700 "$work"
# sshd wants its privilege separation directory.
[ -d /run/sshd ] || mkdir -p /run/sshd || exit 1

# Start an sshd on a free port; its port in $port.
start() {
	for try in 1 2 3 4 5 6 7 8 9 10; do
		port=$(( ($$ * 7 + try * 131 + $(date +%N | sed 's/^0*//;s/^$/0/') \
		    % 1000) % 20000 + 30000 ))
		cat >"$work/sshd_config.$port" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PidFile $work/sshd.$port.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel ERROR
CONF
		/usr/sbin/sshd -D -e -f "$work/sshd_config.$port" \
		    2>"$work/sshd.$port.log" &
		pid=$!
		pids="$pids $pid"
		# Ready when a login works; gone if the port was taken.
		i=0
		while [ "$i" -lt 100 ]; do
			if ! kill -0 "$pid" 2>/dev/null; then
				break
			fi
			if sshcmd "$port" true 2>/dev/null; then
				return 0
			fi
			i=$((i + 1))
			sleep 0.1
		done
	done
	echo "hosts.sh: cannot start sshd:" >&2
	cat "$work"/sshd.*.log >&2
	exit 1
}

# ssh to the sshd on port $1, running the rest.
sshcmd() {
	p=$1
	shift
	ssh -p "$p" -i "$work/user_key" -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$work/known_hosts" -o BatchMode=yes \
	    -o LogLevel=ERROR root@127.0.0.1 "$@"
}

: >"$work/sshloginfile"
for h in 1 2; do
	start
	printf '1/ssh -p %s -i %s -o StrictHostKeyChecking=no -o UserKnownHostsFile=%s -o BatchMode=yes -o LogLevel=ERROR root@127.0.0.1\n' \
	    "$port" "$work/user_key" "$work/known_hosts" >>"$work/sshloginfile"
done
SLF=$work/sshloginfile
export SLF
sh -c "$1"
