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

[class straight]
runs = retire:60..180 taken:10..30
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
