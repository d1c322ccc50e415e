#!/usr/bin/env python3
"""startup-order.py: src/hpmstat-front.ld, the static front's start-up paths
laid out together (make startup-order; issue 30).

Usage: startup-order.py text HPMSTAT TRACER MAP OUT
       startup-order.py data TRACED MAP OUT [OBJECT=PATTERN ...]

text: runs each command of PATHS below under TRACER (bench/startup-trace.c:
the instructions HPMSTAT executes, one by one, in the order of first
execution), finds in MAP (the link map of that HPMSTAT, src/hpmstat.map) the
input section each instruction lies in (a function of hpmstat's, compiled
with -ffunction-sections, or a member of a static library, libc's
included), and writes OUT: a GNU ld script that places those sections, in
that order, in an output section of their own before .text. The first
command's sections come first, then the sections the second adds, and so
on: `stat -e task-clock -- true`, the command people script thousands of
times, lies in the fewest 64 KB windows of the kernel's fault-around.

data: runs each command of PATHS under valgrind's lackey, which logs every
load and store, in TRACED (bench/bench-startup-traced: the same program
linked by OUT, but whose child is a copy of it, which valgrind follows; MAP
is its link map), and adds to OUT the input sections of read-only data,
of read-only data after relocation, of data and of .bss those touch (a
variable of hpmstat's, compiled with -fdata-sections, an object's strings,
a library member's data), each kind in an output section of its own at the
head of its kind: their pages are then a few, where the linker's order
scatters them over a megabyte (a page fault each, in the kernel's page
walk and zeroing: stat -e task-clock -- true took 44, 33 after). Sections
keep the order of the first command that touched them, those over 16 KB
(libc's ctype tables, most of them unread) after the others of that
command. What a section holds decides where the linker merges strings, and
so which copy of a string the code reads: the make rule relinks TRACED with
the new OUT and runs this again, until a round adds nothing (exit status 3).
OBJECT=PATTERN names TRACED's own objects by the pattern of the object
hpmstat has in their place (its child.o, built with HPM_CHILD_COPY).

A section the script names that a later build no longer has matches nothing
and is left where the linker puts it: a stale script costs start-up time,
never correctness (tests/util/static-front.sh measures how much of stat's
path it still holds).
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


def map_sections(map_path, kinds):
    """(address, size, section name, file) of every input section the link
    placed whose name starts with one of kinds, sorted by address."""
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
    return sorted(s for s in sections if s[1] > 0 and s[0] > 0 and s[2].startswith(kinds))


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


HEADER = """/* src/hpmstat-front.ld: the static front's start-up paths, laid out
 * together at the head of its code and of each kind of its data (issue
 * 30). Made by `make startup-order` (bench/startup-order.py) from the code
 * these commands ran (single-stepped) and the data they touched (under
 * valgrind), in this order:
%s * Each line of data ends with the command that first touched it (0: the
 * first) and its size. Do not edit; remake it when the paths change
 * (tests/util/static-front.sh says how much of stat's path it still
 * holds). */
"""


# _fini, which every path calls at its exit, ahead of the code (inserted
# before .text first, it goes before .text.hpmstart): the default script
# puts it after all of .text, a page of its own 1.6 MB away
FINI = "SECTIONS\n{\n\t.fini : {\n\t\tKEEP (*(SORT_NONE(.fini)))\n\t}\n}\nINSERT BEFORE .text;\n"


def text_main(hpmstat, tracer, map_path, out):
    sections = map_sections(map_path, (".text",))
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
    paths = "".join(" *   hpmstat %s\n" % what for what, _ in PATHS)
    # the data blocks start with what is placed without a trace (libc's
    # strings), so that the first data round runs with them too
    write(out, HEADER % paths + FINI + "SECTIONS\n{\n\t.text.hpmstart : {\n" + "\n".join(lines) +
          "\n\t}\n}\nINSERT BEFORE .text;\n" + data_blocks({}))
    print("%s: %d sections of code" % (out, len(lines)))


def write(out, text):
    with open(out + ".tmp", "w") as f:
        f.write(text)
    os.replace(out + ".tmp", out)


# The kinds of data laid out: (what the input sections' names start with,
# the output section, where it goes). Read-only data after .rodata (before
# it would be in the code's segment); the others at the head of theirs.
DATA_KINDS = [
    ((".rodata",), ".rodata.hpmstart", "AFTER .rodata"),
    ((".data.rel.ro",), ".data.rel.ro.hpmstart", "BEFORE .data.rel.ro"),
    ((".data",), ".data.hpmstart", "BEFORE .data"),
    ((".bss",), ".bss.hpmstart", "BEFORE .bss"),
]
BIG = 16 * 1024  # a section this large goes after its command's others
# libc's strings and constants, all of them (38 KB) at the head of the
# read-only data: the linker merges equal strings into the first section
# of the output section that has them, and libc's are also in libpfm's and
# libbpf's (which come first in the link), so that libc's code would read
# them from the one of those the last round left behind, a round each
LIBC_MERGED = "\t\t*libc.a:*(.rodata.str* .rodata.cst*)\n"
# Read-only data starts a 64 KB fault-around window: its first 64 KB, the
# paths' first touches, are one fault (the data's pages are written, a
# fault each, and the window does not apply)
ALIGN = ["ALIGN(0x10000) ", "", "", ""]
ENTRY = re.compile(r"^\t\t(\S+)\((\S+)\) /\* (\d+) (\d+) \*/$")


def kind_of(name):
    """The index in DATA_KINDS of a section name, or None."""
    for k, (prefixes, _, _) in enumerate(DATA_KINDS):
        if name.startswith(prefixes):  # .data.rel.ro before .data
            return k
    return None


def libc_merged(key):
    """Whether LIBC_MERGED places the section (pattern, name)."""
    return key[0].startswith("*libc.a:") and key[1].startswith((".rodata.str", ".rodata.cst"))


def lackey(traced, args, log):
    """The data addresses TRACED loads and stores for args, in order."""
    try:
        with open(os.devnull, "w") as null:
            subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes",
                            "--log-file=" + log, traced] + args,
                           stdin=subprocess.DEVNULL, stdout=null, stderr=null)
    except FileNotFoundError:
        sys.exit("startup-order: no valgrind to trace the data with (apt-get install valgrind)")
    if not os.path.exists(log):
        sys.exit("startup-order: valgrind did not run %s" % traced)
    access = re.compile(r"^ [LSM] ([0-9a-f]+),")
    with open(log) as f:
        for line in f:
            m = access.match(line)
            if m:
                yield int(m.group(1), 16)


def faults(program, args, tmp):
    """The addresses whose first touch by PROGRAM (not its child) for args
    faulted, in order: what lackey cannot see (the kernel's reads of
    system calls' arguments, the vDSO's set-up, which valgrind leaves
    out). Nothing where perf cannot record them."""
    data = os.path.join(tmp, "faults.data")
    try:
        with open(os.devnull, "w") as null:
            p = subprocess.run(["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d",
                                "-i", "-o", data, "--", program] + args,
                               stdin=subprocess.DEVNULL, stdout=null, stderr=null)
            if p.returncode != 0:
                return []
            p = subprocess.run(["perf", "script", "-i", data, "-F", "addr"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=null,
                               text=True)
    except FileNotFoundError:
        return []
    return [int(w, 16) for w in p.stdout.split() if re.fullmatch(r"[0-9a-f]+", w)]


def data_blocks(placed):
    """The script's blocks of data: placed maps (pattern, section) to
    (kind, path, size); each line says the path that first touched the
    section and its size, which the next round reads back."""
    blocks = []
    for k, (_, outsec, where) in enumerate(DATA_KINDS):
        entries = [(v[1], v[2] > BIG, order, key, v[2])
                   for order, (key, v) in enumerate(placed.items()) if v[0] == k]
        lines = ["\t\t%s(%s) /* %d %d */\n" % (key[0], key[1], path, size)
                 for path, _, _, key, size in sorted(entries)]
        head = LIBC_MERGED if k == 0 else ""
        blocks.append("SECTIONS\n{\n\t%s %s: {\n%s%s\t}\n}\nINSERT %s;\n" %
                      (outsec, ALIGN[k], head, "".join(lines), where))
    return "".join(blocks)


def data_main(traced, map_path, out, renames):
    with open(out) as f:
        script = f.read()
    cut = script.find("\nSECTIONS\n{\n\t.rodata.hpmstart")
    text_part = script if cut < 0 else script[:cut + 1]
    # what earlier rounds placed: (pattern, section) -> (kind, path, size)
    placed = {}
    for line in script[len(text_part):].splitlines():
        m = ENTRY.match(line)
        if m:
            placed[(m.group(1), m.group(2))] = (kind_of(m.group(2)), int(m.group(3)),
                                                int(m.group(4)))
    sections = map_sections(map_path, (".rodata", ".data", ".bss"))
    starts = [s[0] for s in sections]
    added = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (what, args) in enumerate(PATHS):
            new = 0
            touched = list(lackey(traced, args, os.path.join(tmp, "log")))
            for a in touched + faults(traced, args, tmp):
                i = bisect.bisect_right(starts, a) - 1
                if i < 0 or a >= sections[i][0] + sections[i][1]:
                    continue  # the stack, the heap, or code
                pattern = file_pattern(sections[i][3])
                key = (renames.get(pattern, pattern), sections[i][2])
                k = kind_of(key[1])
                if k is None or key in placed or libc_merged(key):
                    continue
                placed[key] = (k, n, sections[i][1])
                new += 1
            print("%-60s %4d sections more" % (what, new))
            added += new
    write(out, text_part + data_blocks(placed))
    print("%s: %d sections of data (%d more)" % (out, len(placed), added))
    return 0 if added else 3


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "text" and len(sys.argv) == 6:
        text_main(*sys.argv[2:6])
        return 0
    if mode == "data" and len(sys.argv) >= 5:
        renames = {}
        for arg in sys.argv[5:]:
            obj, _, pattern = arg.partition("=")
            renames[file_pattern(obj)] = pattern
        return data_main(sys.argv[2], sys.argv[3], sys.argv[4], renames)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
