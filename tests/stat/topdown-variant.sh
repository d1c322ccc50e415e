#!/bin/sh
# hpmstat stat --topdown-variant: Kunminghu's 'slots' formulas against
# independent truth: the variant's formula (metrics.json's MetricVariants:
# Bad Speculation = (INST_SPEC + 6 * RECOVERY_BUBBLE - rob_commitInstr) /
# (6 * cycles), Backend Bound the remainder, Branch Mispredicts and Machine
# Clears its parts) recomputed here, in awk, from the raw counts the same
# run prints; the default stays the document's (INST_SPEC + RECOVERY_BUBBLE);
# each profile's declared slots breakdown (emu profiles --json); the run
# file records the variant and report computes with it; the refusals.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/stat/profiles-lib.sh"
H=$HPMSTAT
J=$JSONCHECK
scratch_dir
RAW=mcycle,INST_SPEC,RECOVERY_BUBBLE,rob_commitInstr,Front_Bubble,BR_MIS_PRED,TOTAL_FLUSH

# check FILE FORMULA: every level-1 and Bad Speculation node of a -x, output
# against FORMULA's values from the raw rows of the same output (FORMULA
# slots: RECOVERY_BUBBLE x 6, document: x 1); stat prints shares with two
# decimals, so a node may be off by half a hundredth of a point. Prints
# the worst difference and the node, or what is missing.
check() {
	awk -F, -v rb_slots="$([ "$2" = slots ] && echo 6 || echo 1)" '
		/^#/ { next }
		$3 != "" { c[$3] = $1; next }
		{ split($7, u, " "); m[u[3]] = $6 }
		END {
			C = c["mcycle"]; S = 6 * C
			if (C == "" || C == 0) { print "missing mcycle"; exit }
			fe = c["Front_Bubble"] / S; ret = c["rob_commitInstr"] / S
			bs = (c["INST_SPEC"] + rb_slots * c["RECOVERY_BUBBLE"] - c["rob_commitInstr"]) / S
			be = 1 - (fe + bs + ret)
			bm = bs * c["BR_MIS_PRED"] / c["TOTAL_FLUSH"]; mc = bs - bm
			want["tma_frontend_bound"] = fe; want["tma_bad_speculation"] = bs
			want["tma_backend_bound"] = be; want["tma_retiring"] = ret
			want["tma_branch_mispredicts"] = bm; want["tma_machine_clears"] = mc
			worst = -1
			for (n in want) {
				if (!(n in m)) { print "missing " n; exit }
				d = m[n] - 100 * want[n]; if (d < 0) d = -d
				if (d > worst) { worst = d; which = n }
			}
			printf "%.4f %s\n", worst, which
		}' "$1"
}
within() { awk -v w="${1%% *}" -v t="$2" 'BEGIN { exit !(w ~ /^[0-9.]+$/ && w <= t) }'; }

# ---------------------------------------------------- raw counts, every profile
n=$(profiles_json)
[ "$n" -gt 0 ]
ok $? "emu profiles --json lists the built-in profiles ($n)"
i=0
while [ $i -lt "$n" ]; do
	name=$(profile_name $i)
	$H stat -x, --topdown=2 --topdown-variant=slots -e "$RAW" --emu-profile "$name" \
		--emu-cycles 2e6 2>"$dir/slots.csv" >/dev/null
	w=$(check "$dir/slots.csv" slots)
	within "$w" 0.0051
	ok $? "$name: --topdown-variant=slots is the slots formula of the raw counts (worst $w)"
	$H stat -x, --topdown=2 -e "$RAW" --emu-profile "$name" --emu-cycles 2e6 \
		2>"$dir/default.csv" >/dev/null
	w=$(check "$dir/default.csv" document)
	within "$w" 0.0051
	ok $? "$name: the default is still the document's formula (worst $w)"
	i=$((i + 1))
done
# --topdown-variant=document is the default, byte for byte
$H stat -x, --topdown=3 --emu-profile branch-mispredict --emu-cycles 2e6 2>"$dir/a.csv" >/dev/null
$H stat -x, --topdown=3 --topdown-variant=document --emu-profile branch-mispredict \
	--emu-cycles 2e6 2>"$dir/b.csv" >/dev/null
[ -s "$dir/a.csv" ] && cmp -s "$dir/a.csv" "$dir/b.csv"
ok $? "--topdown-variant=document prints what no --topdown-variant prints"
# the variant changes the recovery nodes and nothing else (level 2: level 3
# multiplexes, and slots takes a counter more, INST_SPEC and RECOVERY_BUBBLE
# being no longer one hardware ADD)
$H stat -x, --topdown=2 --emu-profile branch-mispredict --emu-cycles 2e6 2>"$dir/a.csv" >/dev/null
grep -v '^#' "$dir/a.csv" | awk -F, '{ split($7, u, " "); print u[3], $6 }' | sort > "$dir/a.m"
$H stat -x, --topdown=2 --topdown-variant=slots --emu-profile branch-mispredict \
	--emu-cycles 2e6 2>"$dir/c.csv" >/dev/null
grep -v '^#' "$dir/c.csv" | awk -F, '{ split($7, u, " "); print u[3], $6 }' | sort > "$dir/c.m"
changed=$(join "$dir/a.m" "$dir/c.m" 2>/dev/null | awk '$2 != $3 { print $1 }' | sort | tr '\n' ' ')
[ "$changed" = "tma_backend_bound tma_bad_speculation tma_branch_mispredicts tma_machine_clears " ]
ok $? "slots changes Bad Speculation, its two children and Backend Bound only ($changed)"

# ------------------------------------------- each profile's declared breakdown
# a long run converges to what the profile declares for the variant (as
# stat-emu.sh checks the document's), within 0.5 points, over whole periods
# of a phased profile (4e7 cycles: two of phased's); a profile with a task
# schedule runs the schedule, not the declared mix: left out (mix_profiles)
for i in $(mix_profiles); do
	name=$(profile_name $i)
	declared $i declared_variants.slots.level1 declared_variants.slots.level2 >"$dir/declared"
	$H stat -x, --topdown=2 --topdown-variant=slots --emu-profile "$name" --emu-cycles 4e7 \
		2>"$dir/long.csv" >/dev/null
	worst=$(awk -F, -v decl="$dir/declared" '
		BEGIN { while ((getline l < decl) > 0) { split(l, a, " "); d[a[1]] = a[2] } }
		/^#/ { next }
		{ split($7, u, " "); n = u[3]
		  if (!(n in d) || d[n] == "null") next
		  diff = $6 - 100 * d[n]; if (diff < 0) diff = -diff
		  seen++; if (diff > worst) { worst = diff; which = n } }
		END { if (seen != 10) print "missing " seen; else printf "%.3f %s\n", worst, which }' \
		"$dir/long.csv")
	within "$worst" 0.5
	ok $? "$name: --topdown-variant=slots converges to its declared slots breakdown (worst $worst)"
done

# ------------------------------------------------------- run files and report
$H stat --record "$dir/r.json" --topdown=1 --topdown-variant=slots --emu-harts 2 \
	--emu-cycles 1e6 2>/dev/null >/dev/null
out_is "the run file records the variant" "slots" $J topdown_variant < "$dir/r.json"
# report computes each hart's nodes from its counts: with the variant the
# file names (slots), and with the document's when the file names none
hart_bs() { # report's hart0 Bad Speculation of run file $1
	"$H" report --format json "$1" | awk '
		/"hart": "hart0"/ { h = 1 }
		h && /"name": "tma_bad_speculation"/ { b = 1 }
		b && /"value":/ { gsub(/[",]/, "", $2); print $2; exit }'
}
# hart0's counts from the file: rows name, counts[] per unit
count0() { # event name
	k=0 nev=$($J events.'#' < "$dir/r.json" 2>/dev/null)
	while [ $k -lt "${nev:-0}" ]; do
		if [ "$($J events.$k.name < "$dir/r.json")" = "$1" ]; then
			$J events.$k.counts.0.value < "$dir/r.json"
			return
		fi
		k=$((k + 1))
	done
}
c=$(count0 cycles) is=$(count0 INST_SPEC) rb=$(count0 RECOVERY_BUBBLE) rc=$(count0 rob_commitInstr)
got=$(hart_bs "$dir/r.json")
awk -v g="$got" -v c="$c" -v is="$is" -v rb="$rb" -v rc="$rc" \
	'BEGIN { w = 100 * (is + 6 * rb - rc) / (6 * c); d = g - w; if (d < 0) d = -d; exit !(g != "" && d < 1e-9) }'
ok $? "report: hart0's Bad Speculation is the slots formula of its counts ($got)"
grep -v '"topdown_variant"' "$dir/r.json" > "$dir/old.json"
got=$(hart_bs "$dir/old.json")
awk -v g="$got" -v c="$c" -v is="$is" -v rb="$rb" -v rc="$rc" \
	'BEGIN { w = 100 * (is + rb - rc) / (6 * c); d = g - w; if (d < 0) d = -d; exit !(g != "" && d < 1e-9) }'
ok $? "report: a file without topdown_variant (older hpmstat) is the document's ($got)"
"$H" report "$dir/r.json" >"$tap_out" 2>&1
grep -q "Topdown formulas: slots" "$tap_out"
ok $? "report's text says which formulas the run used"
sed 's/"topdown_variant": "slots"/"topdown_variant": "slotz"/' "$dir/r.json" > "$dir/bad.json"
run_fails_with "report: a run file naming no variant of its model is refused" \
	"topdown_variant: unknown Topdown variant 'slotz'; did you mean 'slots'?" \
	$H report "$dir/bad.json"
# a run of host events alone has no Topdown: no variant, and report reads it
$H stat --record "$dir/h.json" -e task-clock -- true >/dev/null 2>&1
out_is "a run of host events only records no variant" "null" $J topdown_variant < "$dir/h.json"
run_ok "... and report reads it" $H report "$dir/h.json"
sed 's/"topdown_variant": null/"topdown_variant": "slots"/' "$dir/h.json" > "$dir/hbad.json"
run_fails_with "a variant in a run of host events only is refused" \
	"topdown_variant: 'slots' in a run of host events only" $H report "$dir/hbad.json"
sed 's/"topdown_variant": "slots"/"topdown_variant": 6/' "$dir/r.json" > "$dir/nostr.json"
run_fails_with "a variant that is not a string is refused" \
	"topdown_variant: expected a string or null" $H report "$dir/nostr.json"
# stat record's perf.data carries the run file, and stat report uses its variant
$H stat record -o "$dir/p.data" --topdown=1 --topdown-variant=slots --emu-cycles 1e6 \
	>/dev/null 2>&1
$H stat --topdown=1 --topdown-variant=slots --emu-cycles 1e6 2>"$dir/live.txt" >/dev/null
$H stat report -i "$dir/p.data" </dev/null 2>"$dir/replay.txt" >/dev/null
grep '^ *Bad_Speculation ' "$dir/live.txt" > "$dir/live.bs"
grep '^ *Bad_Speculation ' "$dir/replay.txt" > "$dir/replay.bs"
[ -s "$dir/live.bs" ] && cmp -s "$dir/live.bs" "$dir/replay.bs"
ok $? "stat record | stat report: the slots value of the live run ($(cat "$dir/replay.bs" | tr -s ' '))"

# ------------------------------------------------------------------ refusals
run_fails_with "a misspelt variant: the closest name and the known ones" \
	"--topdown-variant: unknown Topdown variant 'slot'; did you mean 'slots'? (known: document, slots)" \
	$H stat --topdown --topdown-variant=slot --emu-cycles 1e5
run_fails_with "an unknown variant: the known names" "(known: document, slots)" \
	$H stat --topdown --topdown-variant=xyz --emu-cycles 1e5
run_fails_with "a model without variants (Arm) refuses one" \
	"the Neoverse N1 PMU model has no Topdown variants" \
	$H stat --pmu neoverse-n1 --topdown --topdown-variant=slots --emu-cycles 1e5
run_fails_with "a variant without metrics" "--topdown-variant needs --topdown or -M" \
	$H stat -e mcycle --topdown-variant=slots --emu-cycles 1e5
$H stat --topdown --topdown-variant=slot --emu-cycles 1e5 >/dev/null 2>&1
st1=$?
$H stat --topdown-retired=foo --topdown --emu-cycles 1e5 >/dev/null 2>&1
[ $st1 -eq $? ] && [ $st1 -ne 0 ]
ok $? "its exit status is that of a bad --topdown-retired value ($st1)"
run_fails_with "report --topdown-variant needs --topdown" "--topdown-variant needs --topdown" \
	$H report --topdown-variant=slots -i "$dir/p.data"
run_fails_with "report --topdown-variant: a typo" "did you mean 'slots'?" \
	$H report --topdown --topdown-variant=slotz -i "$dir/p.data"
run_fails_with "top --topdown-variant: a typo" "did you mean 'slots'?" \
	$H top -b -n 1 --backend emu --topdown-variant=slotz
"$H" top -b -n 1 --backend emu --topdown-variant=slots --emu-profile branch-mispredict \
	>"$tap_out" 2>"$tap_err"
"$H" top -b -n 1 --backend emu --emu-profile branch-mispredict >"$dir/top.txt" 2>&1
bs_top() { awk '$1 == "Bad_Speculation" { print $2; exit }' "$1"; }
a=$(bs_top "$dir/top.txt") b=$(bs_top "$tap_out")
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a != "" && b != "" && b > a) }'
ok $? "top: --topdown-variant=slots shows the larger, slot-counted Bad Speculation ($a -> $b)"
done_testing
