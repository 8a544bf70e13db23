#!/usr/bin/python3
"""Static speed of qnnc's AArch64 microkernels beside XNNPACK's, per core.

There is no Arm hardware here, and times under qemu measure nothing, so each
kernel's inner loop is read from its machine code and run through llvm-mca-19
on the scheduling model of each core (Cortex-A55, Neoverse-N1, Neoverse-V1):
  - qnnc's loops from the objects of the AArch64 build (bazel build
    --config=aarch64 //kernels/spatial_pack), the hottest loop of one tile
    function per kernel: the loop with the most multiply-accumulates;
  - XNNPACK's from the arm64 libXNNPACK the build links (the sysroot of
    scripts/aarch64_sysroot.sh), its exported GEMM microkernels of the same
    instruction, loop found the same way.
A loop's MACs per cycle = its multiply-accumulates per iteration (sdot, udot,
sudot, usdot: 16; smmla, ummla, usmmla: 32; smlal, umlal, smull, umull, mla:
the destination's lanes; not the row sums of a zero-point correction, see
LoopMacs) / llvm-mca's cycles per iteration. The peak of an
instruction on a core comes from the same model: 24 independent instances
(one accumulator each) give its throughput, times its MACs. Branches are
dropped from the loop (llvm-mca runs the block back to back).

  bench/arm_mca.py [--table=FILE] [--cost-table=FILE]

prints one table; --table also writes it as tab-separated values;
--cost-table writes the loops of the Arm fallback's static cost model
(target/arm/arm_cost_model.h) as C++ rows: each core's llvm-mca-19 cycles per
iteration of each kernel loop the model names.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

CORES = [("cortex-a55", "Cortex-A55"), ("neoverse-n1", "Neoverse-N1"), ("neoverse-v1", "Neoverse-V1")]
# The instructions each core has (llvm-mca models any it is given).
CORE_FEATURES = {"cortex-a55": {"neon", "dotprod"}, "neoverse-n1": {"neon", "dotprod"},
                 "neoverse-v1": {"neon", "dotprod", "i8mm"}}
MATTR = "+neon,+dotprod,+i8mm"
SYSROOT = os.environ.get("QNNC_AARCH64_SYSROOT", "/opt/qnnc/aarch64-sysroot")
XNNPACK_LIB = os.path.join(SYSROOT, "usr/lib/aarch64-linux-gnu/libXNNPACK.so.0")
OBJDUMP = "aarch64-linux-gnu-objdump"
MCA = "llvm-mca-19"

# (kernel, feature, peak instruction, object, function pattern): qnnc's tiles
# at their default configs (kernels/spatial_pack/conv2d.cc
# DefaultConfigU8S8: 32 output channels x 2 pixels for sdot, 16 x 4 for
# usmmla, on NCHW16c input), and the widest sdot tile (16 x 6, which spills).
QNNC = [
    ("qnnc u8s8.dotprod 32x2", "dotprod", "sdot", "neon_dotprod/neon_dotprod.pic.o",
     r"NeonDenseTile<[^>]*SdotMac, 2, 2, 4>"),
    ("qnnc u8s8.dotprod 16x6", "dotprod", "sdot", "neon_dotprod/neon_dotprod.pic.o",
     r"NeonDenseTile<[^>]*SdotMac, 1, 6, 4>"),
    ("qnnc u8s8.i8mm 16x4", "i8mm", "usmmla", "neon_i8mm/neon_i8mm.pic.o", r"MmlaTile<1, 4>"),
    ("qnnc int16 16x8 (smlal)", "neon", "smlal", "int16/int16.pic.o", r"AccumulateNeon<16, 8, true>"),
    ("qnnc int16 depthwise (smlal)", "neon", "smlal", "int16/int16.pic.o", r"DepthwiseSums16<1>"),
    ("qnnc depthwise 3x3 (smlal)", "neon", "smlal", "neon_depthwise/neon_depthwise.pic.o", r"DwRowInterior<3>"),
]
# XNNPACK's arm64 GEMM microkernels of the same instructions (Debian's
# libXNNPACK has no i8mm kernel).
XNNPACK = [
    ("xnnpack qs8 4x16c4 neondot ld128", "dotprod", "sdot", "xnn_qs8_gemm_minmax_fp32_ukernel_4x16c4__aarch64_neondot_ld128"),
    ("xnnpack qu8 4x16c4 neondot ld128", "dotprod", "sdot", "xnn_qu8_gemm_minmax_fp32_ukernel_4x16c4__aarch64_neondot_ld128"),
    ("xnnpack qs8 4x16c4 neondot cortex-a55", "dotprod", "sdot",
     "xnn_qs8_gemm_minmax_fp32_ukernel_4x16c4__aarch64_neondot_cortex_a55"),
    ("xnnpack qs8 4x16 mlal_lane ld64", "neon", "smlal", "xnn_qs8_gemm_minmax_fp32_ukernel_4x16__aarch64_neon_mlal_lane_ld64"),
]
# The loops the fallback's cost model names (target/arm/arm_cost_model.cc
# LoopName): u8 x s8 tiles as "<instruction> <channels>x<pixels> c<input
# channel block>", the NEON depthwise rows, the int16 kernel's tiles and
# depthwise loop (GCC's vectorization of the portable code).
COST_LOOPS = [
    ("sdot 32x2 c16", "dotprod", "neon_dotprod/neon_dotprod.pic.o", r"NeonDenseTile<[^>]*SdotMac, 2, 2, 4>"),
    ("sdot 16x4 c16", "dotprod", "neon_dotprod/neon_dotprod.pic.o", r"NeonDenseTile<[^>]*SdotMac, 1, 4, 4>"),
    ("sdot 32x2 c4", "dotprod", "neon_dotprod/neon_dotprod.pic.o", r"NeonDenseTile<[^>]*SdotMac, 2, 2, 1>"),
    ("sdot 16x4 c4", "dotprod", "neon_dotprod/neon_dotprod.pic.o", r"NeonDenseTile<[^>]*SdotMac, 1, 4, 1>"),
    ("usmmla 16x4 c16", "i8mm", "neon_i8mm/neon_i8mm.pic.o", r"MmlaTile<1, 4>"),
    ("sudot 16x4 c4", "i8mm", "neon_i8mm/neon_i8mm.pic.o", r"NeonDenseTile<[^>]*SudotMac, 1, 4, 1>"),
    ("smlal depthwise 3x3", "neon", "neon_depthwise/neon_depthwise.pic.o", r"DwRowInterior<3>"),
    ("smlal depthwise 5x5", "neon", "neon_depthwise/neon_depthwise.pic.o", r"DwRowInterior<5>"),
] + [("int16 dense %dx%d%s" % (co, ow, "" if unit else " strided"), "neon", "int16/int16.pic.o",
      r"AccumulateNeon<%d, %d, %s>" % (co, ow, "true" if unit else "false"))
     for co in (16, 8, 4) for ow in (8, 4) for unit in (True, False)] + [
    ("int16 depthwise", "neon", "int16/int16.pic.o", r"DepthwiseSums16<1>"),
    ("int16 depthwise strided", "neon", "int16/int16.pic.o", r"DepthwiseSums16<2>"),
]
PEAK_INSTRUCTIONS = {
    "sdot": "sdot v{i}.4s, v24.16b, v25.4b[0]",
    "sudot": "sudot v{i}.4s, v24.16b, v25.4b[0]",
    "usmmla": "usmmla v{i}.4s, v24.16b, v25.16b",
    "smlal": "smlal v{i}.4s, v24.4h, v25.4h",
}

LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
FUNC = re.compile(r"^[0-9a-f]+ <(.*)>:$")


def Macs(mnemonic, operands):
    if mnemonic in ("sdot", "udot", "sudot", "usdot"):
        return 16
    if mnemonic in ("smmla", "ummla", "usmmla"):
        return 32
    if re.match(r"^[su]ml[as]l2?$|^[su]mull2?$|^ml[as]$", mnemonic):
        m = re.match(r"v\d+\.(\d+)[bhsd]", operands)
        return int(m.group(1)) if m else 0
    return 0


def ScalarMacs(mnemonic):
    """A general-register multiply-add's one MAC (counted in loops without vector ones)."""
    return 1 if mnemonic in ("madd", "msub", "smaddl", "umaddl") else 0


def Functions(lines):
    """{name: [(address, mnemonic, operands)]} of objdump -d output."""
    funcs, cur = {}, None
    for line in lines:
        m = FUNC.match(line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = LINE.match(line)
        if m and cur is not None:
            operands = re.sub(r"\s*//.*$", "", m.group(3)).strip()
            cur.append((int(m.group(1), 16), m.group(2), operands))
    return funcs


DOTS = ("sdot", "udot", "sudot", "usdot")


def LoopMacs(body):
    """The loop's multiply-accumulates of the product itself. Where dot
    products go by element (a weight vector by one input lane), a full-vector
    dot product is a row sum for a zero-point correction (XNNPACK's qu8
    kernels: the inputs by the kernel zero point), not a MAC of the product.
    A loop without vector MACs counts its general-register multiply-adds."""
    by_lane = any(m in DOTS and "[" in ops for _, m, ops in body)
    macs = sum(Macs(m, ops) for _, m, ops in body if not (by_lane and m in DOTS and "[" not in ops))
    return macs or sum(ScalarMacs(m) for _, m, _ in body)


def HottestLoop(insns):
    """The loop (a backward branch's target .. the branch) with the most MACs."""
    best, best_macs = None, 0
    for i, (addr, mnem, ops) in enumerate(insns):
        if not (mnem == "b" or mnem.startswith("b.") or mnem in ("cbz", "cbnz", "tbz", "tbnz")):
            continue
        m = re.search(r"\b([0-9a-f]+) <", ops)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target >= addr:
            continue
        body = [x for x in insns if target <= x[0] <= addr]
        macs = LoopMacs(body)
        # The innermost of equally hot loops: the shortest.
        if macs > best_macs or (macs == best_macs and best is not None and len(body) < len(best)):
            best, best_macs = body, macs
    return best, best_macs


def McaInput(body):
    out = []
    for _, mnem, ops in body:
        if mnem == "b" or mnem.startswith("b.") or mnem in ("cbz", "cbnz", "tbz", "tbnz", "nop"):
            continue
        out.append(f"{mnem} {ops}".strip())
    return "\n".join(out) + "\n"


def McaCycles(asm, core, iterations=200):
    r = subprocess.run([MCA, "-mtriple=aarch64", f"-mcpu={core}", f"-mattr={MATTR}", f"-iterations={iterations}"],
                       input=asm, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"llvm-mca-19 -mcpu={core} failed: {r.stderr.strip()[:400]}")
    total = int(re.search(r"Total Cycles:\s+(\d+)", r.stdout).group(1))
    return total / iterations


def Peak(instr, core):
    asm = "\n".join(PEAK_INSTRUCTIONS[instr].format(i=i) for i in range(24)) + "\n"
    macs = 24 * Macs(instr, PEAK_INSTRUCTIONS[instr].format(i=0).split(" ", 1)[1])
    return macs / McaCycles(asm, core)


def Disassemble(args):
    r = subprocess.run([OBJDUMP, "-d", "-C", "--no-show-raw-insn"] + args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{OBJDUMP} failed: {r.stderr.strip()[:400]}")
    return r.stdout.splitlines()


def XnnpackFunction(symbol):
    nm = subprocess.run(["aarch64-linux-gnu-nm", "-D", "-S", XNNPACK_LIB], capture_output=True, text=True).stdout
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] == symbol:
            start, size = int(parts[0], 16), int(parts[1], 16)
            lines = Disassemble([f"--start-address={start:#x}", f"--stop-address={start + size:#x}", XNNPACK_LIB])
            return [i for f in Functions(lines).values() for i in f]
    return None


def QnncLoop(objs, obj, pattern):
    """The hottest loop of the functions of qnnc's object `obj` matching `pattern`."""
    path = os.path.join(objs, obj)
    if not os.path.exists(path):
        sys.exit(f"arm_mca: {path} not found; build it first: bazel build --config=aarch64 //kernels/spatial_pack")
    funcs = Functions(Disassemble([path]))
    cands = [HottestLoop(f) for n, f in funcs.items() if re.search(pattern, n)]
    body, macs = max(cands, key=lambda c: c[1]) if cands else (None, 0)
    if not body:
        sys.exit(f"arm_mca: no loop with multiply-accumulates in {obj} /{pattern}/")
    return body, macs


def WriteCostTable(path, objs):
    rows = []
    for loop, feature, obj, pattern in COST_LOOPS:
        body, macs = QnncLoop(objs, obj, pattern)
        asm = McaInput(body)
        for core, _ in CORES:
            if feature in CORE_FEATURES[core]:
                rows.append('{"%s", "%s", %d, %.2f},' % (core, loop, macs, McaCycles(asm, core)))
    with open(path, "w") as f:
        f.write("// Generated by bench/arm_mca.py --cost-table from the AArch64 build's kernel\n"
                "// objects and llvm-mca-19's scheduling models; do not edit. Rows: {core,\n"
                "// loop, multiply-accumulates per iteration, cycles per iteration}.\n")
        f.write("\n".join(rows) + "\n")
    print(f"arm_mca: {len(rows)} loops x cores written to {path}")


def Need(tool, hint):
    if shutil.which(tool) is None:
        sys.exit(f"arm_mca: {tool} not found; {hint}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", help="also write the table here (tab-separated)")
    ap.add_argument("--cost-table", help="write the cost model's loops here (C++ rows)")
    ap.add_argument("--objs", help="the AArch64 build's kernels/spatial_pack/_objs (default: from bazel info)")
    a = ap.parse_args()
    Need(MCA, "scripts/setup.sh --mca installs llvm-19")
    Need(OBJDUMP, "scripts/setup.sh installs the AArch64 binutils")
    if not os.path.exists(XNNPACK_LIB):
        sys.exit(f"arm_mca: {XNNPACK_LIB} not found; scripts/setup.sh --aarch64 makes the sysroot")
    objs = a.objs
    if objs is None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        bin_dir = subprocess.run(["bazel", "info", "--config=aarch64", "bazel-bin"], cwd=root, capture_output=True,
                                 text=True).stdout.strip()
        objs = os.path.join(bin_dir, "kernels/spatial_pack/_objs")
    if a.cost_table:
        WriteCostTable(a.cost_table, objs)
        return
    loops = []  # (kernel, feature, instr, body, macs)
    for kernel, feature, instr, obj, pattern in QNNC:
        body, macs = QnncLoop(objs, obj, pattern)
        loops.append((kernel, feature, instr, body, macs))
    for kernel, feature, instr, symbol in XNNPACK:
        insns = XnnpackFunction(symbol)
        if insns is None:
            print(f"(XNNPACK's {symbol} is not in {XNNPACK_LIB})")
            continue
        body, macs = HottestLoop(insns)
        loops.append((kernel, feature, instr, body, macs))
    rows = []
    for core, core_name in CORES:
        peaks = {}
        for kernel, feature, instr, body, macs in loops:
            if feature not in CORE_FEATURES[core]:
                continue
            if instr not in peaks:
                peaks[instr] = Peak(instr, core)
            cycles = McaCycles(McaInput(body), core)
            rate = macs / cycles
            rows.append((core_name, kernel, instr, macs, cycles, rate, peaks[instr], 100 * rate / peaks[instr]))
    header = ("core", "kernel", "instruction", "MACs/iter", "cycles/iter", "MACs/cycle", "peak", "% of peak")
    print("%-12s %-40s %-6s %9s %11s %10s %6s %9s" % header)
    for r in rows:
        print("%-12s %-40s %-6s %9d %11.2f %10.2f %6.1f %8.1f%%" % r)
    print("llvm-mca-19 steady state; no Arm hardware here, and no time under qemu is a speed.")
    if a.table:
        with open(a.table, "w") as f:
            f.write("\t".join(header) + "\n")
            for r in rows:
                f.write("\t".join([r[0], r[1], r[2], str(r[3])] + ["%.2f" % v for v in r[4:]]) + "\n")


if __name__ == "__main__":
    main()
