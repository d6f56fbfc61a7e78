#!/usr/bin/env python3
"""Checks two `fwb simulate --json` results of one model (-O0 and -O2), as a user would read them:
every kernel has a positive simulated time within the profile's physical bounds (no kernel beats
flops/peak or bytes/bandwidth), and -O2 is not slower than -O0. Prints one line; exit 1 on a violation.

    check_sim.py O0.json O2.json
"""
import json
import sys


def kernels_ok(r, label):
    peak = r["hw"]["peak_flops"]
    bw = r["hw"]["hbm_bandwidth"]
    if not r["kernels"]:
        return f"{label}: no kernels"
    timed = 0
    for k in r["kernels"]:
        if k["unit"] == "none":
            continue  # views: no device kernel
        timed += 1
        dur = k["dur_us"] * 1e-6
        if not dur > 0:
            return f"{label}: kernel {k['name']} has time {k['dur_us']} us"
        if k["flops"] / peak > dur * (1 + 1e-9):
            return f"{label}: kernel {k['name']} beats peak compute ({k['flops']} flop in {k['dur_us']} us)"
        if k["hbm_bytes"] / bw > dur * (1 + 1e-9):
            return f"{label}: kernel {k['name']} beats HBM bandwidth ({k['hbm_bytes']} B in {k['dur_us']} us)"
        if k["hbm_bytes"] < 0 or k["flops"] < 0:
            return f"{label}: kernel {k['name']} has a negative figure"
    if timed == 0:
        return f"{label}: no device kernel"
    return ""


def main():
    o0, o2 = (json.load(open(p)) for p in sys.argv[1:3])
    for r, label in ((o0, "-O0"), (o2, "-O2")):
        why = kernels_ok(r, label)
        if why:
            print(why)
            return 1
    if o2["latency_us"] > o0["latency_us"] * (1 + 1e-9):
        print(f"-O2 ({o2['latency_us']:.1f} us) is slower than -O0 ({o0['latency_us']:.1f} us)")
        return 1
    print(f"{len(o0['kernels'])} -> {len(o2['kernels'])} kernels, {o0['latency_us']:.1f} -> {o2['latency_us']:.1f} us simulated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
