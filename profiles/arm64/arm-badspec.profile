# arm-badspec: data-dependent branches that the predictor cannot learn
#
# Format: hpmstat-emu-profile(5), ARM PROFILES.

name = arm-badspec
description = 8 slots: many operations are issued down mispredicted paths and thrown away
slots = 8

[cycle retire]
OP_SPEC = 8
OP_RETIRED = 8
INST_SPEC = 8
INST_RETIRED = 8
BR_RETIRED = 2
L1D_CACHE = 2

[cycle wrong-path]
OP_SPEC = 8
OP_RETIRED = 1
INST_SPEC = 8
INST_RETIRED = 1
BR_RETIRED = 1

[cycle mispredict]
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_FRONTEND = 7
INST_SPEC = 1
INST_RETIRED = 1
BR_RETIRED = 1
BR_MIS_PRED_RETIRED = 1

[cycle refill]			# the frontend refills after the flush
OP_SPEC = 4
OP_RETIRED = 4
STALL_SLOT_FRONTEND = 4
INST_SPEC = 4
INST_RETIRED = 4

[cycle be-wait]
STALL_SLOT_BACKEND = 8
STALL_BACKEND = 1

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

[class straight]
runs = retire:30..90 stage2-ops stage2-mem
share = 0.35

[class mispredicted]
runs = wrong-path:40..100 mispredict-resolve mispredict:5..15 refill:10..30
share = 0.55

[class backend]
runs = be-wait:20..60
share = 0.1
