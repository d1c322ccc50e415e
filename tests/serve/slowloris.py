#!/usr/bin/env python3
"""slowloris.py PORT N SECONDS: opens N connections to 127.0.0.1:PORT,
sends each a request line and then one header line every 2 s, never the
blank line that ends the headers, for at most SECONDS (bounded whatever
happens). Prints one line: "open O cut C", the connections it opened and
how many of them the server closed by the end."""
import socket
import sys
import time

port, n, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
t0 = time.monotonic()
socks = []
for _ in range(n):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        socks.append(s)
    except OSError:
        break
cut = set()
while time.monotonic() - t0 < seconds:
    time.sleep(2)
    for i, s in enumerate(socks):
        if i not in cut:
            try:
                s.sendall(b"X-Slow: 1\r\n")
            except OSError:
                cut.add(i)
print("open %d cut %d" % (len(socks), len(cut)), flush=True)
