# arm-balanced: a mix of retiring, frontend and backend stalls, some bad speculation
#
# Format: hpmstat-emu-profile(5), ARM PROFILES. A [cycle] is one per-cycle
# vector of Arm events (VB per cycle); a [class] is a sequence of runs,
# CYCLE:LO..HI cycles each, with its share of all cycles. The declared
# Topdown is computed from these, not typed in.

name = arm-balanced
description = 8 slots: retiring about half, the rest spread over frontend, backend and bad speculation
slots = 8

[cycle retire]			# every slot sends an operation, all of them retire
OP_SPEC = 8
OP_RETIRED = 8
INST_SPEC = 7
INST_RETIRED = 7
BR_RETIRED = 1
DP_SPEC = 4
LD_SPEC = 2
ST_SPEC = 1
L1D_CACHE = 3
L1I_CACHE = 1
L1D_TLB = 3
L1I_TLB = 1

[cycle retire-dep]		# dependencies: half the slots wait on the backend
OP_SPEC = 4
OP_RETIRED = 4
STALL_SLOT_BACKEND = 4
INST_SPEC = 4
INST_RETIRED = 4
DP_SPEC = 3
LD_SPEC = 1
L1D_CACHE = 1

[cycle icache-miss]		# fetch misses the L1 instruction cache
STALL_SLOT_FRONTEND = 8
STALL_FRONTEND = 1
L1I_CACHE = 1
L1I_CACHE_REFILL = 1
L2D_CACHE = 1

[cycle fe-wait]			# nothing to send until the line arrives
STALL_SLOT_FRONTEND = 8
STALL_FRONTEND = 1

[cycle l1d-miss]		# a load misses the L1 data cache, hits L2
OP_SPEC = 2
OP_RETIRED = 2
STALL_SLOT_BACKEND = 6
INST_SPEC = 2
INST_RETIRED = 2
LD_SPEC = 1
L1D_CACHE = 1
L1D_CACHE_REFILL = 1
L2D_CACHE = 1

[cycle be-mem]			# the backend waits for memory
STALL_SLOT_BACKEND = 8
STALL_BACKEND = 1
STALL_BACKEND_MEM = 1

[cycle wrong-path]		# issuing down the wrong path
OP_SPEC = 8
OP_RETIRED = 2
INST_SPEC = 8
INST_RETIRED = 2
BR_RETIRED = 1

[cycle mispredict]		# the branch resolves: flush, refetch
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_FRONTEND = 7
INST_SPEC = 1
INST_RETIRED = 1
BR_RETIRED = 1
BR_MIS_PRED_RETIRED = 1

[class compute]
runs = retire:100..300 retire-dep:20..60
share = 0.55

[class ifetch]
runs = icache-miss fe-wait:40..80 retire:80..160
share = 0.15

[class memory]
runs = l1d-miss:2 be-mem:60..140 retire-dep:40..80
share = 0.2

[class branch]
runs = wrong-path:30..60 mispredict:10..20
share = 0.1
