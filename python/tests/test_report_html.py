# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The report from Python: to_html() opens on the summary and the main figure, a result shows
that page inline in Jupyter (_repr_html_) in a sandboxed frame of its own, and print(result) the
console text, which opens on the same summary."""
import html
import os

import pandas as pd

import perfshap
from support import DATA


def _robustness():
    frame = pd.read_csv(os.path.join(DATA, "banknote.csv"))
    return perfshap.robustness(frame.drop(columns="label"), frame["label"], model="gnb", cv="mc:5", seed=0)


def test_the_report_opens_on_the_summary_and_the_main_figure():
    page = _robustness().to_html()
    summary, main, tables = (page.index(f'<section id="{s}">') for s in ("summary", "main-figure", "tables"))
    assert summary < main < tables
    strongest = page[summary:main]
    # The strongest feature of banknote under naive Bayes leads, with its band over the splits.
    assert "<li><b>variance</b>" in strongest and "standard deviation over the splits" in strongest


def test_a_result_shows_its_report_inline_in_a_frame():
    r = _robustness()
    frame = r._repr_html_()
    assert frame.startswith("<iframe srcdoc=\"") and 'sandbox="allow-scripts"' in frame
    srcdoc = frame[len('<iframe srcdoc="'):frame.index('" title=')]
    assert html.unescape(srcdoc) == r.to_html()


def test_print_shows_the_console_text_which_opens_on_the_same_summary():
    r = _robustness()
    text = str(r)
    assert text == r.console
    assert text.startswith("Summary: Which features make the model's AUC")
    head, own = text.split("\nperfshap robustness", 1)
    # The strongest feature first, with its band over the five splits; the method's lines follow.
    assert head.splitlines()[3].split()[0] == "variance" and "±" in head.splitlines()[3]
    assert "AUC" in own
