#!/usr/bin/env python3
"""perfdata-craft.py KIND OUT RECORDS [N]: a file-mode perf.data of about
RECORDS records made to hit one path of a report that a careless reader
makes quadratic (issue 27, item 4). Every file is valid for perf 6.1:
cpu-clock samples with PERF_SAMPLE_IDENTIFIER|IP|TID|TIME|PERIOD and
sample_id_all.

  ids     2 events sharing N sample ids (default 160000) chosen so that a
          fixed multiplicative hash ((id * 0x9e3779b97f4a7c15) >> 32, low
          bits) puts them all in one slot; the samples name them all in
          turn
  mmaps   one process with N maps (default 80000) mapped from the highest
          address down; the samples hit them all
  pids    N processes (default 160000) forked from pid 1 in descending
          pid order, each with a COMM; the samples come from them all
  events  N events (default 20000), one id each; the samples name them
          all in turn
  callers one function called from N places (default 20000), the samples
          (with call chains) in it from each in turn: its call tree's
          node has N children, and so has the HTML flame graph's
"""
import struct, sys

kind, out, records = sys.argv[1], sys.argv[2], int(sys.argv[3])
n = int(sys.argv[4]) if len(sys.argv) > 4 else {
    'ids': 160000, 'mmaps': 80000, 'pids': 160000, 'events': 20000, 'callers': 20000}[kind]
GOLDEN = 0x9e3779b97f4a7c15
M64 = (1 << 64) - 1
ATTR_SIZE = 128
ST = 0x1 | 0x2 | 0x4 | 0x100 | 0x10000  # IP TID TIME PERIOD IDENTIFIER
if kind == 'callers':
    ST |= 0x20  # CALLCHAIN


def attr():
    # type software, cpu-clock, period 1000, sample_id_all (bit 18)
    a = struct.pack('<IIQQQQQ', 1, ATTR_SIZE, 0, 1000, ST, 0, 1 << 18)
    return a + bytes(ATTR_SIZE - len(a))


if kind == 'ids':
    inv = pow(GOLDEN, -1, 1 << 64)
    # (id * GOLDEN) mod 2^64 has bits 32-55 all 0 (one slot of the fixed
    # hash, whatever its size up to 2^24 slots); its top 8 bits, which
    # perf's hash_64(id, 8) takes, run through all 256 values, so perf's
    # own table spreads them as it would spread a recording's ids
    ids = [((((j & 255) << 56) | (j >> 8)) * inv) & M64 for j in range(1, n + 1)]
    ev_ids = [ids[0::2], ids[1::2]]
elif kind == 'events':
    ev_ids = [[1000 + i] for i in range(n)]
    ids = [x[0] for x in ev_ids]
else:
    ev_ids = [[1]]
    ids = [1]
ID0 = ev_ids[0][0]
data = bytearray()
t = 1000


def trailer(pid, tid, time):
    return struct.pack('<IIQQ', pid, tid, time, ID0)


def rec(typ, misc, body):
    data.extend(struct.pack('<IHH', typ, misc, 8 + len(body)) + body)


def padstr(s):
    b = s.encode() + b'\0'
    return b + bytes(-len(b) % 8)


def comm(pid, name):
    global t
    t += 1
    rec(3, 0, struct.pack('<II', pid, pid) + padstr(name) + trailer(pid, pid, t))


def fork(pid, ppid):
    global t
    t += 1
    rec(7, 0, struct.pack('<IIIIQ', pid, ppid, pid, ppid, t) + trailer(pid, pid, t))


def mmap2(pid, start, length, name):
    global t
    t += 1
    rec(10, 2, struct.pack('<IIQQQIIQQII', pid, pid, start, length, 0, 0, 0, 0, 0, 5, 2) +
        padstr(name) + trailer(pid, pid, t))


def sample(ident, ip, pid, chain=None):
    global t
    t += 1
    body = struct.pack('<QQIIQQ', ident, ip, pid, pid, t, 1000)
    if chain is not None:
        body += struct.pack('<Q%dQ' % len(chain), len(chain), *chain)
    rec(9, 2, body)


PAGE = 0x1000
BASE = 0x7f0000000000
count = 0
if kind == 'mmaps':
    comm(100, 'crafted')
    for i in range(n):
        mmap2(100, BASE + (n - i) * 2 * PAGE, PAGE, '/nonexistent/crafted.so')
    count = n + 1
    i = 0
    while count < records:
        sample(ID0, BASE + (1 + i % n) * 2 * PAGE + 0x10, 100)
        i += 7919
        count += 1
elif kind == 'pids':
    comm(1, 'init')
    for pid in range(n + 1, 1, -1):
        fork(pid, 1)
        comm(pid, 'p%d' % pid)
    count = 2 * n + 1
    i = 0
    while count < records:
        sample(ID0, 0x400000, 2 + i % n)
        i += 1
        count += 1
elif kind == 'callers':
    # one map without symbols: each address is a frame of its own, the
    # function's at the map's start, the N call sites after it
    comm(100, 'crafted')
    mmap2(100, BASE, 2 * n * PAGE, '/nonexistent/crafted.so')
    count = 2
    i = 0
    while count < records:
        # the kernel's chain: PERF_CONTEXT_USER, the ip, its caller
        sample(ID0, BASE + 8, 100, [M64 + 1 - 512, BASE + 8, BASE + (1 + i % n) * 16])
        i += 7919
        count += 1
else:
    comm(100, 'crafted')
    count = 1
    i = 0
    while count < records:
        sample(ids[i % len(ids)], 0x400000, 100)
        i += 1
        count += 1

hdr = 104
attrs = bytearray()
idsec = bytearray()
na = len(ev_ids)
attrs_off = hdr
ids_off = attrs_off + na * (ATTR_SIZE + 16)
for e in ev_ids:
    attrs += attr() + struct.pack('<QQ', ids_off + len(idsec), 8 * len(e))
    idsec += b''.join(struct.pack('<Q', x) for x in e)
data_off = ids_off + len(idsec)
data_off += -data_off % 8
head = struct.pack('<QQQ', 0x32454c4946524550, hdr, ATTR_SIZE + 16)
head += struct.pack('<QQQQQQ', attrs_off, len(attrs), data_off, len(data), 0, 0)
head += bytes(32)  # no feature sections
body = head + attrs + idsec
body += bytes(data_off - len(body))
with open(out, 'wb') as f:
    f.write(body)
    f.write(data)
