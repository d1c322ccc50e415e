# arm-n2-balanced: arm-balanced's mix, as a Neoverse N2 r0p3 or later PMU
# counts it
#
# Format: hpmstat-emu-profile(5), ARM PROFILES. N2 sends 5 operations a
# cycle. From r0p3 on, STALL_SLOT_FRONTEND and STALL_SLOT count only the
# slots that stalled (r0p0-r0p2 count one more a cycle: see
# arm-n2-r0p0-balanced, the same workload as those revisions count it).
# The declared Topdown is computed from these, not typed in.

name = arm-n2-balanced
description = 5 slots, Neoverse N2 r0p3 and later: retiring about half, the rest spread over frontend, backend and bad speculation
slots = 5
stall_slot_bias = 0

[cycle retire]			# every slot sends an operation, all of them retire
OP_SPEC = 5
OP_RETIRED = 5
INST_SPEC = 4
INST_RETIRED = 4
BR_RETIRED = 1
DP_SPEC = 3
LD_SPEC = 1
L1D_CACHE = 1
L1I_CACHE = 1

[cycle retire-dep]		# dependencies: two slots wait on the backend
OP_SPEC = 3
OP_RETIRED = 3
STALL_SLOT_BACKEND = 2
INST_SPEC = 3
INST_RETIRED = 3
DP_SPEC = 2
LD_SPEC = 1
L1D_CACHE = 1

[cycle icache-miss]		# fetch misses the L1 instruction cache: 4 slots wait
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_FRONTEND = 4
INST_SPEC = 1
INST_RETIRED = 1
L1I_CACHE = 1
L1I_CACHE_REFILL = 1
L2D_CACHE = 1

[cycle fe-wait]			# little to send until the line arrives
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_FRONTEND = 4
INST_SPEC = 1
INST_RETIRED = 1

[cycle l1d-miss]		# a load misses the L1 data cache, hits L2
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_BACKEND = 4
INST_SPEC = 1
INST_RETIRED = 1
LD_SPEC = 1
L1D_CACHE = 1
L1D_CACHE_REFILL = 1
L2D_CACHE = 1

[cycle be-mem]			# the backend waits for memory
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_BACKEND = 4
INST_SPEC = 1
INST_RETIRED = 1

[cycle wrong-path]		# issuing down the wrong path
OP_SPEC = 5
OP_RETIRED = 1
INST_SPEC = 5
INST_RETIRED = 1
BR_RETIRED = 1

[cycle mispredict]		# the branch resolves: flush, refetch
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_FRONTEND = 4
INST_SPEC = 1
INST_RETIRED = 1
BR_RETIRED = 1
BR_MIS_PRED_RETIRED = 1

[cycle mispredict-resolve]		# issue 29: the one cycle of a mispredict run where the
			# mispredicted branch resolves: BR_MIS_PRED counts it
OP_SPEC = 1
OP_RETIRED = 1
STALL_SLOT_FRONTEND = 4
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
