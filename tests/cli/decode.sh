#!/bin/sh
# hpmstat decode: fields, names by bank or counter, and bad values.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
J=$JSONCHECK

out=$($H decode --counter 11 0x4000040000002007)
case "$out" in "0x4000040000002007  INST_SPEC + RECOVERY_BUBBLE  bank=backend counters=11-18 E0=7:INST_SPEC E1=8:RECOVERY_BUBBLE "*) r=0 ;; *) r=1 ;; esac
ok $r "--counter 11 names backend events"
out=$($H decode --bank frontend 0x6800010000000c02)
case "$out" in "0x6800010000000c02  (ifu_req & ifu_miss):u  "*"modes=U,VU modifiers=:u") r=0 ;; *) r=1 ;; esac
ok $r "--bank names the events and the modifiers ($out)"
out=$($H decode 0x0000030000000001 1 0b11)
printf '%s\n' "$out" | head -1 | grep -q 'op0=reserved(0x3):and'; ok $? "a reserved OP_TYPE is reported with the op the counter executes"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ]; ok $? "one line per value"
out=$($H decode --bank frontend 0x40001e0000000c02)
case "$out" in "0x40001e0000000c02  ifu_req ^ ifu_miss  "*"op0=reserved(0x1e):xor "*" inexact") r=0 ;; *) r=1 ;; esac
ok $r "OP_TYPE0 = 0x1e: bit 1 picks XOR, bits 4:3 are ignored ($out)"
$H decode 0x0280000000000001 | grep -q 'reserved\[57:55\]=0x5'; ok $? "bits set in the reserved field are reported"
$H decode 0x8000000000000000 | grep -q 'OF=1'; ok $? "OF is reported"
# what decode prints, encode turns back into the same value
e=$($H decode --bank memblock 0x4010040001302801 | awk '{print $2}')
v=$($H encode "$e" | awk '{print $1}')
[ "$v" = 0x4010040001302801 ]; ok $? "decode's expression encodes back ($e -> $v)"
$H decode --json --counter 30 0x4000000000000005 | $J bank events.0.name counters.# | tr '\n' ' ' > "$tap_out"
[ "$(cat "$tap_out")" = "cache Slice0_l2_cache_hit 5 " ]; ok $? "--json fields ($(cat "$tap_out"))"

run_fails_with "not a number" "'zz' is not a number" $H decode zz
run_fails_with "wider than 64 bits" "wider than 64 bits" $H decode 0x10000000000000000
run_fails_with "counter outside 3-31" "not an event counter" $H decode --counter 2 0
run_fails_with "unknown bank" "unknown bank 'x'" $H decode --bank x 0
run_fails_with "bank and counter together" "exclude each other" $H decode --bank cache --counter 3 0
run_fails_with "no value" "no value given" $H decode
done_testing
