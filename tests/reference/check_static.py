#!/usr/bin/env python3
"""Once the inputs are bound, no fusion decision may be rejected for a shape that is not static,
except inside an If branch the traced run did not take (nothing runs there, so nothing can shape it).

    check_static.py FUSE_REPORT.json SIMULATE_O2.json
"""
import json
import re
import sys


def main():
    report = json.load(open(sys.argv[1]))
    sim = json.load(open(sys.argv[2]))
    untaken = []
    for note in sim.get("control_flow", []):
        m = re.match(r"(.*): (then|else)_branch \(", note)
        if m:
            other = "else" if m.group(2) == "then" else "then"
            untaken.append(f"{m.group(1)}/{other}_branch/")
    bad = []

    def walk(o):
        if isinstance(o, dict):
            reason = str(o.get("reason", ""))
            node = str(o.get("node", ""))
            if "not static" in reason and not any(node.startswith(u) for u in untaken):
                bad.append(f"{node}: {reason}")
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(report)
    if bad:
        print(f"{len(bad)} rejection(s) for a shape that is not static, e.g. {bad[0]}")
        return 1
    print(f"no 'shape is not static' rejection outside untaken branches ({len(untaken)} untaken)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
