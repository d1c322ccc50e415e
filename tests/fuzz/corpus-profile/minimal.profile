name = minimal
[cycle retire]
commit = 6
[cycle stall]
stall = dram
[class work]
runs = retire:1..10 stall:3..5
share = 1
