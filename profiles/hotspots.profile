# hotspots: a program of four functions, each with its own bottleneck, for
# sampling (hpmstat record --backend emu): the declared share of cycles of
# each function and each function's Topdown breakdown are the ground truth
# that sampling must recover.
#
# Format: hpmstat-emu-profile(5). A [function] is an address range with a
# share of all cycles and its own mix of the classes; the functions' shares
# sum to 1, and each function's Topdown is computed from its mix as the
# whole profile's is from all of them, never typed in.

name = hotspots
description = Four functions for sampling: matmul (retiring) 40%, chase (DRAM) 30%, parse (mispredicts) 20%, dispatch (fetch latency) 10%
modes = HU:1
function-classes = 2..8

# ------------------------------------------------------------------ cycles

[cycle retire]			# full width: 6 instructions (2 loads, 1 store, 1 branch)
commit = 6

[cycle retire-4]		# 4 per cycle, limited by dependencies (backend slots)
commit = 4
fused = 1

[cycle core-stall]		# issue queues full of dependent ALU work
stall = core

[cycle dram-miss]		# loads miss every cache level (slices 3, 0), dirty victim
commit = 6
load-miss = dram
slices = 0x9
l2-writeback = 0x8
l1-writeback = 0x1

[cycle dram-stall]
stall = dram

[cycle l2-miss]			# a load misses the L1 and hits L2 slice 0
commit = 6
load-miss = l2
slices = 0x1

[cycle l2-stall]
stall = l2

[cycle wrong-path]		# issuing down the wrong path of an unresolved branch
commit = 2
spec = 6

[cycle mispredict]		# the branch resolves: flush, redirect, recovery starts
commit = 1
spec = 6
flush = branch

[cycle recover]			# ROB walk and frontend refill: RECOVERY_BUBBLE until decode fires
recovery = 1

[cycle icache-miss]		# a call into cold code misses the ICache (fetched from L2)
commit = 6
cond = 0
call = 1
icache-miss = 1
l2-read-hit = 0x4

[cycle icache-wait]		# nothing to deliver until the line arrives
bubble = 6
icache-wait = 1

[cycle fetch-taken]		# taken branches cut fetch blocks: 4 of 6 delivered
commit = 4
bubble = 2
lines = 2
redirect = s2

# ----------------------------------------------------------------- classes

[class compute]
runs = retire:100..300

[class dependent]
runs = retire-4:60..180

[class core]
runs = core-stall:40..120

[class dram]
runs = dram-miss dram-stall:150..450

[class l2]
runs = l2-miss l2-stall:10..30

[class mispredict]
runs = wrong-path:20..60 mispredict recover:20..40

[class icache]
runs = icache-miss icache-wait:30..90

[class fetch-bandwidth]
runs = fetch-taken:40..120

# --------------------------------------------------------------- functions

[function matmul]		# dense arithmetic: mostly retiring, some core stalls
address = 0x10000
size = 0x800
share = 0.4
mix = compute:0.7 dependent:0.2 core:0.1

[function chase]		# a pointer chase through a big list: DRAM bound
address = 0x10800
size = 0x400
share = 0.3
mix = dram:0.75 l2:0.1 compute:0.15

[function parse]		# data-dependent branches: bad speculation
address = 0x10c00
size = 0x600
share = 0.2
mix = mispredict:0.6 compute:0.3 core:0.1

[function dispatch]		# indirect calls into cold handlers: fetch latency
address = 0x11200
size = 0x200
share = 0.1
mix = icache:0.6 fetch-bandwidth:0.2 compute:0.2
