# arm-system: a program with its kernel, hypervisor, secure and realm worlds,
# an SME kernel in streaming mode, and functions for PC sampling
#
# Format: hpmstat-emu-profile(5), ARM PROFILES. The [context] sections give
# the exception level, security state and streaming mode of stretches of
# `switch` cycles; phases change their shares over time; [function] sections
# give the PCs that PC sampling sees.

name = arm-system
description = 8 slots, two phases (boot, run) over EL0/EL1/EL2, Non-secure/Secure/Realm, SME streaming, 9 functions
slots = 8
switch = 5000..15000
function-switch = 1000..3000

[context user]
el = 0
state = ns
contextid = 0x100
vmid = 1

[context sme]			# the same process in an SME kernel
el = 0
state = ns
streaming = on
contextid = 0x100
vmid = 1

[context kernel]
el = 1
state = ns
vmid = 1

[context hyp]
el = 2
state = ns

[context secure]
el = 1
state = s

[context realm]
el = 0
state = realm
contextid = 0x200
vmid = 2

[cycle retire]
OP_SPEC = 8
OP_RETIRED = 8
INST_SPEC = 8
INST_RETIRED = 8
BR_RETIRED = 1
L1D_CACHE = 2
L1I_CACHE = 1

[cycle retire-dep]
OP_SPEC = 3
OP_RETIRED = 3
STALL_SLOT_BACKEND = 5
INST_SPEC = 3
INST_RETIRED = 3

[cycle wrong-path]
OP_SPEC = 8
OP_RETIRED = 3
INST_SPEC = 8
INST_RETIRED = 3
BR_RETIRED = 1

[cycle mispredict]
OP_SPEC = 2
OP_RETIRED = 2
STALL_SLOT_FRONTEND = 6
BR_RETIRED = 1
BR_MIS_PRED_RETIRED = 1
INST_SPEC = 2
INST_RETIRED = 2

[cycle fe-wait]
STALL_SLOT_FRONTEND = 8
STALL_FRONTEND = 1
L1I_CACHE_REFILL = 1
L1I_CACHE = 1

[cycle be-mem]
STALL_SLOT_BACKEND = 8
STALL_BACKEND = 1
STALL_BACKEND_MEM = 1

[cycle mispredict-resolve]		# issue 29: the one cycle of a mispredict run where the
			# mispredicted branch resolves: BR_MIS_PRED counts it
OP_SPEC = 2
OP_RETIRED = 2
STALL_SLOT_FRONTEND = 6
BR_RETIRED = 1
BR_MIS_PRED_RETIRED = 1
INST_SPEC = 2
INST_RETIRED = 2
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
runs = retire:100..300 retire-dep:30..90 stage2-ops stage2-mem

[class branchy]
runs = wrong-path:30..70 mispredict-resolve mispredict:10..20

[class cold-code]
runs = fe-wait:50..150 retire:20..60

[class memory]
runs = be-mem:80..200 retire:20..40

[phase boot]			# mostly the kernel, cold code
cycles = 2000000
mix = compute:0.3 branchy:0.1 cold-code:0.4 memory:0.2
contexts = kernel:0.6 user:0.3 hyp:0.1

[phase run]
cycles = 8000000
mix = compute:0.55 branchy:0.15 cold-code:0.1 memory:0.2
contexts = user:0.55 sme:0.1 kernel:0.15 hyp:0.05 secure:0.05 realm:0.1

[function main]
context = user
address = 0x400000
size = 0x400
share = 0.2

[function compute]
context = user
address = 0x401000
size = 0x2000
share = 0.6

[function memcpy]
context = user
address = 0x7f0000001000
size = 0x100
share = 0.2

[function sme_matmul]
context = sme
address = 0x404000
size = 0x800
share = 1

[function el0_svc]
context = kernel
address = 0xffff800080010000
size = 0x200
share = 0.5

[function do_page_fault]
context = kernel
address = 0xffff800080020000
size = 0x600
share = 0.5

[function handle_trap]
context = hyp
address = 0xffff900000001000
size = 0x300
share = 1

[function tee_entry]
context = secure
address = 0xe000000
size = 0x40
share = 1

[function realm_main]
context = realm
address = 0x500000
size = 0x1000
share = 1
