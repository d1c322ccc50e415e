#!/usr/bin/env python3
"""chains.py OUT PROGRAM SYM=ADDR... -- CHAIN...: writes OUT, a perf.data
of a process running PROGRAM (mapped whole from offset 0, as
a position-independent executable at BASE) with one cpu-clock:u sample of
period 1000000 for each CHAIN, in the order given.

A CHAIN is its frames innermost first, joined by commas: a name given as
SYM=ADDR (its address in PROGRAM, from nm) stands for the address one byte
into that function; a 0x number is taken as it is (an address no map holds,
when below BASE); the words kernel and user are perf's context markers
(PERF_CONTEXT_KERNEL, _USER). A chain that starts with kernel is a
sample taken in the kernel; any other is a user one, user put in front.
COMM/CHAIN is a sample of another process, named COMM, that runs PROGRAM
too (one process a name; without COMM/, tree's). A CHAIN nochain:SYM is a
sample at SYM whose callchain is empty (nr 0), as perf record writes a
--call-graph dwarf sample whose stack the kernel could not copy. The file is what `perf record -e cpu-clock:u -g` writes
for a frame-pointer chain, made by hand so that a test decides the
samples: ties between branches of equal period, unresolved frames.

Record layouts: include/uapi/linux/perf_event.h and tools/perf's
Documentation/perf.data-file-format.txt (file mode, no feature section:
perf report takes --children from a pipe's attr too late to use it)."""
import os, struct, sys

BASE = 0x555555554000
PID = 4242
CONTEXT = {'kernel': 0xFFFFFFFFFFFFFF80, 'user': 0xFFFFFFFFFFFFFE00}  # PERF_CONTEXT_*
MISC_KERNEL, MISC_USER = 1, 2  # PERF_RECORD_MISC_KERNEL, _USER


def record(rtype, misc, body):
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def padded(s):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % 8)


def kernel_text():
    """_text's address in /proc/kallsyms, or 0 (hidden or unreadable)"""
    try:
        with open('/proc/kallsyms') as f:
            for line in f:
                w = line.split()
                if len(w) >= 3 and w[2] == '_text':
                    return int(w[0], 16)
    except OSError:
        pass
    return 0


def main(argv):
    if '--' not in argv or len(argv) < 4:
        sys.exit('usage: chains.py OUT PROGRAM SYM=ADDR... -- CHAIN...')
    cut = argv.index('--')
    out, program = argv[1], os.path.abspath(argv[2])
    syms = {}
    for a in argv[3:cut]:
        name, addr = a.split('=', 1)
        syms[name] = int(addr, 16)
    chains = argv[cut + 1:]

    # perf_event_attr, PERF_ATTR_SIZE_VER5 (112 bytes): cpu-clock:u,
    # sample_type IP | TID | TIME | PERIOD | CALLCHAIN
    sample_type = 0x1 | 0x2 | 0x4 | 0x100 | 0x20
    flags = (1 << 5) | (1 << 6)  # exclude_kernel, exclude_hv
    attr = struct.pack('<IIQQQQQ', 1, 112, 0, 1000000, sample_type, 0, flags)
    attr += b'\0' * (112 - len(attr))
    s = bytearray()
    # a process for each command named (tree's first), each its own pid
    comms = ['tree'] + [c.split('/')[0] for c in chains if '/' in c]
    pids = {}
    size = os.path.getsize(program)
    size += -size % 4096
    for comm in comms:
        if comm in pids:
            continue
        pid = pids[comm] = PID + len(pids)
        s += record(3, 0, struct.pack('<II', pid, pid) + padded(comm))  # COMM
        s += record(1, MISC_USER,  # PERF_RECORD_MMAP
                    struct.pack('<IIQQQ', pid, pid, BASE, size, 0) + padded(program))
    # the kernel's map as perf record writes it (machine's kernel mmap:
    # from _text, its pgoff the reference symbol's address, to the end of
    # the address space), when kallsyms shows kernel addresses
    text = kernel_text()
    if text:
        s += record(1, MISC_KERNEL,
                    struct.pack('<IIQQQ', 0xFFFFFFFF, 0, text, 0xFFFFFFFFFFFFFFFF - text, text) +
                    padded('[kernel.kallsyms]_text'))
    t = 1000000000
    for c in chains:
        comm, _, c = c.rpartition('/')
        pid = pids[comm or 'tree']
        empty = c.startswith('nochain:')
        words = [c[len('nochain:'):]] if empty else c.split(',')
        if words[0] not in CONTEXT:
            words.insert(0, 'user')
        cc = []
        for f in words:
            if f in CONTEXT:
                cc.append(CONTEXT[f])
            else:
                cc.append(int(f, 16) if f.startswith('0x') else BASE + syms[f] + 1)
        ip = next(x for x in cc if x < CONTEXT['user'])
        if empty:
            cc = []
        body = struct.pack('<QIIQQ', ip, pid, pid, t, 1000000)
        body += struct.pack('<Q', len(cc)) + struct.pack('<%dQ' % len(cc), *cc)
        s += record(9, MISC_KERNEL if words[0] == 'kernel' else MISC_USER, body)
        t += 1000000
    s += record(68, 0, b'')  # PERF_RECORD_FINISHED_ROUND
    # file mode: perf_file_header (magic, its size, the attr's size, the
    # attrs' section, the data's, the unused event types', no feature),
    # then the one perf_file_attr (the attr and its ids' section: none)
    attrs, data = 104, 104 + 112 + 16
    head = struct.pack('<QQQ', 0x32454C4946524550, 104, 112)  # "PERFILE2"
    head += struct.pack('<QQQQQQ', attrs, 112 + 16, data, len(s), 0, 0) + b'\0' * 32
    with open(out, 'wb') as f:
        f.write(head + attr + struct.pack('<QQ', 0, 0) + s)


main(sys.argv)
