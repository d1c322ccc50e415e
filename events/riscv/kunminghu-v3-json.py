#!/usr/bin/env python3
"""kunminghu-v3-json.py: writes events/riscv/openxiangshan/kunminghu-v3/<bank>.json.

The indices and names come from XiangShan's RTL at kunminghu-v3 afe3818
(tests/data/kunminghu-v3-afe3818-events.tsv: bank, index, name in the order of
each bank's allPerfEvents). A name that repeats in a bank becomes NAME.K
instances (K in index order) and an ADD alias NAME, as kunminghu-v2's do. The
descriptions are kunminghu-v2's for the same name (events/riscv/openxiangshan/
kunminghu/), marked as such: v3's RTL was not re-read at afe3818, so no
RtlCounts or AliasOf (RTL-derived names) is carried over, and a v2 description
that speaks of the RTL or an index speaks of v2's. metrics.json is v2's with
the metrics that use events v3 lacks rewritten (REWRITE); event names resolve
to v3's indices when the metric table is generated.

Usage: kunminghu-v3-json.py TSV V2-FOLDER OUT-FOLDER
"""
import collections
import json
import os
import sys

BANKS = ["frontend", "backend", "memblock", "cache"]
V2_NOTE = (" [kunminghu-v3 afe3818: this is kunminghu-v2's description of the event of the "
           "same name; what it says of XiangShan's RTL and of indices was read on "
           "kunminghu-v2 (0f639b5a) and not re-read on kunminghu-v3]")
BRIEF_RTL_NOTE = " [what kunminghu-v2's RTL does; not re-read on kunminghu-v3]"
# v3 names v2 does not have: described from the name only
NEW = {
    ("backend", "dispatch_stall_cycle_iq"): (
        "Dispatch stall cycles due to the issue queues",
        "From the name, cycles in which the dispatch stage is stalled because of the issue "
        "queues (presumably full; not stated). kunminghu-v2 has no event of this name and no "
        "description was read from the RTL: this reading is taken from the name"),
}


# v3 has no BpWrong/BpRight (the branch predictor's own counts): the
# mispredicted branch instructions (BR_MIS_PRED) over the branch and jump
# instructions (BRANCH_JUMP) are the same ratio counted at the instructions
REWRITE = {
    "branch_misprediction_ratio": "BR_MIS_PRED / BRANCH_JUMP",
    "branch_mpki": "BR_MIS_PRED * 1000 / rob_commitInstr",
}
REWRITE_NOTE = (" [kunminghu-v3 has no BpWrong or BpRight: counted here as {expr}, "
                "mispredicted branch instructions (BR_MIS_PRED) and branch and jump "
                "instructions (BRANCH_JUMP)]")


def write_metrics(v2dir, outdir):
    with open(os.path.join(v2dir, "metrics.json")) as f:
        metrics = json.load(f)
    for m in metrics:
        expr = REWRITE.get(m["MetricName"])
        if expr:
            m["MetricExpr"] = expr
            for key in ("BriefDescription", "PublicDescription"):
                if key in m:
                    m[key] += REWRITE_NOTE.format(expr=expr)
    with open(os.path.join(outdir, "metrics.json"), "w") as f:
        json.dump(metrics, f, indent=4)
        f.write("\n")


def alias_code(idx):
    """The encoder's ADD of NAME.0 + ... + NAME.n-1 (src/kmh/gen/jevents.c)."""
    v = 0
    for i, x in enumerate(idx):
        v |= x << (10 * i)
    v |= 4 << 40
    if len(idx) == 4:
        v |= 4 << 45
    if len(idx) >= 3:
        v |= 4 << 50
    return v


def main():
    tsv, v2dir, outdir = sys.argv[1:4]
    rows = collections.defaultdict(list)
    with open(tsv) as f:
        for line in f:
            bank, index, name = line.rstrip("\n").split("\t")
            rows[bank].append((int(index), name))
    for bank in BANKS:
        with open(os.path.join(v2dir, bank + ".json")) as f:
            v2 = {r["EventName"]: r for r in json.load(f)}
        counter = next(iter(v2.values()))["Counter"]
        count = collections.Counter(n for _, n in rows[bank])
        seen = collections.Counter()
        instances = collections.defaultdict(list)
        out = []
        for pos, (index, name) in enumerate(rows[bank]):
            if index != pos:
                sys.exit(f"{tsv}: {bank} row {pos} has index {index}: not dense")
            ev = name
            if count[name] > 1:
                ev = f"{name}.{seen[name]}"
                seen[name] += 1
                instances[name].append(index)
            if ev in v2:
                brief = v2[ev]["BriefDescription"]
                if "RtlCounts" in v2[ev] or "on the RTL" in brief:
                    # v2's brief states what v2's RTL does: not a claim on v3
                    brief += BRIEF_RTL_NOTE
                desc = v2[ev]["PublicDescription"]
                if count[name] > 1:
                    # v2's instance texts name v2's indices: say v3's instead
                    desc = (f"{brief}. Instance {ev.rsplit('.', 1)[1]} of the {count[name]} "
                            f"events kunminghu-v3's RTL names {name}; this one is index "
                            f"{index}")
                elif name != "noEvent":
                    desc += V2_NOTE
            elif (bank, ev) in NEW:
                brief, desc = NEW[(bank, ev)]
            else:
                sys.exit(f"{bank} {ev}: no kunminghu-v2 description and none written here")
            out.append({"EventName": ev, "EventCode": f"0x{index:x}",
                        "BriefDescription": brief, "PublicDescription": desc,
                        "Counter": counter})
        for name, idx in instances.items():
            n = len(idx)
            ilist = ", ".join(str(i) for i in idx)
            fields = ", ".join(f"EVENT{k} = {i}" for k, i in enumerate(idx))
            if n == 3:
                fields += ", EVENT3 = 0 (noEvent), OP_TYPE0 = ADD, OP_TYPE1 = OR, OP_TYPE2 = ADD"
            elif n == 4:
                fields += ", OP_TYPE0 = ADD, OP_TYPE1 = ADD, OP_TYPE2 = ADD"
            else:
                fields += ", OP_TYPE0 = ADD"
            out.append({
                "EventName": name,
                "EventCode": f"0x{alias_code(idx):x}",
                "BriefDescription": f"Sum of {name} over its {n} instances (indices {ilist})",
                "PublicDescription":
                    f"Alias: the sum of the {n} instances of {name} ({name}.0 to {name}.{n - 1}, "
                    f"indices {ilist}), counted in one counter with the hardware ADD of OP_TYPE "
                    f"({fields}). Each event delivers a 6-bit increment per cycle, so the sum is "
                    f"taken modulo 64 in every cycle before it is added to the counter",
                "Counter": counter})
        with open(os.path.join(outdir, bank + ".json"), "w") as f:
            json.dump(out, f, indent=4)
            f.write("\n")
    write_metrics(v2dir, outdir)


if __name__ == "__main__":
    main()
