# arm-frontend: a large code footprint: instruction cache and TLB misses
#
# Format: hpmstat-emu-profile(5), ARM PROFILES.

name = arm-frontend
description = 8 slots: most lost slots are the frontend's (instruction cache, ITLB, taken branches)
slots = 8

[cycle retire]
OP_SPEC = 8
OP_RETIRED = 8
INST_SPEC = 8
INST_RETIRED = 8
BR_RETIRED = 1
L1I_CACHE = 1
L1D_CACHE = 2

[cycle taken]			# a taken branch cuts the fetch block: 5 of 8 slots
OP_SPEC = 5
OP_RETIRED = 5
STALL_SLOT_FRONTEND = 3
INST_SPEC = 5
INST_RETIRED = 5
BR_RETIRED = 1
L1I_CACHE = 1

[cycle icache-miss]
STALL_SLOT_FRONTEND = 8
STALL_FRONTEND = 1
L1I_CACHE = 1
L1I_CACHE_REFILL = 1
L2D_CACHE = 1

[cycle itlb-miss]
STALL_SLOT_FRONTEND = 8
STALL_FRONTEND = 1
L1I_TLB = 1
L1I_TLB_REFILL = 1
L2D_TLB = 1
L2D_TLB_REFILL = 1
ITLB_WALK = 1

[cycle fe-wait]
STALL_SLOT_FRONTEND = 8
STALL_FRONTEND = 1

[cycle be-wait]
STALL_SLOT_BACKEND = 8
STALL_BACKEND = 1

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

[class straight]
runs = retire:60..180 taken:10..30 stage2-ops stage2-mem
share = 0.4

[class icache]
runs = icache-miss:2 fe-wait:60..140 retire:30..90
share = 0.4

[class itlb]
runs = itlb-miss:2 fe-wait:80..200
share = 0.15

[class backend]
runs = be-wait:20..60
share = 0.05
