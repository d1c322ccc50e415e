# phased: a program that changes character: start-up, compute, memory, branchy
#
# Format: hpmstat-emu-profile(5). A [cycle] is one per-cycle vector of every
# event the model produces, derived from the parameters given (the rest take
# defaults); a [class] is a sequence of runs of cycles, CYCLE:LO..HI cycles
# each; `share` is the fraction of all cycles spent in the class. The
# declared Topdown breakdown is computed from these, not typed in.

name = phased
description = Four phases of 5M cycles each, cycling: fetch latency, retiring, DRAM, mispredicts
modes = HU:0.7 HS:0.2 VU:0.07 VS:0.03
mode-switch = 20000..60000

# ------------------------------------------------------------------ cycles

[cycle retire]			# full width: 6 instructions (2 loads, 1 store, 1 branch)
commit = 6

[cycle retire-call]		# full width through a call and a return
commit = 6
cond = 0
call = 1
ret = 1

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

[cycle icache-miss-2]		# a fetch block over two cold lines, from L3
commit = 6
icache-miss = 3
l2-read-miss = 0x3

[cycle icache-wait]		# nothing to deliver until the line arrives
bubble = 6
icache-wait = 1

[cycle itlb-miss]		# an indirect jump to a new page misses the ITLB
commit = 6
cond = 0
indirect = 1
itlb-miss = 1

[cycle itlb-wait]
bubble = 6

[cycle wrong-path]		# issuing down the wrong path of an unresolved branch
commit = 2
spec = 6

[cycle mispredict]		# the branch resolves: flush, redirect, recovery starts
commit = 1
spec = 6
flush = branch

[cycle mispredict-ind]		# a mispredicted indirect jump
commit = 1
spec = 6
flush = branch
wrong = I

[cycle recover]			# ROB walk and frontend refill: RECOVERY_BUBBLE until decode fires
recovery = 1

[cycle replay-path]		# younger work executed before the violation is seen
commit = 3
spec = 6

[cycle stld-clear]		# a load ran before an older store to the same address
commit = 1
spec = 6
flush = stld

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

[cycle l3-stall]
stall = l3

[cycle dram-miss]		# loads miss every cache level (slices 3, 0), dirty victim
commit = 6
load-miss = dram
slices = 0x9
l2-writeback = 0x8
l1-writeback = 0x1

[cycle dram-miss-b]		# a pointer chase misses everywhere (slice 2), and the DTLB
commit = 6
load-miss = dram
slices = 0x4
dtlb-miss = 1

[cycle dram-stall]
stall = dram

[cycle store-miss]		# a store misses the L1 (write to L2 slice 1)
commit = 6
store-miss = l2
slices = 0x2

[cycle store-stall]		# the store buffer is full and cannot drain
stall = store

# ----------------------------------------------------------------- classes

[class icache]
runs = icache-miss icache-wait:30..90

[class itlb]
runs = itlb-miss itlb-wait:40..120

[class icache-l3]
runs = icache-miss-2 icache-wait:60..140

[class compute]
runs = retire:100..300

[class fetch-bandwidth]
runs = fetch-taken:40..120 fetch-override:20..40

[class mispredict]
runs = wrong-path:20..60 mispredict recover:20..40

[class core]
runs = core-stall:40..120

[class l2]
runs = l2-miss l2-stall:30..110

[class dram]
runs = dram-miss dram-stall:150..450

[class store]
runs = store-miss store-stall:30..110

[class calls]
runs = retire-call:40..120

[class dependent]
runs = retire-4:60..180

[class l1]
runs = l1-stall:20..60

[class dram-b]
runs = dram-miss-b dram-stall:200..600

[class l3]
runs = l3-miss l3-stall:40..120

[class mispredict-heavy]
runs = wrong-path:20..40 mispredict recover:40..60

[class mispredict-ind]
runs = wrong-path:20..40 mispredict-ind recover:40..60

[class stld]
runs = replay-path:20..40 stld-clear recover:40..60

# ------------------------------------------------------------------ phases

[phase startup]		# cold code: the frontend starves
cycles = 5000000
mix = icache:0.3 itlb:0.1 icache-l3:0.06 compute:0.24 fetch-bandwidth:0.1
mix = mispredict:0.06 core:0.04 l2:0.04 dram:0.04 store:0.02

[phase compute]		# a hot loop: retiring
cycles = 5000000
mix = compute:0.64 calls:0.06 dependent:0.08 fetch-bandwidth:0.06 mispredict:0.04
mix = core:0.06 l1:0.04 l2:0.02

[phase stream]		# walking a large data set: DRAM
cycles = 5000000
mix = dram:0.32 dram-b:0.16 l3:0.08 l2:0.06 store:0.06
mix = compute:0.22 fetch-bandwidth:0.04 mispredict:0.04 core:0.02

[phase parse]		# data-dependent branches: bad speculation
cycles = 5000000
mix = mispredict-heavy:0.34 mispredict-ind:0.08 stld:0.04 compute:0.28 fetch-bandwidth:0.08
mix = icache:0.04 core:0.06 l1:0.04 l2:0.04
