name = minimal
slots = 8

[cycle run]
OP_SPEC = 8
OP_RETIRED = 8

[class all]
runs = run:1..10
