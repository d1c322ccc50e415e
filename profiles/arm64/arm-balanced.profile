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

[cycle mispredict-resolve]		# issue 29: the one cycle of a mispredict run where the
			# mispredicted branch resolves: BR_MIS_PRED counts it
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_FRONTEND = 7
INST_SPEC = 1
INST_RETIRED = 1
BR_RETIRED = 1
BR_MIS_PRED_RETIRED = 1
BR_MIS_PRED = 1

[cycle stage2-ops]		# issue 29: the operation mix of Arm's stage-2 groups
OP_SPEC = 5
OP_RETIRED = 5
INST_SPEC = 5
INST_RETIRED = 5
DP_SPEC = 1
ASE_SPEC = 1
VFP_SPEC = 1
CRYPTO_SPEC = 1
SVE_INST_SPEC = 1

[cycle stage2-mem]		# issue 29: branches, a load and a store that miss every
			# cache and TLB level, a fetch that misses the ITLB and L1I
OP_SPEC = 5
OP_RETIRED = 5
INST_SPEC = 5
INST_RETIRED = 5
LD_SPEC = 1
ST_SPEC = 1
BR_IMMED_SPEC = 1
BR_INDIRECT_SPEC = 1
BR_RETURN_SPEC = 1
BR_RETIRED = 3
BR_MIS_PRED = 1
BR_MIS_PRED_RETIRED = 1
L1I_CACHE = 1
L1I_CACHE_REFILL = 1
L1I_TLB = 1
L1I_TLB_REFILL = 1
ITLB_WALK = 1
L1D_CACHE = 2
L1D_CACHE_REFILL = 1
L1D_TLB = 2
L1D_TLB_REFILL = 1
DTLB_WALK = 1
L2D_TLB = 2
L2D_TLB_REFILL = 1
L2D_CACHE = 2
L2D_CACHE_REFILL = 1
L3D_CACHE = 1
L3D_CACHE_REFILL = 1
LL_CACHE_RD = 1
LL_CACHE_MISS_RD = 1

[class compute]
runs = retire:100..300 retire-dep:20..60 stage2-ops stage2-mem
share = 0.55

[class ifetch]
runs = icache-miss fe-wait:40..80 retire:80..160
share = 0.15

[class memory]
runs = l1d-miss:2 be-mem:60..140 retire-dep:40..80
share = 0.2

[class branch]
runs = wrong-path:30..60 mispredict-resolve mispredict:10..20
share = 0.1
