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

[class work]
runs = retire:40..120
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
