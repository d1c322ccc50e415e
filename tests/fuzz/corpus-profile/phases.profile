name = two-phases
description = short phases, mode switches
modes = HU:0.5 HS:0.3 VU:0.1 VS:0.1
mode-switch = 3..9
[cycle retire]
commit = 6
[cycle miss]
commit = 2
bubble = 4
icache-miss = 1
redirect = s2
[cycle wrong]
commit = 1
spec = 6
flush = branch
[class a]
runs = retire:1..2 miss
[class b]
runs = wrong:1..3 retire
[phase one]
cycles = 17
mix = a:0.5 b:0.5
[phase two]
cycles = 1000000000000000000
mix = b:1
