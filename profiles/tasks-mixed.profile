# tasks-mixed: a machine of five tasks for per-task counting (hpmstat stat
# --per-task, hpmstat top): each [task] is a process or thread with its own
# bottleneck, its share of its hart's cycles and its life time. The ground
# truth of every task (what each event counted while it ran) is kept by the
# emulator beside what per-task attribution at context switches charges it.
#
# Format: hpmstat-emu-profile(5). A [task] runs on `hart` (modulo the harts
# of the run) for `share` of that hart's cycles while it is runnable (from
# `start` until `exit`, in cycles of its hart); its `mix` is its own mix of
# the classes. Each hart switches tasks every task-slice cycles (smooth
# weighted round robin by share), and runs its idle task (pid 0, swapper)
# for the share no task takes.

name = tasks-mixed
description = Five tasks: a DRAM-bound stream, a frontend-bound server and its worker thread, a branchy parser that exits, a compute loop that starts late
modes = HU:0.9 HS:0.1
mode-switch = 20000..60000
task-slice = 40000..120000

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

# ------------------------------------------------------------------- tasks

[task stream]			# walks a big array: DRAM bound, a whole process
pid = 1200
hart = 0
share = 0.35
mix = dram:0.7 l2:0.1 compute:0.2

[task httpd]			# a server hopping through cold handlers: frontend bound
pid = 1300
hart = 0
share = 0.25
mix = icache:0.6 fetch-bandwidth:0.2 compute:0.2

[task httpd-worker]		# its worker thread (same process): retiring, some stalls
pid = 1301
tgid = 1300
hart = 1
share = 0.4
mix = compute:0.7 dependent:0.2 core:0.1

[task parse]			# data-dependent branches: bad speculation; exits mid-run
pid = 1400
hart = 1
share = 0.3
exit = 30000000
mix = mispredict:0.6 compute:0.3 core:0.1

[task matmul]			# dense arithmetic that starts late: retiring, core bound
pid = 1500
hart = 0
share = 0.3
start = 20000000
mix = compute:0.6 dependent:0.3 core:0.1
