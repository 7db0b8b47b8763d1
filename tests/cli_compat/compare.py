#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The command line's numbers, before and after a change of its front end (issue 36).

Runs every line of runs.txt with `--out` (a scratch folder) and `--quiet`, and compares the run's
result.json (every key but the timing, the version and the thread count, which depend on the
machine) and its CSV files with those stored in expected/NAME/, exactly: a number that moved in
its last bit is a difference.

    compare.py --perfshap build/release/perfshap            # compare (exit 1 on a difference)
    compare.py --perfshap build/release/perfshap --record   # store the outputs as expected
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# Keys whose values depend on the machine or the moment, not on the inputs.
MACHINE_KEYS = {"elapsed_seconds", "version", "threads", "seconds", "wall_seconds"}


def runs():
    out = []
    with open(os.path.join(HERE, "runs.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, args = line.partition(":")
            out.append((name.strip(), args.strip()))
    return out


def normalized(value, paths):
    """`value` less the machine's keys, with the scratch and fixture paths as placeholders."""
    if isinstance(value, dict):
        return {k: normalized(v, paths) for k, v in value.items()
                if k not in MACHINE_KEYS and "seconds" not in k}
    if isinstance(value, list):
        return [normalized(v, paths) for v in value]
    if isinstance(value, str):
        for path, name in paths:
            value = value.replace(path, name)
    return value


def outputs(folder, paths):
    """{file name: its normalized content} of a run's result.json and CSVs."""
    files = {}
    for name in sorted(os.listdir(folder)):
        full = os.path.join(folder, name)
        if name == "result.json":
            with open(full, encoding="utf-8") as f:
                files[name] = normalized(json.load(f), paths)
        elif name.endswith(".csv"):
            with open(full, encoding="utf-8") as f:
                text = f.read()
            for path, placeholder in paths:
                text = text.replace(path, placeholder)
            files[name] = text
    return files


def first_difference(a, b, where=""):
    if type(a) is not type(b):
        return f"{where}: {a!r:.80} vs {b!r:.80}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{where}/{k}: only in {'the run' if k in a else 'expected'}"
            d = first_difference(a[k], b[k], f"{where}/{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    if a != b:
        if isinstance(a, str) and "\n" in a:
            for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
                if x != y:
                    return f"{where} line {i + 1}: {x!r:.120} vs {y!r:.120}"
        return f"{where}: {a!r:.120} vs {b!r:.120}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perfshap", required=True)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("names", nargs="*", help="only these runs")
    args = parser.parse_args()
    args.perfshap = os.path.abspath(args.perfshap)
    fixtures = os.path.normpath(os.path.join(HERE, "..", "fixtures"))
    expected_root = os.path.join(HERE, "expected")
    failures = 0
    selected = [r for r in runs() if not args.names or r[0] in args.names]
    with tempfile.TemporaryDirectory(prefix="perfshap_compat_") as scratch:
        for name, line in selected:
            out = os.path.join(scratch, name)
            argv = [args.perfshap] + shlex.split(line.replace("{F}", fixtures).replace("{HERE}", HERE)) + ["--out", out, "--quiet"]
            done = subprocess.run(argv, cwd=scratch, capture_output=True, text=True)
            if done.returncode != 0:
                print(f"FAIL {name}: exit {done.returncode}: {done.stderr.strip()[:300]}")
                failures += 1
                continue
            got = outputs(out, [(out, "{OUT}"), (fixtures, "{F}"), (HERE, "{HERE}"), (scratch, "{SCRATCH}")])
            keep = os.path.join(expected_root, name)
            if args.record:
                shutil.rmtree(keep, ignore_errors=True)
                os.makedirs(keep)
                for file, content in got.items():
                    with open(os.path.join(keep, file), "w", encoding="utf-8") as f:
                        if file == "result.json":
                            json.dump(content, f, indent=1, sort_keys=True)
                            f.write("\n")
                        else:
                            f.write(content)
                print(f"recorded {name}: {', '.join(got)}")
                continue
            if not os.path.isdir(keep):
                print(f"FAIL {name}: nothing stored in {keep} (run with --record)")
                failures += 1
                continue
            want = outputs(keep, [])
            difference = first_difference(got, want)
            if difference:
                print(f"FAIL {name}: {difference}")
                failures += 1
            else:
                print(f"ok   {name}")
    print(f"{len(selected) - failures} of {len(selected)} runs as stored")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
