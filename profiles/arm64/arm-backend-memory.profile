# arm-backend-memory: a pointer chase through a large data set
#
# Format: hpmstat-emu-profile(5), ARM PROFILES.

name = arm-backend-memory
description = 8 slots: the backend waits for data caches and DRAM most of the time
slots = 8

[cycle retire]
OP_SPEC = 6
OP_RETIRED = 6
STALL_SLOT_BACKEND = 2
INST_SPEC = 6
INST_RETIRED = 6
LD_SPEC = 2
L1D_CACHE = 2
L1D_TLB = 2

[cycle l1d-miss]
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_BACKEND = 7
INST_SPEC = 1
INST_RETIRED = 1
LD_SPEC = 1
L1D_CACHE = 1
L1D_CACHE_REFILL = 1
L2D_CACHE = 1
L1D_TLB = 1

[cycle l2-miss]			# missing L2 and the last level cache, and the DTLB
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_BACKEND = 7
INST_SPEC = 1
INST_RETIRED = 1
LD_SPEC = 1
L1D_CACHE = 1
L1D_CACHE_REFILL = 1
L2D_CACHE = 1
L2D_CACHE_REFILL = 1
LL_CACHE_RD = 1
LL_CACHE_MISS_RD = 1
L1D_TLB = 1
L1D_TLB_REFILL = 1
DTLB_WALK = 1

[cycle mem-wait]
STALL_SLOT_BACKEND = 8
STALL_BACKEND = 1
STALL_BACKEND_MEM = 1

[cycle fe-wait]
STALL_SLOT_FRONTEND = 8
STALL_FRONTEND = 1

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

[class work]
runs = retire:40..120 stage2-ops stage2-mem
share = 0.25

[class l2-hit]
runs = l1d-miss:4 mem-wait:40..60 retire:20..40
share = 0.25

[class dram]
runs = l2-miss mem-wait:150..350
share = 0.45

[class fetch]
runs = fe-wait:20..60
share = 0.05
