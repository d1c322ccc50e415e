#!/usr/bin/env python3
"""readme-examples.py README HPMSTAT DIR: run every example of README's
console blocks as written, in order, in DIR (the record example leaves the
perf.data the report example reads), with `hpmstat` on PATH as HPMSTAT.

A console block is a shell session: `$ command` lines (a here-document
runs on to its terminator), each followed by the output the README shows.
An example with output shown must print it (stdout and stderr, as on a
terminal), the figures that change from run to run aside: each number,
and each Topdown bar's letters, compares as one token, blanks as one
blank. It must exit 0, unless what it shows is hpmstat's one-line error
(`hpmstat encode: ...`), which must then exit non-zero. An example without
output shown must exit 0.

Prints one line per example: "ok<TAB>what" or "not ok<TAB>what<TAB>why"."""

import os
import re
import subprocess
import sys

NUMBER = re.compile(r"[-+]?[0-9][0-9.,]*(e[-+]?[0-9]+)?[KMGT%]?")
BAR = re.compile(r"\b[RFBK]{8,}\b")
ERROR = re.compile(r"^hpmstat [a-z]+: ")


def examples(readme):
    """(command, shown output lines) of every console block, in order"""
    out = []
    block = False
    lines = open(readme, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("```"):
            block = line == "```console"
            continue
        if not block:
            continue
        if line.startswith("$ "):
            cmd = line[2:]
            here = re.search(r"<<\s*'?([A-Za-z_]+)'?", cmd)
            if here:
                while i < len(lines):
                    cmd += "\n" + lines[i]
                    i += 1
                    if lines[i - 1] == here.group(1):
                        break
            out.append([cmd, []])
        elif out:
            out[-1][1].append(line)
    return out


def shape(text_lines):
    """the lines as compared: numbers and bars as tokens, blanks as one"""
    res = []
    for line in text_lines:
        line = BAR.sub("BAR", line)
        line = NUMBER.sub("N", line)
        line = " ".join(line.split())
        res.append(line)
    while res and res[-1] == "":
        res.pop()
    return res


def main():
    readme, hpmstat, work = sys.argv[1:4]
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir, exist_ok=True)
    link = os.path.join(bindir, "hpmstat")
    if not os.path.exists(link):
        os.symlink(os.path.abspath(hpmstat), link)
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    # record --backend emu caches its image as perf record does: in $HOME
    env["HOME"] = work
    env["LC_ALL"] = "C"
    for cmd, shown in examples(readme):
        what = cmd.split("\n")[0]
        p = subprocess.run(["sh", "-c", cmd], cwd=work, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        got = p.stdout.decode("utf-8", "replace").split("\n")
        want = shape(shown)
        is_error = len(want) == 1 and ERROR.match(shown[0])
        why = ""
        if is_error and p.returncode == 0:
            why = "exit 0 where the README shows an error"
        elif not is_error and p.returncode != 0:
            why = "exit %d: %s" % (p.returncode, " | ".join(got[:3]))
        elif want and shape(got) != want:
            for n, (a, b) in enumerate(zip(shape(got) + [""] * len(want), want)):
                if a != b:
                    why = "line %d: printed '%s', the README shows '%s'" % (n + 1, a, b)
                    break
            else:
                why = "printed %d lines more than the README shows" % (
                    len(shape(got)) - len(want))
        if why:
            print("not ok\t%s\t%s" % (what, why))
        else:
            print("ok\t%s" % what)


main()
