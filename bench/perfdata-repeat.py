#!/usr/bin/env python3
"""perfdata-repeat.py IN OUT N: OUT is IN (a perf.data in file mode) with
its PERF_RECORD_SAMPLE records repeated until N samples, each copy's
times shifted past the previous copy's last, the feature sections moved
after the longer data section. For the samples report's benchmark."""
import struct, sys

src, dst, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = open(src, 'rb').read()
magic, hsize, attr_size = struct.unpack_from('<QQQ', b, 0)
assert magic == 0x32454c4946524550 and hsize == 104, 'a file-mode PERFILE2'
a_off, a_size, d_off, d_size = struct.unpack_from('<QQQQ', b, 24)
feat = list(struct.unpack_from('<4Q', b, 72))
attr = b[a_off:a_off + attr_size]
sample_type = struct.unpack_from('<Q', attr, 24)[0]
assert sample_type & (1 << 2), 'samples carry PERF_SAMPLE_TIME'
toff = 8 + 8 * bool(sample_type & (1 << 16)) + 8 * bool(sample_type & 1) + 8 * bool(sample_type & 2)
data = b[d_off:d_off + d_size]
samples, o, tmax = [], 0, 0
while o < len(data):
    typ, misc, size = struct.unpack_from('<IHH', data, o)
    if typ == 9:
        samples.append(data[o:o + size])
        tmax = max(tmax, struct.unpack_from('<Q', data, o + toff)[0])
    o += size
tmin = min(struct.unpack_from('<Q', s, toff)[0] for s in samples)
span = tmax - tmin + 1
out = bytearray(data)
n, k = len(samples), 1
while n < want:
    for s in samples:
        if n >= want:
            break
        s = bytearray(s)
        t = struct.unpack_from('<Q', s, toff)[0]
        struct.pack_into('<Q', s, toff, t + k * span)
        out += s
        n += 1
    k += 1
# features: the section table after the data, then each section's bytes
nfeat = sum(bin(w).count('1') for w in feat)
table_off = d_off + d_size
secs = [struct.unpack_from('<QQ', b, table_off + 16 * i) for i in range(nfeat)]
new_table = d_off + len(out)
pos = new_table + 16 * nfeat
tab, body = bytearray(), bytearray()
for off, size in secs:
    tab += struct.pack('<QQ', pos + len(body), size)
    body += b[off:off + size]
res = bytearray(b[:d_off]) + out + tab + body
struct.pack_into('<QQ', res, 40, d_off, len(out))
open(dst, 'wb').write(res)
