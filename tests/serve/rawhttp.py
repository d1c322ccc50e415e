#!/usr/bin/env python3
"""rawhttp.py PORT KIND: sends one raw request of KIND to 127.0.0.1:PORT and
prints the status code of the answer, or "closed" when the server closed
the connection without one (both are a refusal; "hang": nothing in 15 s).
KIND: longline (a 64 KiB request target), longheader (a 64 KiB header),
manyheaders (2000 headers), garbage (bytes that are no HTTP), badversion
(HTTP/9.9), nohost (HTTP/1.1 without Host), half (a request line with no
end, then the connection closed by the client: prints "sent"), or =BYTES
(Python's backslash escapes)."""
import socket
import sys

port, kind = int(sys.argv[1]), sys.argv[2]
reqs = {
    "longline": b"GET /metrics?" + b"a" * 65536 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "longheader": b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 65536 + b"\r\n\r\n",
    "manyheaders": b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
    + b"".join(b"X-H%d: v\r\n" % i for i in range(2000)) + b"\r\n",
    "garbage": b"\x00\x01\x02\xff\xfe garbage \r\n\r\n",
    "badversion": b"GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n",
    "nohost": b"GET /metrics HTTP/1.1\r\n\r\n",
    "half": b"GET /metr",
}
if kind.startswith("="):  # =BYTES with Python's backslash escapes
    import codecs
    reqs[kind] = codecs.escape_decode(kind[1:].encode())[0]
s = socket.create_connection(("127.0.0.1", port), timeout=15)
try:
    s.sendall(reqs[kind])
except OSError:
    pass  # the server may close while a long request is still being sent
if kind == "half":
    s.close()
    print("sent")
    sys.exit(0)
try:
    s.shutdown(socket.SHUT_WR)
except OSError:
    pass
data = b""
try:
    while len(data) < 64:
        d = s.recv(4096)
        if not d:
            break
        data += d
except (ConnectionResetError, socket.timeout) as e:
    if isinstance(e, socket.timeout):
        print("hang")
        sys.exit(0)
parts = data.split(b" ", 2)
print(parts[1].decode() if len(parts) > 1 and data.startswith(b"HTTP/") else "closed")
