#!/usr/bin/env python3
"""stat-file.py PATH KIND: writes a perf.data of stat counts as perf stat
record lays it out (tools/perf/Documentation/perf.data-file-format.txt:
the header, one task-clock attr with id 1, a data section of
PERF_RECORD_STAT (76) and PERF_RECORD_STAT_ROUND (77) records), shaped
to try stat report's limits:

  ok       2 CPUs, one FINAL round: 10 on each
  badid    a count of id 99, which no attr has
  cpus     counts on 5000 CPUs
  ivs      4096 CPUs counted once, then 2100 INTERVAL rounds (each a
           round of all 4096 counts: 8.6 million)
  noround  a count and no round
"""
import struct
import sys

STAT, STAT_ROUND = 76, 77
ROUND_INTERVAL, ROUND_FINAL = 0, 1


def make(path, nr_cpus=1, nr_iv=0, stat_id=1, final=True, recount=True):
    attr = bytearray(128)  # PERF_ATTR_SIZE_VER7
    struct.pack_into('<IIQ', attr, 0, 1, 128, 1)  # software, size, task-clock
    hdr_size, attr_size = 104, 128 + 16
    ids_off = hdr_size
    attrs_off = ids_off + 8
    data_off = attrs_off + attr_size
    data = bytearray()
    for k in range(max(nr_iv, 1)):
        if k == 0 or recount:
            for cpu in range(nr_cpus):
                data += struct.pack('<IHHQIIQQQ', STAT, 0, 48, stat_id, cpu, 0,
                                    10 * (k + 1), 1000, 1000)
        if nr_iv:
            data += struct.pack('<IHHQQ', STAT_ROUND, 0, 24, ROUND_INTERVAL,
                                100000000 * (k + 1))
    if final and not nr_iv:
        data += struct.pack('<IHHQQ', STAT_ROUND, 0, 24, ROUND_FINAL, 5000000)
    header = struct.pack('<9Q', 0x32454c4946524550, hdr_size, attr_size, attrs_off,
                         attr_size, data_off, len(data), 0, 0) + bytes(32)
    with open(path, 'wb') as f:
        f.write(header + struct.pack('<Q', 1) + bytes(attr) +
                struct.pack('<QQ', ids_off, 8) + data)


KINDS = {
    'ok': dict(nr_cpus=2),
    'badid': dict(stat_id=99),
    'cpus': dict(nr_cpus=5000),
    'ivs': dict(nr_cpus=4096, nr_iv=2100, recount=False),
    'noround': dict(final=False),
}
make(sys.argv[1], **KINDS[sys.argv[2]])
