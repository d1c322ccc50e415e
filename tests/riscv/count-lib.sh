# count-lib.sh: helpers of the tests/riscv/count-*.sh tests (sourced after
# tests/lib.sh and tests/riscv/vm-lib.sh, once vm_require has run).
#
# Owns kattr, the independent side of those tests: a small static riscv64
# program that opens the perf_event_attr values given on its command line,
# exactly as written (no hpmstat code), on a command it starts, and prints
# what the kernel said: the open's errno, or the count and the times
# enabled and running. What hpmstat prints is checked against it, against
# objdump's instruction count of busy_loop, and against identities (a
# scaled count against an unscaled count of the same work).
#
#   count_kattr           build kattr (cached by its source), set KATTR
#   kattr SPEC... -- CMD  (in the guest: /bin/kattr) one line per SPEC:
#                         "SPEC ok VALUE ENABLED RUNNING" or "SPEC err ERRNO NAME";
#                         SPEC is TYPE:CONFIG[:FLAGS], FLAGS letters u k h H G
#                         set exclude_user, exclude_kernel, exclude_hv,
#                         exclude_host, exclude_guest, i inherit (as perf
#                         stat and hpmstat open a command's events); -g opens the SPECs as
#                         one group (the first leads)
#   csv_val FILE EVENT    field 1 (the count) of EVENT's first -x, row
#   csv_run FILE EVENT    field 4 (time running, ns); csv_pct: field 5
#   ka FILE SPEC FIELD    a field of kattr's line for SPEC (2: ok/err, 3: value
#                         or errno, 4: enabled, 5: running)
#   num X                 X is a non-negative integer
#   min X...              the smallest; median X...; absdiff A B
#   within A B PPM        |A - B| <= B * PPM / 1e6
#   busy_loop_insns       the instructions of one iteration of the guest busy's
#                         busy_loop, read off objdump: from the backward
#                         branch's target to the branch
#   todo STATUS DESC      a point another part of the work has still to
#                         deliver: "not ok ... # TODO" while it fails (not
#                         counted), a plain "ok" once it passes

count_kattr_src() {
	cat <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	case E2BIG: return "E2BIG";
	case EBUSY: return "EBUSY";
	default: return "other";
	}
}

int main(int argc, char **argv)
{
	int group = 0, i = 1, n = 0, go[2];
	if (i < argc && strcmp(argv[i], "-g") == 0)
		group = 1, i++;
	int first = i;
	while (i < argc && strcmp(argv[i], "--") != 0)
		i++, n++;
	if (i + 1 >= argc || n == 0) {
		fprintf(stderr, "usage: kattr [-g] TYPE:CONFIG[:FLAGS]... -- CMD [ARG...]\n");
		return 2;
	}
	char **cmd = argv + i + 1;
	if (pipe(go))
		return 3;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	close(go[0]);
	int fd[64], err[64], leader = -1;
	for (int k = 0; k < n && k < 64; k++) {
		struct perf_event_attr a;
		char *s = argv[first + k], *end;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = (uint32_t)strtoul(s, &end, 0);
		a.config = *end == ':' ? strtoull(end + 1, &end, 0) : 0;
		for (const char *f = *end == ':' ? end + 1 : ""; *f; f++) {
			switch (*f) {
			case 'u': a.exclude_user = 1; break;
			case 'k': a.exclude_kernel = 1; break;
			case 'h': a.exclude_hv = 1; break;
			case 'H': a.exclude_host = 1; break;
			case 'G': a.exclude_guest = 1; break;
			case 'i': a.inherit = 1; break;
			}
		}
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		int lead = !group || leader < 0;
		a.disabled = lead;
		a.enable_on_exec = lead;
		fd[k] = (int)syscall(SYS_perf_event_open, &a, pid, -1, group && !lead ? leader : -1,
		                     PERF_FLAG_FD_CLOEXEC);
		err[k] = fd[k] < 0 ? errno : 0;
		if (group && lead && fd[k] >= 0)
			leader = fd[k];
	}
	if (write(go[1], "x", 1) != 1)
		return 3;
	close(go[1]);
	int st;
	waitpid(pid, &st, 0);
	for (int k = 0; k < n && k < 64; k++) {
		uint64_t v[3] = {0, 0, 0};
		if (fd[k] < 0)
			printf("%s err %d %s\n", argv[first + k], err[k], ename(err[k]));
		else if (read(fd[k], v, sizeof(v)) != (ssize_t)sizeof(v))
			printf("%s err %d read\n", argv[first + k], errno);
		else
			printf("%s ok %llu %llu %llu\n", argv[first + k], (unsigned long long)v[0],
			       (unsigned long long)v[1], (unsigned long long)v[2]);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}
EOF
}

count_kattr() {
	local sum
	sum=$(count_kattr_src | cksum | cut -d' ' -f1)
	KATTR=$VM_CACHE/kattr-$sum
	[ -x "$KATTR" ] && return 0
	count_kattr_src >"$VM_OUT/kattr.c" &&
		riscv64-linux-gnu-gcc -static -O2 -Wall -o "$KATTR.tmp.$$" "$VM_OUT/kattr.c" &&
		mv "$KATTR.tmp.$$" "$KATTR"
}

csv_field() { awk -F, -v e="$2" -v f="$3" '$3 == e { print $f; exit }' "$1"; }
csv_val() { csv_field "$1" "$2" 1; }
csv_run() { csv_field "$1" "$2" 4; }
csv_pct() { csv_field "$1" "$2" 5; }
ka() { awk -v s="$2" -v f="$3" '$1 == s { print $f; exit }' "$1"; }
num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
min() {
	local m=$1 x
	for x; do [ "$x" -lt "$m" ] && m=$x; done
	echo "$m"
}
absdiff() { echo $(($1 > $2 ? $1 - $2 : $2 - $1)); }
# median X...: the middle one (of an even count, the two middle ones' mean)
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
within() { num "$1" && num "$2" && [ $(($1 > $2 ? $1 - $2 : $2 - $1)) -le $(($2 * $3 / 1000000)) ]; }
todo() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"; else echo "not ok $tap_n - $2 # TODO"; fi
}

busy_loop_insns() {
	riscv64-linux-gnu-objdump -d "$VM_BUSY" | awk -F'\t' '
	/<busy_loop>:$/ { on = 1; next }
	on && NF < 3 { exit }
	on { a = $1; gsub(/[ :]/, "", a); addr[n++] = a
		if ($3 ~ /^b/ && $4 ~ /<busy_loop/) { t = $4; sub(/ <.*/, "", t); sub(/.*,/, "", t)
			for (k = 0; k < n; k++) if (addr[k] == t) { print n - k; exit } } }'
}
