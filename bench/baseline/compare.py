#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Compares two run_baseline.sh output folders: every file of every run bit for bit, except
result.json's timings and paths, and the console text's timing lines. Exit 1 on a difference."""
import json
import os
import re
import sys

VOLATILE = {"elapsed_seconds", "threads", "out", "output_dir", "created", "version", "rate"}
PATHISH = re.compile(r"/[^\s\"']*/(tests/fixtures|baseline[^/]*)/")


def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in VOLATILE and "seconds" not in k}
    if isinstance(v, list):
        return [clean(x) for x in v]
    if isinstance(v, str):
        return PATHISH.sub("<dir>/", v)
    return v


def text(path):
    with open(path, "rb") as f:
        return f.read()


def main(a, b):
    global PATHISH
    # Paths under either output folder, or under the fixtures, are the same path.
    PATHISH = re.compile("|".join(re.escape(os.path.abspath(p)) + "/[^/\\s]*" for p in (a, b)) +
                         r"|/[^\s\"']*/tests/fixtures")
    bad = 0
    names = sorted(set(os.listdir(a)) | set(os.listdir(b)))
    for name in names:
        pa, pb = os.path.join(a, name), os.path.join(b, name)
        if not os.path.exists(pa) or not os.path.exists(pb):
            print(f"only in one: {name}")
            bad += 1
            continue
        if os.path.isdir(pa):
            files = sorted(set(os.listdir(pa)) | set(os.listdir(pb)))
            for f in files:
                fa, fb = os.path.join(pa, f), os.path.join(pb, f)
                if not os.path.exists(fa) or not os.path.exists(fb):
                    print(f"{name}/{f}: only in one")
                    bad += 1
                elif f.endswith(".json"):
                    ja, jb = clean(json.loads(text(fa))), clean(json.loads(text(fb)))
                    ja, jb = json.loads(PATHISH.sub("<dir>", json.dumps(ja))), json.loads(PATHISH.sub("<dir>", json.dumps(jb)))
                    if ja != jb:
                        keys = [k for k in set(ja) | set(jb) if ja.get(k) != jb.get(k)] if isinstance(ja, dict) else []
                        print(f"{name}/{f}: differs in {sorted(keys)[:8]}")
                        bad += 1
                elif f == "report.html":
                    continue
                elif text(fa) != text(fb):
                    print(f"{name}/{f}: differs")
                    bad += 1
        elif name.endswith(".console"):
            la = [l for l in text(pa).decode().splitlines() if not re.search(r"\d+(\.\d+)?\s*(s|ms)\b|seconds|elapsed", l)]
            lb = [l for l in text(pb).decode().splitlines() if not re.search(r"\d+(\.\d+)?\s*(s|ms)\b|seconds|elapsed", l)]
            la = [PATHISH.sub("<dir>/", l) for l in la]
            lb = [PATHISH.sub("<dir>/", l) for l in lb]
            if la != lb:
                print(f"{name}: console text differs")
                bad += 1
    print(f"compare: {len(names)} entries, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
