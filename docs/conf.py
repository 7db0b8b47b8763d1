# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Sphinx configuration of perfshap's documentation site (cmake --workflow --preset docs).

The pages are Markdown (MyST). What the code knows is not written twice: the option tables come
from the method registry (the engine's declarations, through the Python module's
method_options()), the Python reference from the module's docstrings and the C reference from
the comments of engine/c_api/include/perfshap/c_api.h, by the directives below.
"""
import os
import sys

from docutils import nodes
from docutils.parsers.rst import Directive, directives

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
# The built module (build/<preset>/python), as the docs target passes it.
if os.environ.get("PERFSHAP_PYTHON_DIR"):
    sys.path.insert(0, os.path.abspath(os.environ["PERFSHAP_PYTHON_DIR"]))

import reference  # noqa: E402  (docs/reference.py: the generated tables and the C reference)

project = "perfshap"
author = "The perfshap authors"
copyright = "2026, The perfshap authors"
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
master_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
html_theme = "alabaster"
# Wide enough for the option tables and the figures; code scrolls inside its box.
html_theme_options = {"page_width": "1120px", "sidebar_width": "260px"}
html_title = "perfshap"
html_static_path = ["_static"]  # _static/custom.css: alabaster loads it after its own
autodoc_member_order = "bysource"
autodoc_typehints = "none"
nitpicky = False


def _table(headers, rows, widths, css):
    """A docutils table of text cells (inline literals where a cell is wrapped in backquotes); its
    class `css` sets the columns' widths (_static/custom.css)."""
    table = nodes.table(classes=[css])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for w in widths:
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    body = nodes.tbody()
    group += body

    def row_of(cells):
        row = nodes.row()
        for text in cells:
            entry = nodes.entry()
            para = nodes.paragraph()
            for i, part in enumerate(text.split("`")):
                if part:
                    para += nodes.literal(part, part) if i % 2 else nodes.Text(part)
            entry += para
            row += entry
        return row

    head += row_of(headers)
    for r in rows:
        body += row_of(r)
    return table


class MethodOptions(Directive):
    """``{perfshap-options} METHOD``: the method's options as the registry declares them."""
    required_arguments = 1

    def run(self):
        method = self.arguments[0]
        rows = reference.option_rows(method)
        return [_table(["command line", "Python / C (JSON)", "default", "takes", "what it does"], rows,
                       [18, 14, 10, 18, 40], "perfshap-options")]


class CApiReference(Directive):
    """``{perfshap-c-api}``: every declaration of c_api.h with the comment above it."""

    def run(self):
        out = []
        for decls, comment in reference.c_api_entries(os.path.join(ROOT, "engine/c_api/include/perfshap/c_api.h")):
            out.append(nodes.literal_block("\n".join(decls), "\n".join(decls), language="c"))
            for para in comment:
                out.append(nodes.paragraph(para, para))
        return out


class MethodList(Directive):
    """``{perfshap-methods}``: the registered methods, each with its one-line description."""

    def run(self):
        rows = [[f"`perfshap {name}`", description] for name, description in reference.methods()]
        return [_table(["method", "what it answers"], rows, [20, 60], "perfshap-methods")]


def setup(app):
    directives.register_directive("perfshap-options", MethodOptions)
    directives.register_directive("perfshap-c-api", CApiReference)
    directives.register_directive("perfshap-methods", MethodList)
    return {"parallel_read_safe": True}
