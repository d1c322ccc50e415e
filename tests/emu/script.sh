#!/bin/sh
# hpmstat emu scripts: every command, each followed by the output SPEC §1/§2
# make it print (`expect` stops the script with exit 1 on any difference).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/emu/emu-test.sh"

run_ok "emu --help exits 0" "$HPMSTAT" emu --help
grep -q '^Usage: hpmstat emu ' "$tap_out"; ok $? "emu --help prints the usage"

script_is "outputs are exactly one line per csr command and pending" \
"0x0000000000000000
ok
0xffffffffffffffff
illegal-instruction
virtual-instruction
mip=0x0000000000000000" <<'S'
csrr mcycle
csrw mcycle 0
csrr stimecmp
mode HU
csrr scountovf
mode VU
csrr scountovf
pending
S

script_ok "reset state: counters 0, stimecmp/vstimecmp all ones, mode M" <<'S'
csrr mcycle
expect 0x0000000000000000
csrr mhpmcounter31
expect 0x0000000000000000
csrr mhpmevent17
expect 0x0000000000000000
csrr stimecmp
expect 0xffffffffffffffff
csrr vstimecmp
expect 0xffffffffffffffff
csrr mcountinhibit
expect 0x0000000000000000
csrr time
expect 0x0000000000000000
pending
expect mip=0x0000000000000000
S

script_ok "comments, blank lines, names in any case, numbers with _ and 0b" <<'S'
# a comment line

   csrw MCYCLE 0xDEAD_BEEF   # a trailing comment
expect ok
csrr Mcycle
expect 0x00000000deadbeef	# expect ignores the comment and the blanks
csrw minstret 0b101
csrr 0xB02
expect 0x0000000000000005
csrw minstret 1_000
csrr instret
expect 0x00000000000003e8
S

script_ok "counter access by mode and counteren (SPEC §2)" <<'S'
mode HS
csrr cycle
expect illegal-instruction
mode M
csrw mcounteren 0x8          # HPM3 only
mode U
csrr hpmcounter3             # scounteren[3] = 0
expect illegal-instruction
mode S
csrr hpmcounter3
expect 0x0000000000000000
mode VS
csrr cycle                   # mcounteren[0] = 0
expect illegal-instruction
csrr hpmcounter3             # hcounteren[3] = 0
expect virtual-instruction
mode M
csrw hcounteren 0x8
mode VS
csrr hpmcounter3
expect 0x0000000000000000
mode VU
csrr hpmcounter3             # scounteren[3] = 0
expect virtual-instruction
mode M
csrw scounteren 0x8
mode vu
csrr hpmcounter3
expect 0x0000000000000000
mode U
csrr hpmcounter3
expect 0x0000000000000000
csrr hpmcounter4
expect illegal-instruction
S

script_ok "writes: read-only, privilege levels, unknown numbers" <<'S'
csrw mhpmevent3 2
expect ok
csrw cycle 1                 # read-only, even in M
expect illegal-instruction
csrs scountovf 1
expect illegal-instruction
csrr 0x7ff                   # no such CSR: as the hardware
expect illegal-instruction
csrw 0xfff 0
expect illegal-instruction
mode HS
csrw mcountinhibit 0         # M-level
expect illegal-instruction
csrw hcounteren 0            # HS-level from HS
expect ok
mode VS
csrw htimedelta 1            # HS-level from VS
expect virtual-instruction
csrc mcycle 1                # M-level from VS
expect illegal-instruction
csrw scounteren 0            # S-level from VS
expect ok
mode VU
csrr scounteren
expect virtual-instruction
csrr mcycle
expect illegal-instruction
mode HU
csrr scounteren
expect illegal-instruction
csrr htimedelta
expect illegal-instruction
S

script_ok "WARL: mcountinhibit TM, reserved OP_TYPE, envcfg" <<'S'
csrw mcountinhibit 0xffffffffffffffff
csrr mcountinhibit
expect 0x00000000fffffffd
csrw mhpmevent3 0x0000_1800_0000_0002     # OP_TYPE0 = 0b11000: OR
csrr mhpmevent3
expect 0x0000000000000002
csrw mhpmevent3 0x0000_0600_0000_0002     # OP_TYPE0 = 0b00110: XOR
csrr mhpmevent3
expect 0x0000020000000002
csrw mhpmevent3 0x007F_FF00_0000_0000     # all ops 0b11111: AND
csrr mhpmevent3
expect 0x0004210000000000
csrw mhpmevent3 0x0380_0000_0000_03FF     # bits 57:55 and index 1023 kept
csrr mhpmevent3
expect 0x03800000000003ff
csrw menvcfg 0xffffffffffffffff
csrr menvcfg
expect 0x8000000000000000
S

script_ok "feed counts RESULT2 x cycles in the counter's own bank (SPEC §1)" <<'S'
csrw mhpmevent3 2                        # frontend ifu_req
csrw mhpmevent11 2                       # backend index 2
csrw mhpmevent4 0x0000010000000C02       # frontend 2 & 3 (op0 = AND)
csrw mhpmevent5 0x0000040000000C02       # frontend 2 + 3 (op0 = ADD)
feed 10 frontend:ifu_req=5 backend:2=7 instret=2
csrr mhpmcounter3                        # 5 x 10
expect 0x0000000000000032
csrr mhpmcounter4                        # 5 & 0
expect 0x0000000000000000
csrr mhpmcounter5                        # 5 + 0, x 10
expect 0x0000000000000032
csrr mhpmcounter11                       # 7 x 10
expect 0x0000000000000046
csrr minstret                            # 2 x 10
expect 0x0000000000000014
feed 2 frontend:2=60 ifu_miss=12         # a NAME unique to one bank
csrr mhpmcounter3                        # 50 + 60 x 2 = 170
expect 0x00000000000000aa
csrr mhpmcounter4                        # (60 & 12) x 2 = 24
expect 0x0000000000000018
csrr mhpmcounter5                        # 50 + (72 mod 64) x 2 = 66
expect 0x0000000000000042
csrr mhpmcounter11                       # backend 2 not fed this time
expect 0x0000000000000046
csrr minstret                            # a feed without instret= retires 0
expect 0x0000000000000014
csrw mhpmevent19 19                      # memblock 19 is load_s0_in_fire.2
feed 3 memblock:load_s0_in_fire.2=4
csrr mhpmcounter19
expect 0x000000000000000c
feed 1 memblock:1=1 memblock:10=1        # .0 and .1 are other events
csrr mhpmcounter19
expect 0x000000000000000c
S

script_ok "mode filter: INH bits per mode; mcycle counts in every mode" <<'S'
csrw mhpmevent3 0x5000000000000002       # MINH | UINH: counts in HS, VS, VU
csrw mhpmevent4 0x2000000000000002       # SINH: counts in M, HU, VS, VU
mode U
feed 100 frontend:2=1
mode S
feed 10 frontend:2=1
mode VU
feed 1 frontend:2=1
mode M
csrr mhpmcounter3                        # 10 + 1
expect 0x000000000000000b
csrr mhpmcounter4                        # 100 + 1
expect 0x0000000000000065
csrr mcycle                              # 100 + 10 + 1
expect 0x000000000000006f
S

script_ok "overflow at 2^64: OF and LCOFIP; OF already 1: no new interrupt" <<'S'
csrw mhpmevent3 2
csrw mhpmcounter3 0xFFFF_FFFF_FFFF_FFFF
feed 1 frontend:2=1
csrr mhpmcounter3
expect 0x0000000000000000
csrr mhpmevent3
expect 0x8000000000000002
pending
expect mip=0x0000000000002000 LCOFIP
csrr scountovf
expect 0x0000000000000008
feed 5 frontend:2=1
pending                                  # stays until software clears it
expect mip=0x0000000000002000 LCOFIP
csrc mip 0x2000
expect ok
pending
expect mip=0x0000000000000000
csrw mhpmcounter3 0xFFFF_FFFF_FFFF_FFFF
feed 1 frontend:2=1                     # wraps with OF already 1
pending
expect mip=0x0000000000000000
csrw mcycle 0xFFFF_FFFF_FFFF_FFFF
feed 1                                   # mcycle wraps: no OF, no interrupt
csrr mcycle
expect 0x0000000000000000
pending
expect mip=0x0000000000000000
mode S
csrr sip
expect 0x0000000000000000
mode M
csrs mip 0x2000
mode S
csrr sip
expect 0x0000000000002000
csrc sip 0x2000                          # HS clears it through sip
mode M
pending
expect mip=0x0000000000000000
S

script_ok "Sstc: STIP and VSTIP follow time, stimecmp, htimedelta and STCE" <<'S'
csrw stimecmp 100
time 100
pending                                  # menvcfg.STCE = 0
expect mip=0x0000000000000000
csrw menvcfg 0x8000000000000000
time 99
pending
expect mip=0x0000000000000000
time +1
pending
expect mip=0x0000000000000020 STIP
csrw henvcfg 0x8000000000000000
csrw vstimecmp 150
csrw htimedelta 50                       # VS time = 150
pending
expect mip=0x0000000000000060 STIP VSTIP
csrr time                                # M reads time
expect 0x0000000000000064
mode M
csrw mcounteren 2
csrw hcounteren 2
mode VS
csrr time                                # VS reads time + htimedelta
expect 0x0000000000000096
mode M
time 0
csrw htimedelta 150
pending
expect mip=0x0000000000000040 VSTIP
csrs mip 0x2000
pending
expect mip=0x0000000000002040 VSTIP LCOFIP
S

script_ok "stimecmp from S, U, VS, VU: menvcfg.STCE, TM, henvcfg.STCE" <<'S'
mode S
csrr stimecmp                            # STCE = 0
expect illegal-instruction
mode M
csrw menvcfg 0x8000000000000000
csrw mcounteren 2                        # TM
mode S
csrw stimecmp 7
expect ok
csrr stimecmp
expect 0x0000000000000007
mode U
csrr stimecmp                            # U-mode, S-level CSR
expect illegal-instruction
mode VU
csrr stimecmp
expect virtual-instruction
mode VS
csrr stimecmp                            # henvcfg.STCE = 0
expect virtual-instruction
mode M
csrw henvcfg 0x8000000000000000
mode VS
csrr stimecmp                            # hcounteren.TM = 0
expect virtual-instruction
mode M
csrw hcounteren 2
mode VS
csrw stimecmp 9                          # is vstimecmp
csrr stimecmp
expect 0x0000000000000009
mode M
csrr vstimecmp
expect 0x0000000000000009
csrr stimecmp
expect 0x0000000000000007
S

script_ok "harts are independent; time is shared; reset" --harts 3 <<'S'
feed 10
hart 1
csrr mcycle
expect 0x0000000000000000
mode HU
hart 2
csrr mcycle                              # each hart has its own mode: M here
expect 0x0000000000000000
hart 0
csrr mcycle
expect 0x000000000000000a
time 42
csrr time
expect 0x000000000000002a
hart 2
csrr time
expect 0x000000000000002a
hart 0
reset
csrr mcycle
expect 0x0000000000000000
S

printf 'csrr mcycle\nexpect 0x0000000000000000\n' >"$EMU_TMP/s.emu"
run_ok "a script file as argument" "$HPMSTAT" emu "$EMU_TMP/s.emu"
out_is "output of a script file" "0x0000000000000000" "$HPMSTAT" emu --harts=1 "$EMU_TMP/s.emu"
out_is "no script argument reads standard input" "0x0000000000000000" sh -c "echo 'csrr mcycle' | \"$HPMSTAT\" emu"

# workload runs: deterministic for a seed, counted like any other source
script_ok "run PROFILE: cycles and determinism for a seed" --harts 2 <<'S'
csrw mhpmevent11 53                     # backend rob_commitInstr
run 100000 balanced seed=7
csrr mcycle
expect 0x00000000000186a0
hart 1
csrw mhpmevent11 53
run 60000 balanced seed=7
run 40000 balanced seed=9
csrr mcycle
expect 0x00000000000186a0
S
printf 'csrw mhpmevent11 53\nrun 100000 balanced seed=7\ncsrr mhpmcounter11\ncsrr minstret\n' >"$EMU_TMP/r.emu"
"$HPMSTAT" emu "$EMU_TMP/r.emu" >"$EMU_TMP/r1" 2>&1
"$HPMSTAT" emu "$EMU_TMP/r.emu" >"$EMU_TMP/r2" 2>&1
cmp -s "$EMU_TMP/r1" "$EMU_TMP/r2"; ok $? "the same seed gives the same counts"
[ "$(sed -n 2p "$EMU_TMP/r1")" = "$(sed -n 3p "$EMU_TMP/r1")" ] && [ "$(sed -n 2p "$EMU_TMP/r1")" != 0x0000000000000000 ]
ok $? "workload: minstret equals rob_commitInstr (run instret = rob_commitInstr)"
sed 's/seed=7/seed=8/' "$EMU_TMP/r.emu" >"$EMU_TMP/r8.emu"
"$HPMSTAT" emu "$EMU_TMP/r8.emu" >"$EMU_TMP/r3" 2>&1
! cmp -s "$EMU_TMP/r1" "$EMU_TMP/r3"; ok $? "another seed gives other counts"

done_testing
