#!/bin/sh
# record-bytes.sh: a run file holds any argument bytes (hpmstat-run(5),
# "Strings that are not UTF-8"): invalid UTF-8 is shown as \xNN and kept
# exactly in a parallel *_hex key; report reads it back; old files still read.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK
scratch_dir
if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 is needed to compare bytes"
fi
cd "$dir" || exit 1

fe=$(printf '\376') # 0xfe: never valid in UTF-8
ff=$(printf '\377')
out="out$ff.txt"
"$H" stat --record r.json -o "$out" -- sh -c ": $fe" "x$ff" >"$tap_out" 2>"$tap_err"
ok $? "stat --record with \\xfe and \\xff in argv and -o exits 0"

# the decoding rule of hpmstat-run(5), applied by an independent reader;
# python's argv keeps undecodable bytes (surrogateescape), os.fsencode
# gives them back exactly
check_argv() {
	python3 - "$@" <<'PY'
import json, os, sys
doc = json.load(open("r.json", encoding="utf-8"))
def exact(obj, key, i=None):
    v = obj[key] if i is None else obj[key][i]
    hx = obj.get(key + "_hex")
    if hx is not None and i is not None:
        hx = hx[i]
    return bytes.fromhex(hx) if hx is not None else v.encode("utf-8")
want = [os.fsencode(a) for a in sys.argv[1:]]
got = [exact(doc, "argv", i) for i in range(len(doc["argv"]))]
if got != want:
    sys.exit("argv %r, want %r" % (got, want))
cmd = exact(doc, "command")
if cmd != b" ".join(want[want.index(b"--") + 1:]):
    sys.exit("command %r" % cmd)
PY
}
check_argv stat --record r.json -o "$out" -- sh -c ": $fe" "x$ff" 2>"$tap_err"
ok $? "argv and command round-trip byte for byte ($(head -c 200 "$tap_err"))"
"$J" < r.json >/dev/null; ok $? "the run file is valid JSON (UTF-8 only)"
[ "$("$J" command < r.json)" = 'sh -c : \xfe x\xff' ]; ok $? "command shows invalid bytes as \\xNN"
[ -f "$out" ]; ok $? "-o with a \\xff byte wrote that very path"

"$H" report r.json >"$tap_out" 2>"$tap_err"; rc=$?
[ $rc -eq 0 ] && grep -qF 'command: sh -c : \xfe x\xff' "$tap_out"
ok $? "report reads it and shows the command escaped (exit $rc, $(head -1 "$tap_err"))"
"$H" report --format json r.json | "$J" >/dev/null; ok $? "report --format json on it is valid JSON"

# the issue's own case: a command whose exit status is not 0
"$H" stat --record r2.json -- sh -c "true$fe" x >/dev/null 2>&1
"$J" command command_hex argv.# < r2.json | tr '\n' ' ' >"$tap_out"
[ "$(cat "$tap_out")" = 'sh -c true\xfe x 7368202d632074727565fe2078 8 ' ]
ok $? "sh -c 'true\\xfe' x: command and all eight arguments kept ($(cat "$tap_out"))"

# valid UTF-8 stays as it is, without a _hex key
"$H" stat --record u.json -- sh -c ': é' >/dev/null 2>&1
[ "$("$J" command argv_hex command_hex < u.json | tr '\n' ' ')" = 'sh -c : é (missing) (missing) ' ]
ok $? "valid UTF-8 is stored as is, no _hex keys"

# a run file from before (no _hex keys) still reads
python3 -c '
import json; d = json.load(open("r.json"))
for k in ("argv_hex", "command_hex"): d.pop(k, None)
json.dump(d, open("old.json", "w"))'
"$H" report old.json >"$tap_out" 2>&1; ok $? "a run file without _hex keys still reads"
python3 -c '
import json; d = json.load(open("r.json")); d["command_hex"] = "7g"
json.dump(d, open("bad.json", "w"))'
run_fails_with "a bad command_hex is one clear error" "command_hex" "$H" report bad.json

done_testing
