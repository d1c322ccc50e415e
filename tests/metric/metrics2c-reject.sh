#!/bin/sh
# The metric table generator is the build-time validator of metrics.json: it
# must refuse a table it cannot trust, naming the file and the problem on one
# line, and accept the shipped one.
. "$top_srcdir/tests/lib.sh"
bin="$top_builddir/src/gen/metrics2c"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
kmh="$top_srcdir/events/riscv/openxiangshan/kunminghu"
# as src/kmh/local.mk runs it: the names an expression may use are those of
# Kunminghu's event files
gen() {
	"$bin" --table kmh_metrics --retired rob_commitInstr --events "$kmh/frontend.json" \
		--events "$kmh/backend.json" --events "$kmh/memblock.json" --events "$kmh/cache.json" "$@"
}

run_ok "the shipped metrics.json generates" gen "$kmh/metrics.json"
cp "$tap_out" "$dir/gen.c"
out_is "one table object of the given name, with the retired substitution" "1" sh -c \
	"grep -c '^const struct metric_table kmh_metrics = {' \"$dir/gen.c\""
# each named variant is a table of its own (the default the exported one),
# every one with the same substitution
out_is "a table per variant, document and slots, each with the substitution" "2 2 2" sh -c \
	"echo \$(grep -c '^\(static \)\?const struct metric_table [a-z_0-9]* = {' \"$dir/gen.c\") \$(grep -c 'retired = {\"rob_commitInstr\", \"instructions\"}' \"$dir/gen.c\") \$(grep -c '^.{\"\(document\|slots\)\", ' \"$dir/gen.c\")"

m() { # name expr [groups] [threshold] [brief]
	printf '{"MetricName":"%s","MetricExpr":"%s"' "$1" "$2"
	[ -n "${3:-}" ] && printf ',"MetricGroup":"%s"' "$3"
	[ -n "${4:-}" ] && printf ',"MetricThreshold":"%s","ScaleUnit":"100%%"' "$4"
	printf ',"BriefDescription":"%s"}' "${5:-a share of slots}"
}
reject() { # description, expected message part, json body
	printf '[%s]' "$3" > "$dir/metrics.json"
	run_fails_with "$1" "$2" gen "$dir/metrics.json"
}
L1="TopdownL1;tma_L1_group"
reject "not JSON" "line" "{"
reject "an entry that is not an object" "not an object" '1'
reject "a metric without a name" "MetricName" '{}'
printf '{}' > "$dir/metrics.json"
run_fails_with "not an array" "array" gen "$dir/metrics.json"
reject "missing MetricExpr" "MetricExpr" '{"MetricName":"a","BriefDescription":"b"}'
reject "unknown field" "unknown field MetricExp" '{"MetricName":"a","MetricExp":"1","BriefDescription":"b"}'
reject "expression does not parse" "does not parse: expected" "$(m a '1 +')"
reject "threshold does not parse" "MetricThreshold does not parse" "$(m a 'cycles' "$L1" 'a >')"
reject "unknown event" "'INST_SPECC'" "$(m a 'INST_SPECC / cycles')"
reject "unknown name in a threshold" "'nosuch'" "$(m a 'cycles' "$L1" 'nosuch > 1')"
reject "noEvent" "noEvent" "$(m a 'noEvent + 1')"
reject "a cycle of two" "cycle" "$(m a 'b + 1'),$(m b 'a * 2')"
reject "a metric that uses itself" "cycle" "$(m a 'a + 1')"
reject "duplicate names, case ignored" "twice" "$(m a '1'),$(m A '2')"
reject "a name that is an event" "also an event" "$(m INST_SPEC '1')"
reject "a bad name" "MetricName" "$(m '1a' '1')"
reject "a parent group without its metric" "'tma_nosuch'" "$(m tma_x 'cycles' 'TopdownL2;tma_L2_group;tma_nosuch_group' 'tma_x > 1')"
reject "level 2 without a parent" "parent group" "$(m tma_x 'cycles' 'TopdownL2;tma_L2_group' 'tma_x > 1')"
reject "levels disagree" "disagree" "$(m tma_x 'cycles' 'TopdownL1;tma_L2_group' 'tma_x > 1')"
reject "child two levels down" "one level down" "$(m tma_p 'cycles' "$L1" 'tma_p > 1'),$(m tma_x 'cycles' 'TopdownL3;tma_L3_group;tma_p_group' 'tma_x > 1')"
reject "Topdown metric without a threshold" "MetricThreshold" "$(m tma_x 'cycles' "$L1")"
reject "Topdown brief says neither slots nor cycles" "of slots" "$(m tma_x 'cycles' "$L1" 'tma_x > 1' 'a share')"
reject "empty group" "empty group" "$(m a '1' 'x;;y')"
reject "duplicate key" "line" '{"MetricName":"a","MetricName":"b","MetricExpr":"1","BriefDescription":"b"}'
reject "ScaleUnit without a number" "ScaleUnit" '{"MetricName":"a","MetricExpr":"1","BriefDescription":"b","ScaleUnit":"%"}'
# MetricVariants: the first names the metric's own formula, the others
# give theirs; names, fields and formulas are checked as a metric's are
v() { # metric name, then variant objects
	n=$1
	shift
	printf '{"MetricName":"%s","MetricExpr":"cycles","BriefDescription":"b","MetricVariants":[' "$n"
	sep=
	for o in "$@"; do printf '%s%s' "$sep" "$o"; sep=,; done
	printf ']}'
}
D='{"VariantName":"doc","VariantDescription":"the default"}'
S='{"VariantName":"slots","VariantDescription":"d","MetricExpr":"cycles * 6"}'
reject "variants: one alone" "at least two" "$(v a "$D")"
reject "variants: not a list" "at least two" '{"MetricName":"a","MetricExpr":"1","BriefDescription":"b","MetricVariants":{}}'
reject "variants: the default with a formula" "takes no MetricExpr" "$(v a "$S" "$S")"
reject "variants: another without one" "'x' has no MetricExpr" "$(v a "$D" '{"VariantName":"x","VariantDescription":"d"}')"
reject "variants: an unknown field" "unknown field MetricThreshold" "$(v a "$D" '{"VariantName":"x","VariantDescription":"d","MetricExpr":"1","MetricThreshold":"1"}')"
reject "variants: a bad name" "VariantName 'X y'" "$(v a "$D" '{"VariantName":"X y","VariantDescription":"d","MetricExpr":"1"}')"
reject "variants: a formula that does not parse" "a variant's MetricExpr does not parse" "$(v a "$D" '{"VariantName":"x","VariantDescription":"d","MetricExpr":"1 +"}')"
reject "variants: a formula naming an unknown event" "a variant's MetricExpr references 'nosuch'" "$(v a "$D" '{"VariantName":"x","VariantDescription":"d","MetricExpr":"nosuch"}')"
reject "variants: a name given twice" "given twice" "$(v a "$D" "$S" "$S")"
reject "variants: two defaults in one table" "not the default 'doc'" "$(v a "$D" "$S"),$(v b '{"VariantName":"other","VariantDescription":"d"}' "$S")"
reject "variants: one name, two descriptions" "another VariantDescription" "$(v a "$D" "$S"),$(v b "$D" '{"VariantName":"slots","VariantDescription":"e","MetricExpr":"1"}')"
reject "variants: a cycle only in a variant" "cycle" "$(v a "$D" '{"VariantName":"x","VariantDescription":"d","MetricExpr":"b"}'),$(m b 'a + 1')"
printf '[%s]' "$(v a "$D" "$S"),$(m b 'a + 1')" > "$dir/metrics.json"
run_ok "variants: a table with two is accepted" "$bin" --table t "$dir/metrics.json"
out_is "variants: variant slots's table has its formula, the default's its own" "cycles * 6|cycles" sh -c \
	"grep '\.expr = \"cycles' \"$tap_out\" | sed 's/.*= \"//; s/\",\$//' | sort -r | tr '\n' '|' | sed 's/|\$//'"
printf '[%s]' "$(m tma_p 'cycles' "$L1" 'tma_p > 1'),$(m tma_x 'tma_p * 2' 'TopdownL2;tma_L2_group;tma_p_group' 'tma_x > 0.1 & tma_p > 1' 'a share of cycles')" > "$dir/metrics.json"
run_ok "a two-level tree is accepted" gen "$dir/metrics.json"
out_is "the generated table has the child" "1" sh -c "\"$bin\" --table t \"$dir/metrics.json\" | grep -c 'tma_p -> tma_x'"
# the generator knows no model: the events come from the command line
printf '[%s]' "$(m a 'INST_SPEC / cycles')" > "$dir/metrics.json"
run_fails_with "without event files, a model event is unknown" "'INST_SPEC'" "$bin" --table t "$dir/metrics.json"
printf '[{"EventName":"INST_SPEC"}]' > "$dir/ev.json"
run_ok "with an event file naming it, it is known" "$bin" --table t --events "$dir/ev.json" "$dir/metrics.json"
run_fails_with "an event file without EventName" "EventName" "$bin" --table t --events "$dir/metrics.json" "$dir/metrics.json"
run_fails_with "--retired must be an event" "--retired 'nosuch'" "$bin" --table t --retired nosuch --events "$dir/ev.json" "$dir/metrics.json"
run_fails_with "--table must be a C name" "not a C identifier" "$bin" --table 1t "$dir/metrics.json"
# TopdownStage2 (the groups a node descends into, Arm's stage 2) and
# Revisions (entries of some revisions of a core only)
s2() { # name groups stage2
	printf '{"MetricName":"%s","MetricExpr":"cycles","MetricGroup":"%s","TopdownStage2":"%s","MetricThreshold":"%s > 1","ScaleUnit":"100%%","BriefDescription":"a share of slots"}' "$1" "$2" "$3" "$1"
}
printf '[%s,%s]' "$(s2 tma_p "$L1" Mix)" "$(m mix_a 'cycles * 2' Mix)" >"$dir/metrics.json"
run_ok "TopdownStage2 naming a group of the file is accepted" gen "$dir/metrics.json"
out_is "... and generated as the node's stage2" "1" sh -c "grep -c '\.stage2 = \"Mix\"' \"\$0\"" "$tap_out"
reject "TopdownStage2 naming no group of the file" "TopdownStage2 names 'Nosuch'" "$(s2 tma_p "$L1" 'Mix;Nosuch'),$(m mix_a 'cycles' Mix)"
reject "TopdownStage2 outside the tree" "TopdownStage2 on a metric outside the Topdown tree" "$(s2 a Mix Mix)"
rv() { # name revisions
	printf '{"MetricName":"%s","Revisions":"%s","MetricExpr":"cycles","BriefDescription":"b"}' "$1" "$2"
}
printf '[%s,%s]' "$(rv a r0p0-r0p2)" "$(rv a r0p3-)" >"$dir/metrics.json"
run_fails_with "entries for revisions need --revisions" "an entry for revisions r0p0-r0p2, and no --revisions" \
	"$bin" --table t "$dir/metrics.json"
run_ok "--revisions r0p3-: one of the two entries named a" "$bin" --table t --revisions r0p3- "$dir/metrics.json"
out_is "... that revision's" "1" sh -c "grep -c '^	.nr = 1,' \"\$0\"" "$tap_out"
run_fails_with "--revisions that no entry is for" "--revisions r9p9: no entry of the file is for those revisions" \
	"$bin" --table t --revisions r9p9 "$dir/metrics.json"
"$bin" "$dir/metrics.json" >"$tap_out" 2>"$tap_err"
[ $? -eq 2 ] && grep -q '^usage: metrics2c --table NAME' "$tap_err"
ok $? "no --table: usage, exit 2"
done_testing
