# machine-clears: memory-ordering violations and pipe flushes
#
# Format: hpmstat-emu-profile(5). A [cycle] is one per-cycle vector of every
# event the model produces, derived from the parameters given (the rest take
# defaults); a [class] is a sequence of runs of cycles, CYCLE:LO..HI cycles
# each; `share` is the fraction of all cycles spent in the class. The
# declared Topdown breakdown is computed from these, not typed in.

name = machine-clears
description = Bad speculation, machine clears: store-load and load-load violations, fences
modes = HU:0.7 HS:0.3
mode-switch = 20000..60000

# ------------------------------------------------------------------ cycles

[cycle retire]			# full width: 6 instructions (2 loads, 1 store, 1 branch)
commit = 6

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

[cycle replay-path]		# younger work executed before the violation is seen
commit = 1
spec = 6

[cycle stld-clear]		# a load ran before an older store to the same address
commit = 1
spec = 6
flush = stld

[cycle ldld-clear]		# two loads to one line observed out of order
commit = 1
spec = 6
flush = ldld

[cycle fence-clear]		# a fence.i / CSR write flushes the pipe
commit = 1
spec = 6
flush = pipe

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

[cycle store-miss]		# a store misses the L1 (write to L2 slice 1)
commit = 6
store-miss = l2
slices = 0x2

[cycle store-stall]		# the store buffer is full and cannot drain
stall = store

# ----------------------------------------------------------------- classes

[class stld]
runs = replay-path:40..80 stld-clear recover:8..16
share = 0.4

[class ldld]
runs = replay-path:40..80 ldld-clear recover:8..16
share = 0.1

[class fence]
runs = fence-clear recover:8..16
share = 0.1

[class mispredict]
runs = wrong-path:20..60 mispredict recover:8..16
share = 0.04

[class compute]
runs = retire:100..300
share = 0.16

[class fetch-bandwidth]
runs = fetch-taken:40..120 fetch-override:20..40
share = 0.04

[class icache]
runs = icache-miss icache-wait:30..90
share = 0.02

[class core]
runs = core-stall:40..120
share = 0.06

[class l1]
runs = l1-stall:20..60
share = 0.03

[class l2]
runs = l2-miss l2-stall:30..110
share = 0.02

[class store]
runs = store-miss store-stall:30..110
share = 0.03
