# a [cycle] with no events: every slot idle, nothing delivered (qsort of
# its empty, never allocated values was undefined behaviour)
name = empty-cycle
slots = 4

[cycle idle]

[cycle run]
OP_SPEC = 4
OP_RETIRED = 3
STALL_SLOT_BACKEND = 0

[class all]
runs = idle:1..3 run:2..5
