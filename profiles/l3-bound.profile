# l3-bound: a guest whose working set fits the L3 but not the L2
#
# Format: hpmstat-emu-profile(5). A [cycle] is one per-cycle vector of every
# event the model produces, derived from the parameters given (the rest take
# defaults); a [class] is a sequence of runs of cycles, CYCLE:LO..HI cycles
# each; `share` is the fraction of all cycles spent in the class. The
# declared Topdown breakdown is computed from these, not typed in.

name = l3-bound
description = Backend bound, memory, L3: L2 misses that hit the L3 (mostly in a guest)
modes = VU:0.5 VS:0.12 HU:0.28 HS:0.1
mode-switch = 20000..60000

# ------------------------------------------------------------------ cycles

[cycle retire]			# full width: 6 instructions (2 loads, 1 store, 1 branch)
commit = 6

[cycle retire-4]		# 4 per cycle, limited by dependencies (backend slots)
commit = 4
fused = 1

[cycle fetch-taken]		# taken branches cut fetch blocks: 4 of 6 delivered
commit = 4
bubble = 2
lines = 2
redirect = s2

[cycle fetch-override]		# the uFTB mispredicts, BPU stage 3 overrides: 2 of 6
commit = 2
bubble = 4
redirect = s3

[cycle icache-miss]		# a call into cold code misses the ICache (fetched from L2)
commit = 6
cond = 0
call = 1
icache-miss = 1
l2-read-hit = 0x4

[cycle icache-wait]		# nothing to deliver until the line arrives
bubble = 6
icache-wait = 1

[cycle wrong-path]		# issuing down the wrong path of an unresolved branch
commit = 2
spec = 6

[cycle mispredict]		# the branch resolves: flush, redirect, recovery starts
commit = 1
spec = 6
flush = branch

[cycle recover]			# ROB walk and frontend refill: RECOVERY_BUBBLE until decode fires
recovery = 1

[cycle core-stall]		# issue queues full of dependent ALU work
stall = core

[cycle l1-stall]		# waiting on L1 hits (load-to-use latency, bank conflicts)
stall = l1

[cycle l2-miss]			# a load misses the L1 and hits L2 slice 0
commit = 6
load-miss = l2
slices = 0x1

[cycle l2-stall]
stall = l2

[cycle l3-miss]			# two loads miss the L1 and L2 (slices 1, 2), hit L3
commit = 6
load-miss = l3
slices = 0x6
dtlb-miss = 1

[cycle l3-miss-b]		# a load misses the L1 and L2 (slice 0); the L2 prefetcher misses too
commit = 6
load-miss = l3
slices = 0x1
l2-prefetch = 0x8
l2-prefetch-miss = 0x8

[cycle l3-stall]
stall = l3

[cycle dram-miss]		# loads miss every cache level (slices 3, 0), dirty victim
commit = 6
load-miss = dram
slices = 0x9
l2-writeback = 0x8
l1-writeback = 0x1

[cycle dram-stall]
stall = dram

[cycle store-miss]		# a store misses the L1 (write to L2 slice 1)
commit = 6
store-miss = l2
slices = 0x2

[cycle store-stall]		# the store buffer is full and cannot drain
stall = store

# ----------------------------------------------------------------- classes

[class l3]
runs = l3-miss l3-stall:40..120
share = 0.24

[class l3-b]
runs = l3-miss-b l3-stall:60..140
share = 0.22

[class compute]
runs = retire:100..300
share = 0.22

[class dependent]
runs = retire-4:60..180
share = 0.04

[class fetch-bandwidth]
runs = fetch-taken:40..120 fetch-override:20..40
share = 0.04

[class icache]
runs = icache-miss icache-wait:30..90
share = 0.02

[class mispredict]
runs = wrong-path:20..60 mispredict recover:20..40
share = 0.05

[class core]
runs = core-stall:40..120
share = 0.05

[class l1]
runs = l1-stall:20..60
share = 0.03

[class l2]
runs = l2-miss l2-stall:30..110
share = 0.04

[class dram]
runs = dram-miss dram-stall:150..450
share = 0.03

[class store]
runs = store-miss store-stall:30..110
share = 0.02
