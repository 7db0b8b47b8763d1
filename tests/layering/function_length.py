#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""No function over 120 lines in engine/, reproduce/ and python/src/ (STYLE.md; issue 36).

A function is a body opened at file level (namespaces aside) by a line that is not a class,
struct, enum or union, and closed where its braces balance; its length counts the lines from its
signature's first to its closing brace. The functions that were longer when the check came in are
listed in function_length_allowed.txt with their length then: each may only shrink (the file
says what is to be split), and a new one over the limit fails.

    function_length.py ROOT            # exit 1 naming each function over its limit
"""
import os
import re
import sys

LIMIT = 120
HERE = os.path.dirname(os.path.abspath(__file__))
STRING = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'')
TYPE_START = re.compile(r"^(?:template\s*<.*>\s*)?(?:class|struct|enum|union)\b")
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_:~<>]*(?:operator\S*)?)\s*\(")


def code_lines(text):
    """The lines with comments and string literals blanked (raw strings too)."""
    text = re.sub(r'R"([^(]*)\((?:.|\n)*?\)\1"', lambda m: '""' + "\n" * m.group(0).count("\n"), text)
    out, in_block = [], False
    for line in text.split("\n"):
        if in_block:
            end = line.find("*/")
            if end < 0:
                out.append("")
                continue
            line, in_block = " " * (end + 2) + line[end + 2:], False
        line = STRING.sub('""', line)
        line = re.sub(r"/\*.*?\*/", "", line)
        start = line.find("/*")
        if start >= 0:
            line, in_block = line[:start], True
        out.append(line.split("//")[0])
    return out


def functions(path):
    """(name, first line, length) of every function body at file level."""
    raw = open(path, encoding="utf-8").read()
    lines, original = code_lines(raw), raw.split("\n")
    found, depth, start, name, signature = [], 0, None, None, []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if depth == 0 and re.match(r"^(?:inline\s+)?namespace\b.*\{\s*$", stripped):
            continue  # a namespace's braces do not nest functions
        if depth == 0 and stripped.startswith("}") and "namespace" in original[i]:
            continue  # "}  // namespace ..."
        if depth == 0:
            signature = (signature + [stripped])[-6:] if stripped and not stripped.startswith("#") else []
        opens, closes = line.count("{"), line.count("}")
        if depth == 0 and opens > closes:
            text = " ".join(signature)
            if not TYPE_START.match(text) and "(" in text and not text.startswith("extern"):
                m = NAME.search(text)
                first = i - len(signature) + 1
                start, name = first, (m.group(1) if m else text[:40])
            else:
                start, name = None, None
            signature = []
        depth += opens - closes
        if depth == 0 and start is not None:
            found.append((name, start + 1, i - start + 1))
            start, name = None, None
    return found


def allowed():
    limits = {}
    with open(os.path.join(HERE, "function_length_allowed.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                where, length = line.rsplit(" ", 1)
                limits[where] = int(length)
    return limits


def self_test():
    """The check finds a planted long function (and a namespace, a class, strings with braces and
    a lambda do not fool it)."""
    import tempfile
    body = "\n".join(f"  x += {i};" for i in range(125))
    text = ("namespace a {\nstruct S {\n  int f() { return 1; }\n};\n"
            f"int Long(int x) {{\n  auto l = [] {{ return \"}}\"; }};\n{body}\n  return x;\n}}\n"
            "int Short() {\n  return 0;\n}\n}  // namespace a\n")
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "x.cpp")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        found = {name: length for name, _, length in functions(path)}
    assert found.get("Long") == 129 and found.get("Short") == 3 and "f" not in found, found


def main():
    self_test()
    root = sys.argv[1]
    limits = allowed()
    failures, seen = [], set()
    for top in ("engine", "reproduce", os.path.join("python", "src")):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for file in sorted(files):
                if not file.endswith((".cpp", ".hpp", ".h")):
                    continue
                path = os.path.join(folder, file)
                rel = os.path.relpath(path, root)
                for name, line, length in functions(path):
                    key = f"{rel}:{name}"
                    limit = max(LIMIT, limits.get(key, LIMIT))
                    seen.add(key)
                    if length > limit:
                        failures.append(f"{rel}:{line}: {name} is {length} lines (at most {limit}); split it "
                                        "along the comments you would write")
    stale = [k for k in limits if k not in seen]
    for key in stale:
        failures.append(f"{key}: listed in function_length_allowed.txt but gone: remove the line")
    for f in failures:
        print(f)
    print(f"{len(seen)} functions checked, {len(failures)} over their limit")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
