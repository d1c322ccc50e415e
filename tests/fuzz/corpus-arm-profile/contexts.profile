name = contexts
description = two phases over two contexts with functions, N2's slot bias
slots = 5
stall_slot_bias = 1
switch = 10..40
function-switch = 3..9

[context user]
el = 0
state = ns
contextid = 0x100
vmid = 1

[context secure]
el = 1
state = s
streaming = on

[cycle fe]
STALL_SLOT_FRONTEND = 5
STALL_FRONTEND = 1
L1I_CACHE_REFILL = 1
L1I_CACHE = 1

[cycle be]
STALL_SLOT_FRONTEND = 1
STALL_SLOT_BACKEND = 4
STALL_SLOT = 5
STALL_BACKEND = 1

[class mixed]
runs = fe:1..4 be:2..8

[phase one]
cycles = 1000
mix = mixed:1
contexts = user:0.75 secure:0.25

[phase two]
cycles = 300
mix = mixed:1
contexts = user:1

[function main]
context = user
address = 0x400000
size = 0x40
share = 0.5

[function tiny]
context = user
address = 0x401000
size = 0x4
share = 0.5

[function tee]
context = secure
address = 0xe000000
size = 0x100
share = 1
