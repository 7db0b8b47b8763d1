# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Runs the code examples of README.md and docs/, as a reader would paste them (the DocsExamples test).

    python3 tests/docs/run_examples.py BUILD_DIR [PAGE...]
    python3 tests/docs/run_examples.py --write-cpp DIR

From the repository root, with BUILD_DIR as build/release (the examples say ./build/release/...):
every ```sh block runs in bash -e, every ```python block that is a whole program in Debian's
python3 with the build's module on PYTHONPATH, and every ```c block that is a whole program
(it has a main) is compiled against the build's C library and run. A block that is not meant to
run says why in an HTML comment on the line above it, `<!-- not run: REASON -->`: installing
packages, building, benchmark and fuzz campaigns of minutes to hours, a fragment of the example
before it. The test fails on the first block that fails, naming its page and line.

Every ```cpp block is a whole program too (or says why not): --write-cpp writes them into DIR,
one file a block, and the PackageConsumer test builds them against the installed package, as a
user's project would, and runs them from the repository root.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "docs"))
from reference import doc_pages, fenced_blocks  # noqa: E402  (the pages and their blocks, as the docs check reads them)


def run(page, line, lang, text, build, scratch):
    # The examples write under /tmp as a reader's would; here under this page's own folder, so
    # that no run meets another's (or an earlier run's) output directory.
    text = text.replace("/tmp/", os.path.join(scratch, "tmp") + "/")
    os.makedirs(os.path.join(scratch, "tmp"), exist_ok=True)
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"), PERFSHAP_DOCS_EXAMPLE="1")
    where = f"{os.path.relpath(page, ROOT)}:{line}"
    if lang == "sh":
        cmd = ["bash", "-e", "-o", "pipefail", "-c", text]
    elif lang == "python":
        cmd = ["/usr/bin/python3", "-c", text]
    elif lang == "c":
        os.makedirs(scratch, exist_ok=True)
        src = os.path.join(scratch, "example.c")
        open(src, "w").write(text)
        exe = os.path.join(scratch, "example")
        lib = os.path.join(build, "engine")
        subprocess.run(["cc", "-std=c11", src, "-I", os.path.join(ROOT, "engine/c_api/include"),
                        "-I", os.path.join(ROOT, "engine/include"), "-L", lib,
                        "-lperfshap_c", f"-Wl,-rpath,{lib}", "-o", exe], check=True)
        cmd = [exe]
    else:
        return None
    t = time.time()
    r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:])
        sys.exit(f"docs example {where} ({lang}) failed with exit status {r.returncode}: run it from the "
                 "repository root to see why, then fix the page or the code")
    return time.time() - t


def is_program(lang, text):
    if lang in ("c", "cpp"):
        return re.search(r"\bint\s+main\s*\(", text) is not None
    return lang in ("sh", "python")


def whole_or_says_why(page, line, lang, text, reason):
    """A C or C++ block is a whole program, or the line above it says why not."""
    if reason is None and lang in ("c", "cpp") and not is_program(lang, text):
        sys.exit(f"{os.path.relpath(page, ROOT)}:{line}: a {lang} block that is not a whole program says why on "
                 "the line above it: <!-- not run: REASON -->")


def write_cpp(out):
    """The ```cpp programs of every page as out/<page>_<line>.cpp (for PackageConsumer)."""
    os.makedirs(out, exist_ok=True)
    written = 0
    for page in doc_pages():
        for line, lang, text, reason in fenced_blocks(page):
            if lang != "cpp":
                continue
            whole_or_says_why(page, line, lang, text, reason)
            if reason is not None:
                continue
            name = re.sub(r"[^A-Za-z0-9]+", "_", os.path.relpath(page, ROOT)[:-3]) + f"_{line}.cpp"
            with open(os.path.join(out, name), "w") as f:
                f.write(f"// {os.path.relpath(page, ROOT)}:{line}\n" + text)
            written += 1
    print(f"docs examples: {written} C++ programs written into {out}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--write-cpp":
        if len(sys.argv) != 3:
            sys.exit(__doc__)
        write_cpp(os.path.abspath(sys.argv[2]))
        return
    build = os.path.abspath(sys.argv[1])
    pages = [os.path.abspath(p) for p in sys.argv[2:]] or doc_pages()
    ran = skipped = built = 0
    scratch = tempfile.mkdtemp(prefix="perfshap-docs-")
    try:
        for page in pages:
            for line, lang, text, reason in fenced_blocks(page):
                if lang not in ("sh", "python", "c", "cpp"):
                    continue
                if reason is None and lang == "sh" and text.startswith("bash .ci/deps"):
                    reason = "installing and building: what CI runs (.ci/run), with this test in it"
                whole_or_says_why(page, line, lang, text, reason)
                if reason is not None or not is_program(lang, text):
                    skipped += 1
                    continue
                if lang == "cpp":  # PackageConsumer builds and runs them (--write-cpp)
                    built += 1
                    continue
                took = run(page, line, lang, text, build, os.path.join(scratch, os.path.basename(page)))
                ran += 1
                print(f"{os.path.relpath(page, ROOT)}:{line} {lang} ok ({took:.1f} s)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"docs examples: {ran} ran, {built} C++ programs left to PackageConsumer, {skipped} shown only "
          "(each says why)")


if __name__ == "__main__":
    main()
