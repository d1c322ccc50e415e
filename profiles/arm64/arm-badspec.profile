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

[class straight]
runs = retire:30..90
share = 0.35

[class mispredicted]
runs = wrong-path:40..100 mispredict:5..15 refill:10..30
share = 0.55

[class backend]
runs = be-wait:20..60
share = 0.1
