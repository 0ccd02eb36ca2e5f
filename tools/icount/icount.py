#!/usr/bin/env python3
"""icount.py — the table of tools/icount.sh from callgrind's dumps.

Each dump (--dump-instr=yes) is one stage of one frame ("<stage> <frame>").
Its instructions are classified by their disassembly (objdump -d of the
driver, which links the library statically):
  valu    vector arithmetic, logic, compares, shuffles and conversions (an
          ALU port each; a memory operand adds a load)
  vmove   vector loads, stores, broadcasts and register moves (vmov*,
          vbroadcast*; load/store ports, or removed at rename)
  vdiv    divisions and square roots (also in valu): the divider is one port
  vmul    multiplies and fused multiply-adds (also in valu): on Zen 4 two of
          the four vector ports run them, so vmul / 2 is a second floor
  scalar  the rest of the driver's code (loop control, addresses, the
          per-call checks)
  lib     code outside the driver (libm's and libc's: the scalar variant's
          atan2f, sincosf, expf; memcpy), counted but not classified
Per stage, instructions per joint (divided by frames x joints), and the
issue floor valu / ports in cycles per joint: the fewest cycles the stage's
vector arithmetic needs if every ALU port were busy every cycle (Golden
Cove-class cores: 3 ports for 128/256-bit vector ALU, 2 for 512-bit). The
floor leaves out lib (for the scalar variant it is a lower bound only)."""
import argparse
import collections
import glob
import re
import subprocess
import sys


def disassembly(binary):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True,
                         check=True).stdout
    ins = {}
    for line in out.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m:
            ins[int(m.group(1), 16)] = (m.group(2), m.group(3))
    return ins


VEC_REG = re.compile(r"%[xyz]mm|%k[0-7]")
MOVES = re.compile(r"v?(mov(aps|ups|apd|upd|dq[au](8|16|32|64)?|ss|sd|d|q|nt\w*)|p?broadcast\w*|zeroupper)$")


def classify(mnemonic, operands):
    """'valu', 'vmove' or 'scalar' (the scalar reference's float math runs
    on the vector ports as ss/sd instructions: valu too)."""
    if not VEC_REG.search(operands) and not mnemonic.startswith("k"):
        return "scalar"
    return "vmove" if MOVES.match(mnemonic) else "valu"


def dump_costs(path):
    """(description, {address: instructions}) of one callgrind dump, self
    costs only (a call's inclusive cost line is skipped)."""
    desc, costs, skip = "", collections.Counter(), False
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger:"):
                desc = line.split(":", 2)[2].strip()
            elif line.startswith("calls="):
                skip = True
            elif re.match(r"0x[0-9a-f]+ ", line):
                fields = line.split()
                if skip:
                    skip = False
                    continue
                costs[int(fields[0], 16)] += int(fields[-1])
    return desc, costs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("dumps")
    ap.add_argument("--joints", type=int, required=True, help="characters x joints of the frame")
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--ghz", type=float, default=0.0, help="core clock, for the floor in ns")
    a = ap.parse_args()
    ins = disassembly(a.binary)
    stages = collections.OrderedDict()
    for path in sorted(glob.glob(a.dumps + ".*"), key=lambda p: int(p.rsplit(".", 1)[1])):
        desc, costs = dump_costs(path)
        m = re.search(r"Client Request: (\S+) (\d+)", desc)
        if not m:
            continue
        st = stages.setdefault(m.group(1), collections.Counter())
        for addr, n in costs.items():
            mn, ops = ins.get(addr, (None, ""))
            kind = classify(mn, ops) if mn else "lib"
            st[kind] += n
            st["all"] += n
            if kind == "valu" and "zmm" in ops:
                st["zmm"] += n
            if mn and re.match(r"v?(div|sqrt)[ps][sd]$", mn):
                st["vdiv"] += n
            if mn and kind == "valu" and re.match(r"v?(mul|f(n)?m(add|sub)\d*)[ps][sd]$", mn):
                st["vmul"] += n
    if not stages:
        sys.exit("icount.py: no stage dumps in %s.*" % a.dumps)
    per = a.joints * a.frames
    head = "%-12s %9s %8s %8s %8s %7s %7s %7s %11s" % ("stage", "instr/j", "valu/j", "vmove/j", "scalar/j", "lib/j",
                                                        "vdiv/j", "vmul/j", "floor cyc/j")
    if a.ghz:
        head += " %9s" % "floor ns/j"
    print("%s: instructions per joint per frame (%d joints, mean of %d frames)" % (a.variant, a.joints, a.frames))
    print(head)
    total = collections.Counter()
    for name, st in list(stages.items()) + [("frame", None)]:
        if st is None:
            st = total
        else:
            total.update(st)
        if not st["all"]:
            continue
        floor = ((st["valu"] - st["zmm"]) / 3.0 + st["zmm"] / 2.0) / per
        row = "%-12s %9.1f %8.1f %8.1f %8.1f %7.1f %7.2f %7.1f %11.1f" % (
            name, st["all"] / per, st["valu"] / per, st["vmove"] / per, st["scalar"] / per, st["lib"] / per,
            st["vdiv"] / per, st["vmul"] / per, floor)
        if a.ghz:
            row += " %9.2f" % (floor / a.ghz)
        print(row)


if __name__ == "__main__":
    main()
