#!/bin/sh
# top-htop.sh: hpmstat top's process table as htop lists it (issue 32), in
# batch and JSON frames on the perf back end, checked against /proc read
# here: every process (sleeping, stopped and zombie ones too, not only the
# busiest), its state letter (proc(5)'s R S D Z T), VIRT and RES (statm's
# pages x the page size), NI and USER (the owner of /proc/PID);
# -u USER (a name or a uid; an unknown one refused in one line); sorting by
# any column, text ones included; and values that cannot be right (CPU
# time that went backwards, a %CPU over 100 x the CPUs) flagged '?', null
# in JSON, never a number. Both task sources: BPF (when it loads) and the
# per-task groups (--no-bpf).
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
tmp=$(mktemp -d)
kids=""
trap 'main_shell || exit; for k in $kids; do kill -9 $k 2>/dev/null; done; rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$tmp/none"
page=$(getconf PAGESIZE)

if ! "$H" top --json -n 1 -d 0.1 --backend perf >"$tmp/p" 2>/dev/null ||
	! grep -q '"backend":"perf"' "$tmp/p"; then
	skip_all "the perf back end does not run here"
fi

# a sleeper, a stopped one, a zombie (its parent, exec'ed into a sleeper,
# never reaps it) and a busy loop; the sleepers are mt-sleeper (named, and
# not a `sleep` another test on the machine might end)
MT=$top_builddir/tests/top/mt-sleeper
# (the sleeper blocks on a FIFO: mt-sleeper wakes every 20 ms)
mkfifo "$tmp/ff"
sh -c 'exec 3<>"$1"; read x <&3' sh "$tmp/ff" & sl=$!
"$MT" htopst$$ 0 600 & st=$!
sh -c 'sleep 0.1 & echo $! >"$1"; exec "$2" htopzp$$ 0 600' sh "$tmp/zpid" "$MT" & zp=$!
sh -c 'while :; do :; done' & busy=$!
kids="$sl $st $zp $busy"
sleep 0.5
kill -STOP $st
zo=$(cat "$tmp/zpid")

# row FILE PID KEY: the value of KEY in the last frame's row of PID
row() {
	python3 -c '
import json, sys
f = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
for p in f["processes"]:
    if p.get("pid") == int(sys.argv[2]) and not p.get("thread"):
        v = p.get(sys.argv[3])
        print("null" if v is None else v)
        break
else:
    print("absent")' "$@"
}
# statm PID FIELD (1 size, 2 resident) in bytes
statm() { echo $(( $(cut -d' ' -f"$2" /proc/"$1"/statm) * page )); }

for src in bpf groups; do
	opt=; [ $src = groups ] && opt=--no-bpf
	"$H" top --json -n 2 -d 0.3 --backend perf $opt >"$tmp/j" 2>"$tmp/e"
	run_rc=$?
	here=$(ls -d /proc/[0-9]* | wc -l)
	n=$(python3 -c '
import json, sys
f = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
print(len([p for p in f["processes"] if not p.get("thread") and not p.get("exited")]))' "$tmp/j")
	# processes come and go while we look: a margin of 10 %
	[ $run_rc -eq 0 ] && [ "$n" -ge $((here * 9 / 10)) ]
	ok $? "$src: every process is listed ($n rows, /proc has $here)"
	got="$(row "$tmp/j" $sl state) $(row "$tmp/j" $st state) $(row "$tmp/j" $zo state) $(row "$tmp/j" $busy state)"
	[ "$got" = "S T Z R" ]; ok $? "$src: states of a sleeper, a stopped one, a zombie, a busy loop (want S T Z R, got $got)"
	want="$(statm $sl 1) $(statm $sl 2)"
	got="$(row "$tmp/j" $sl VIRT | cut -d. -f1) $(row "$tmp/j" $sl RES | cut -d. -f1)"
	[ "$got" = "$want" ]; ok $? "$src: VIRT RES of the sleeper are statm's pages in bytes ($got; statm: $want)"
	ni=$(cut -d')' -f2 /proc/$sl/stat | cut -d' ' -f18)
	[ "$(row "$tmp/j" $sl NI | cut -d. -f1)" = "$ni" ] && [ "$(row "$tmp/j" $sl user)" = "$(stat -c %U /proc/$sl)" ]
	ok $? "$src: NI $ni and USER $(stat -c %U /proc/$sl) as /proc says"
done

# batch: the columns and the sleeper's line
"$H" top -b -n 1 -d 0.2 --backend perf --no-bpf >"$tmp/b" 2>/dev/null
grep -Eq '^ +PID COMMAND .* VIRT +RES +NI +S USER$' "$tmp/b" &&
	grep -Eq "^ *$st htopst$$ .* T root\$" "$tmp/b"
ok $? "batch: VIRT RES NI, S and USER columns ($(grep -E "^ *$st " "$tmp/b"))"

# -u: another user's process, by name and by uid
setpriv --reuid=nobody --regid=nogroup --clear-groups "$MT" htopnb$$ 0 600 & nb=$!
kids="$kids $nb"
sleep 0.3
for u in nobody 65534; do
	"$H" top --json -n 1 -d 0.2 --backend perf --no-bpf -u $u >"$tmp/u" 2>/dev/null
	got=$(python3 -c '
import json, sys
f = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
print(" ".join(sorted(set(p.get("user", "?") for p in f["processes"] if not p.get("exited")))), any(p["pid"] == int(sys.argv[2]) for p in f["processes"]))' "$tmp/u" $nb)
	[ "$got" = "nobody True" ]; ok $? "-u $u: only nobody's processes, the sleeper among them ($got)"
done
run_fails_with "-u with no such user: one line, status 1" "-u 'no-such-user': no such user" \
	"$H" top -b -n 1 -u no-such-user

# sort by any column: a text column ascending, a number descending
for c in COMMAND USER S RES; do
	"$H" top --json -n 1 -d 0.2 --backend perf --no-bpf -s $c >"$tmp/s" 2>/dev/null
	python3 -c '
import json, sys
f = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
c = sys.argv[2]
key = {"COMMAND": "name", "USER": "user", "S": "state"}.get(c, c)
v = [p.get(key) for p in f["processes"] if not p.get("exited") and key in p]
if c == "RES":
    v = [x for x in v if x is not None]
    sys.exit(v != sorted(v, reverse=True))
if c == "COMMAND":
    sys.exit(len(v) < 2)  # natural order: checked by its first letters below
sys.exit(v != sorted(v))' "$tmp/s" $c
	ok $? "-s $c: the rows in its order"
done
"$H" top -b -n 1 -d 0.2 --backend perf --no-bpf -s COMMAND | sed -n '/^ *PID /,$p' | sed 1d |
	awk 'NF { print tolower(substr($2, 1, 1)) }' | grep -v '^$' >"$tmp/c"
sort -c "$tmp/c" 2>/dev/null; ok $? "-s COMMAND: batch rows by name"

# values that cannot be right: a fake <proc> whose CPU time goes backwards
# after frame 1, then jumps by far more than the CPUs can run after frame 2
mkdir -p "$tmp/proc/4242"
fake() { echo "4242 (fake) S 1 1 1 0 -1 0 0 0 0 0 $1 0 0 0 20 0 1 0 1 4096 1" >"$tmp/proc/4242/stat"; }
# run_fake ARGS: top on the fake <proc> into $tmp/f, the changes made
# between its frames (PATTERN of a frame's first line: frame N). Frames 2 s
# apart: each change must land before the next frame reads <proc>, and
# under CI's load a poll could sleep past 0.5 s (frame 2 then saw no change)
run_fake() {
	fake 100000
	HPMSTAT_PROCFS="$tmp/proc" "$H" top -n 4 -d 2 --backend perf --no-bpf "$@" >"$tmp/f" 2>/dev/null &
	tp=$!
	for k in 1 2; do
		i=0
		until grep -Eq "^hpmstat top - frame $k,|\"frame\":$k," "$tmp/f" || [ $i -ge 200 ]; do
			sleep 0.05; i=$((i + 1))
		done
		[ $k = 1 ] && fake 1 || fake 999999999
	done
	wait $tp
}
run_fake --json
python3 -c '
import json, sys
fr = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [p for f in fr for p in f["processes"] if p["pid"] == 4242]
bad = [p for p in rows if p.get("flagged") == ["%CPU"] and p["%CPU"] is None]
nums = [p["%CPU"] for p in rows if p["%CPU"] is not None]
sys.exit(not (len(bad) >= 2 and all(0 <= x <= 100 * int(sys.argv[2]) for x in nums)))' "$tmp/f" "$(getconf _NPROCESSORS_CONF)"
ok $? "JSON: CPU time backwards and a jump past the CPUs: %CPU null, flagged; no wrong number"
run_fake -b
[ "$(grep -Ec '^ +4242 fake +\? ' "$tmp/f")" -eq 2 ] && grep -q '^?: a value that cannot be right' "$tmp/f" &&
	! grep -Eq '^ +4242 fake +-[0-9]' "$tmp/f"
ok $? "batch: '?' in its place twice and the legend says why ($(grep -E '^ +4242 ' "$tmp/f" | tr -s ' ' | tr '\n' '|'))"

# the count line, as htop's "Tasks:": the processes running that are shown
# of those <proc> lists, thread rows (tree view) and exited ones (--sticky)
# apart. A fake <proc>: a process with two threads besides its main one,
# and a process that ends after frame 1 (it was "4 shown of 1": rows
# counted, not processes)
for p in 4300/task/4300 4300/task/4310 4300/task/4311 4301; do
	mkdir -p "$tmp/tp/$p"
done
for p in 4300 4300/task/4300 4300/task/4310 4300/task/4311 4301; do
	echo "${p##*/} (tproc) S 1 1 1 0 -1 0 0 0 0 0 50 50 0 0 20 0 3 0 1 4096 1" >"$tmp/tp/$p/stat"
	echo tproc >"$tmp/tp/$p/comm"
done
HPMSTAT_PROCFS="$tmp/tp" "$H" top -b -n 3 -d 0.3 --backend perf --no-bpf --tree --sticky \
	>"$tmp/tb" 2>/dev/null &
tp=$!
i=0
until grep -q '^Processes:' "$tmp/tb" || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done
rm -rf "$tmp/tp/4301"
wait $tp
counts=$(sed -n 's/^Processes: //p' "$tmp/tb" | tr '\n' '|')
last=$(awk '/^hpmstat top - frame 3,/ { f = 1 } f' "$tmp/tb")
[ "$counts" = "2 shown of 2|1 shown of 1|1 shown of 1|" ] &&
	[ "$(printf '%s\n' "$last" | grep -Ec '^ +43[01][01] +\\_ tproc ')" -eq 2 ] &&
	printf '%s\n' "$last" | grep -Eq '^ +4301 tproc .* X( |$)'
ok $? "Processes: running ones shown of those counted, beside thread rows and an exited one ($counts)"
[ $? -eq 0 ] || diag "$last"
done_testing
