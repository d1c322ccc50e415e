#!/bin/sh
# contrib/devicetree/kunminghu-pmu.dtsi, the project's example riscv,pmu
# node: every mhpmevent value it gives an event (named in the comment above
# it) is what hpmstat's encoder gives that name less the INH bits 62:58,
# every range maps to the counters of that event's bank, every raw row pins
# its event to its bank, and dtc compiles the node (skipped without dtc).
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
dts="$top_srcdir/contrib/devicetree/kunminghu-pmu.dtsi"
# SPEC §1's counters of each bank, as the node's masks
mask() { case $1 in frontend) echo 0x000007f8 ;; backend) echo 0x0007f800 ;; memblock) echo 0x07f80000 ;; cache) echo 0xf8000000 ;; esac; }
bad=0 n=0
# "/* TEXT: NAME ... */" then "<IDX HI LO>"
names=$(grep -o '/\* [^*]*: [A-Za-z_0-9]* ' "$dts" | sed 's/.*: \([A-Za-z_0-9]*\) $/\1/')
vals=$(grep -o '<0x[0-9a-f]* 0x[0-9a-f]* 0x[0-9a-f]*>,\?;\?$' "$dts")
set -- $names
for v in $(printf '%s\n' "$vals" | tr -d '<>,;' | tr ' ' ':'); do
	[ $# -gt 0 ] || break
	name=$1; shift
	idx=${v%%:*} rest=${v#*:} hi=${rest%%:*} lo=${rest#*:}
	line=$($H encode "$name") || { bad=$((bad + 1)); continue; }
	got=$(printf '0x%08x%08x' $((hi)) $((lo)))
	want=$(printf '0x%016x' $(( ${line%% *} & ~(0x1f << 58) )))
	bank=$(printf '%s\n' "$line" | sed -n 's/.* bank=\([a-z]*\) .*/\1/p')
	# the range row that holds idx must give this bank's counters
	m=$(sed -n '/riscv,event-to-mhpmcounters/,/;/p' "$dts" | tr -d '\t' |
		sed -n 's/^<\(0x[0-9a-f]*\) \(0x[0-9a-f]*\) \(0x[0-9a-f]*\)>.*/\1 \2 \3/p' |
		while read -r a b c; do [ $((idx)) -ge $((a)) ] && [ $((idx)) -le $((b)) ] && echo "$c"; done)
	n=$((n + 1))
	if [ "$got" != "$want" ] || [ "$m" != "$(mask "$bank")" ]; then
		bad=$((bad + 1))
		diag "$name ($idx): node $got on $m, hpmstat $want on $bank $(mask "$bank")"
	fi
done
[ $n -ge 12 ] && [ $bad -eq 0 ]; ok $? "every mapped event is hpmstat's encoding on its bank's counters ($n events, $bad bad)"
# raw rows: "/* NAME (bank N) */" then <0 LO 0xffffffff 0xffffffff MASK>
bad=0 n=0
for r in $(grep -A1 '/\* [A-Za-z_0-9]* ([a-z]* [0-9]*) \*/' "$dts" | tr -d '\t' | paste -d' ' - - |
	sed -n 's#^/\* \([A-Za-z_0-9]*\) (\([a-z]*\) [0-9]*) \*/ <0x00000000 \(0x[0-9a-f]*\) 0xffffffff 0xffffffff \(0x[0-9a-f]*\)>.*#\1:\2:\3:\4#p'); do
	name=${r%%:*} r=${r#*:} bank=${r%%:*} r=${r#*:} lo=${r%%:*} m=${r#*:}
	line=$($H encode "$name")
	n=$((n + 1))
	case "$line" in *" bank=$bank "*) ;; *) bad=$((bad + 1)) ;; esac
	[ $(( ${line%% *} & ~(0x1f << 58) )) -eq $((lo)) ] && [ "$m" = "$(mask "$bank")" ] || bad=$((bad + 1))
done
[ $n -eq 3 ] && [ $bad -eq 0 ]; ok $? "every raw row pins its event to its bank ($n rows, $bad bad)"
if command -v dtc >/dev/null 2>&1; then
	run_ok "dtc compiles the node" sh -c "printf '/dts-v1/;\n/include/ \"%s\"\n' '$dts' | dtc -I dts -O dtb -o /dev/null -"
else
	skip "dtc compiles the node" "no dtc (Debian package device-tree-compiler)"
fi
done_testing
