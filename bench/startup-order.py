#!/usr/bin/env python3
"""startup-order.py: src/hpmstat-front.ld, the static front's start-up paths
laid out together (make startup-order; issue 30).

Usage: startup-order.py HPMSTAT TRACER MAP OUT

Runs each command of PATHS below under TRACER (bench/startup-trace.c: the
instructions HPMSTAT executes, one by one, in the order of first execution),
finds in MAP (the link map of that HPMSTAT, src/hpmstat.map) the input
section each instruction lies in (a function of hpmstat's, compiled with
-ffunction-sections, or a member of a static library, libc's included), and
writes OUT: a GNU ld script that places those sections, in that order, in an
output section of their own before .text. The first command's sections come
first, then the sections the second adds, and so on: `stat -e task-clock --
true`, the command people script thousands of times, lies in the fewest 64 KB
windows of the kernel's fault-around. A section the script names that a
later build no longer has matches nothing and is left where the linker puts
it: a stale script costs start-up time, never correctness
(tests/util/static-front.sh measures how much of stat's path it still holds).
"""
import bisect
import os
import re
import subprocess
import sys
import tempfile

# (what, hpmstat's arguments), most important first
PATHS = [
    ("stat -e task-clock -- true", ["stat", "-e", "task-clock", "--", "true"]),
    ("stat -e task-clock -- sleep 0.01 (the paths that wait)",
     ["stat", "-e", "task-clock", "--", "sleep", "0.01"]),
    ("--version", ["--version"]),
    ("encode rob_commitInstr", ["encode", "rob_commitInstr"]),
]
# (not the emulator's runs nor `list`: single-stepping them takes minutes
# to hours, the emulator pacing itself to its clock)

# An input section in a link map: on one line, or its name on a line of its
# own and the address, size and file on the next.
ONE_LINE = re.compile(r"^ (\.\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
NAME_ONLY = re.compile(r"^ (\.\S+)\s*$")
REST = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
MEMBER = re.compile(r"^.*/([^/()]+\.a)\(([^()]+)\)$")


def code_sections(map_path):
    """(address, size, section name, file) of every input section of code
    the link placed, sorted by address."""
    sections = []
    name = None
    with open(map_path) as f:
        for line in f:
            m = ONE_LINE.match(line)
            if m:
                sections.append((int(m.group(2), 16), int(m.group(3), 16), m.group(1),
                                 m.group(4)))
                name = None
                continue
            m = NAME_ONLY.match(line)
            if m:
                name = m.group(1)
                continue
            m = REST.match(line)
            if m and name:
                sections.append((int(m.group(1), 16), int(m.group(2), 16), name,
                                 m.group(3)))
            name = None
    return sorted(s for s in sections if s[1] > 0 and s[2].startswith(".text"))


def file_pattern(path):
    """The script's pattern for an input file: libc.a's member printf.o is
    *libc.a:printf.o, an object of the build *its-name.o, so that the
    script holds for any build directory."""
    m = MEMBER.match(path)
    if m:
        return "*%s:%s" % (m.group(1), m.group(2))
    return "*" + os.path.basename(path)


def trace(tracer, hpmstat, args, out):
    """The addresses HPMSTAT executes for args, in order of first execution."""
    with open(os.devnull, "w") as null:
        p = subprocess.run([tracer, out, hpmstat] + args, stdin=subprocess.DEVNULL,
                           stdout=null, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("startup-order: %s %s: %s" % (hpmstat, " ".join(args), p.stderr.strip()))
    with open(out) as f:
        return [int(line, 16) for line in f if line.strip()]


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    hpmstat, tracer, map_path, out = sys.argv[1:]
    sections = code_sections(map_path)
    starts = [s[0] for s in sections]
    placed = {}  # section -> order of first use
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for what, args in PATHS:
            new = size = 0
            for pc in trace(tracer, hpmstat, args, os.path.join(tmp, "pcs")):
                i = bisect.bisect_right(starts, pc) - 1
                if i < 0 or pc >= sections[i][0] + sections[i][1]:
                    continue  # the PLT, or not hpmstat's code
                key = (file_pattern(sections[i][3]), sections[i][2])
                if key in placed:
                    continue
                placed[key] = len(placed)
                new += 1
                size += sections[i][1]
                lines.append("\t\t%s(%s)" % key)
            print("%-60s %4d sections, %7d bytes more" % (what, new, size))
    with open(out + ".tmp", "w") as f:
        f.write("/* src/hpmstat-front.ld: the static front's start-up paths, laid out\n"
                " * together at the start of its code (issue 30). Made by `make\n"
                " * startup-order` (bench/startup-order.py) from the code these commands\n"
                " * ran, in this order:\n")
        for what, _ in PATHS:
            f.write(" *   hpmstat %s\n" % what)
        f.write(" * Do not edit; remake it when the paths change (tests/util/static-front.sh\n"
                " * says how much of stat's path it still holds). */\n"
                "SECTIONS\n{\n\t.text.hpmstart : {\n")
        f.write("\n".join(lines) + "\n")
        f.write("\t}\n}\nINSERT BEFORE .text;\n")
    os.replace(out + ".tmp", out)
    print("%s: %d sections" % (out, len(lines)))


if __name__ == "__main__":
    main()
