# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""What the documentation takes from the code, and the check that the pages agree with it.

    python3 docs/reference.py --check     # exit 1, listing each page that disagrees with the registry

The option tables of the method pages come from the method registry (the engine's declarations,
through the built Python module: perfshap._perfshap.method_options()), the C reference from the
comments of c_api.h. The check (a CTest test, docs_agree_with_registry) fails when a registered
method has no page, a method page does not show its generated table, or an example of a page or
the README gives a method a flag it does not declare.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _registry():
    from perfshap import _perfshap  # the built module (PYTHONPATH=build/<preset>/python)
    return _perfshap.method_options()


def methods():
    """[(name, one-line description)] of the registered methods, in the command line's order."""
    return [(name, entry[0]) for name, entry in _registry().items()]


def _takes(o):
    if o["choices"]:
        return "one of " + ", ".join(f"`{c}`" for c in o["choices"])
    if o["range"]:
        return o["range"]
    if o["switch"]:
        return "a switch"
    return {"bool": "true / false", "integer": "a whole number", "number": "a number",
            "text": o["value"] or "text", "list": o["value"] or "a list"}[o["type"]]


def option_rows(method):
    """The rows of a method's option table: flag, keyword, default, what it takes, help."""
    registry = _registry()
    if method not in registry:
        raise KeyError(f"no registered method '{method}' (registered: {', '.join(registry)})")
    rows = []
    for o in registry[method][1]:
        flag = "--" + o["name"].replace("_", "-")
        if not o["switch"]:
            flag += " " + (o["value"] or o["type"].upper())
        names = [o["name"]] + [a.replace("-", "_") for a in o["aliases"]]
        default = f"`{o['default']}`" if o["default"] else ""
        rows.append([f"`{flag}`", ", ".join(f"`{n}`" for n in names), default, _takes(o),
                     o["help"].replace("`", "'")])
    return rows


def c_api_entries(header):
    """[(declaration lines, comment paragraphs)] of c_api.h: each documented group of declarations."""
    lines = open(header, encoding="utf-8").read().split("\n")
    entries, comment, decls, i = [], [], [], 0

    def flush():
        nonlocal comment, decls
        if decls:
            entries.append((decls, [" ".join(comment)] if comment else []))
        comment, decls = [], []

    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if stripped.startswith("/**"):
            flush()
            text = []
            while True:
                part = lines[i].strip()
                part = re.sub(r"^/\*\*|\*/$|^\*", "", part).strip()
                if part:
                    text.append(part)
                if lines[i].rstrip().endswith("*/"):
                    break
                i += 1
            comment = text
        elif stripped.startswith("/*"):  # a plain comment (the file's heading): not a declaration's
            flush()
            while not lines[i].rstrip().endswith("*/"):
                i += 1
        elif stripped.startswith("#define") and comment and not decls:  # a documented macro
            decls.append(line)
        elif not stripped or stripped.startswith("#") or stripped in ("}", 'extern "C" {'):
            flush()
        else:
            decls.append(line)
        i += 1
    flush()
    return entries


# The command line's own flags, beside each method's declared options (engine/cli/registered.cpp).
CLI_FLAGS = ("help", "version", "quiet", "progress")
_METHOD_CALL = re.compile(r"perfshap\s+([a-z][a-z-]*)")


def doc_pages():
    """README.md and every page of docs/ (folder by folder, each folder's pages by name)."""
    pages = [os.path.join(ROOT, "README.md")]
    for d, _, files in sorted(os.walk(HERE)):
        pages += sorted(os.path.join(d, f) for f in files if f.endswith(".md"))
    return pages


def fenced_blocks(page):
    """(line, language, text, reason not run or None) of each fenced block of a page (a block
    indented under a list item included, its indentation taken off)."""
    lines = open(page, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^( *)```([\w{}-]*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, start, j = len(m.group(1)), i, i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        above = lines[start - 1].strip() if start > 0 else ""
        skip = re.match(r"^<!-- not run: (.+) -->$", above)
        text = "\n".join(l[indent:] for l in lines[start + 1:j]) + "\n"
        yield start + 1, m.group(2), text, skip.group(1) if skip else None
        i = j + 1


def _commands(page):
    """The perfshap command lines of a page's shell examples, continuation lines joined."""
    for _, lang, block, _ in fenced_blocks(page):
        if lang not in ("sh", "console"):
            continue
        joined = re.sub(r"\\\n", " ", block)
        for line in joined.split("\n"):
            line = line.split(" #")[0]
            for part in re.split(r"&&|\|\||;|\|", line):
                m = _METHOD_CALL.search(part)
                if m:
                    yield m.group(1), part


def check(pages=None):
    """The disagreements between the pages (README.md and docs/**/*.md) and the registry."""
    registry = _registry()
    problems = []
    for name in registry:
        page = os.path.join(HERE, "methods", name + ".md")
        if not os.path.exists(page):
            problems.append(f"docs/methods/{name}.md: missing: every registered method has a page")
        elif "{perfshap-options} " + name not in open(page, encoding="utf-8").read():
            problems.append(f"docs/methods/{name}.md: does not show its generated option table "
                            f"(```{{perfshap-options}} {name}```)")
    for page in sorted(pages if pages is not None else doc_pages()):
        for method, command in _commands(page):
            if method not in registry:
                continue
            names = set()
            for o in registry[method][1]:
                names.add(o["name"].replace("_", "-"))
                names.update(a.replace("_", "-") for a in o["aliases"])
            for flag in re.findall(r"(?<![\w-])--([a-z][a-z0-9-]*)", command):
                if flag not in names and flag not in CLI_FLAGS:
                    problems.append(f"{os.path.relpath(page, ROOT)}: perfshap {method} has no option --{flag}: "
                                    f"'{command.strip()[:100]}'")
    return problems


if __name__ == "__main__":
    if sys.argv[1:] != ["--check"]:
        sys.exit(__doc__)
    found = check()
    for p in found:
        print(p, file=sys.stderr)
    print(f"docs: {len(found)} disagreement(s) with the registry" if found else "docs: the pages agree with the registry")
    sys.exit(1 if found else 0)
