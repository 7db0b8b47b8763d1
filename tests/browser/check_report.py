#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Opens perfshap report.html pages in headless Chromium, 1280, 800 and 390 CSS px wide, and checks them.

For each page and width:
  - the page's script ran to its end: <body data-report-ready="1">;
  - nothing was logged: no "CONSOLE" line on Chromium's stderr (console calls and uncaught errors
    are logged that way), no console call, uncaught exception or error log entry over DevTools;
  - nothing was fetched but the page itself (no network, no other file);
  - every <table> of the file is in the DOM, with its rows; every <figure> has a data-rect;
  - the page is no wider than the window (body data-scroll-width);
  - it opens on the answer: its first section is the summary (the strongest features with their
    bands), then the main figure when it has figures, then the tables;
  - no text leaves its box: every SVG <text> lies inside its figure's <svg> (a title clipped at
    the edge is outside), and no heading, paragraph or list item of the summary overflows;
  - in the screenshot, each figure's area is not blank: more than 2% of its pixels differ from
    the page background, it holds at least 2 colours, and more than 1% of the pixels that are not
    background differ from the figure's own most common colour (something is drawn on it).

Chromium is driven over --remote-debugging-pipe: a headless window is never narrower than 500 px,
so the widths are set by device-metrics emulation (as DevTools' device mode does); 390 px is
emulated as a phone (its <meta name="viewport"> is honoured). The DOM is read once the page says
it is ready; the screenshot covers the whole page height (up to MAX_HEIGHT px).

Prints one line per check; exits 1 with a message on the first failure, 2 on a usage error.
Needs Python 3 with PIL only (Debian: python3-pil, from .ci/deps).
"""

import argparse
import base64
import fcntl
import html.parser
import io
import json
import os
import pathlib
import re
import select
import subprocess
import sys
import tempfile
import time

try:
    from PIL import Image
except ImportError:  # pragma: no cover - depends on the interpreter
    sys.exit("check_report.py: PIL is missing: run it with Debian's /usr/bin/python3 "
             "(package python3-pil, installed by .ci/deps)")

WIDTHS = (1280, 800, 390)
PHONE_MAX_WIDTH = 600       # widths up to this are emulated as a phone
PROBE_HEIGHT = 1000         # viewport height while the page loads
MAX_HEIGHT = 16384          # tallest screenshot taken
TIMEOUT_S = 60              # one Chromium run, start to close
MIN_DIFFERENT = 0.02        # share of a figure's pixels that differ from the page background
MIN_DRAWN = 0.01            # share of its non-background pixels that differ from its own background
COLOUR_TOLERANCE = 8        # largest channel difference still read as the same colour


class Failure(Exception):
    """A check failed; the message says which and why."""


def close_to(a, b):
    return max(abs(x - y) for x, y in zip(a[:3], b[:3])) <= COLOUR_TOLERANCE


# ---------------------------------------------------------------------------------------------
# Chromium over the DevTools protocol (JSON messages ended by NUL on fds 3 and 4)

class Chromium:
    """One headless Chromium with a fresh profile and HOME, closed (or killed) on exit."""

    def __init__(self, executable, deadline):
        self.deadline = deadline
        self.events = []
        self._next_id = 0
        self._buffer = b""
        self._tmp = tempfile.TemporaryDirectory(prefix="perfshap-chromium-")
        home = pathlib.Path(self._tmp.name)
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        self._stderr_path = home / "stderr.log"
        env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
                   XDG_CACHE_HOME=str(home / "cache"))
        args = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--enable-logging=stderr", "--v=0", "--remote-debugging-pipe",
                "--user-data-dir=" + str(home / "profile"), "--window-size=1280,1000",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-sync", "--disable-component-update",
                "--host-resolver-rules=MAP * ~NOTFOUND", "about:blank"]

        def child_fds():  # the pipe's ends on fds 3 (commands in) and 4 (answers out)
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_child_r, from_child_w)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        with open(self._stderr_path, "wb") as err:
            try:
                self._process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                                 env=env, preexec_fn=child_fds, close_fds=False)
            except OSError as e:
                raise Failure(f"cannot start Chromium '{executable}': {e}") from e
        os.close(to_child_r)
        os.close(from_child_w)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def stderr(self):
        return self._stderr_path.read_text(errors="replace")

    def close(self):
        if self._process.poll() is None:
            try:
                self._send("Browser.close", {}, None)
                self._process.wait(timeout=10)
            except (Failure, OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass

    def cleanup(self):
        self._tmp.cleanup()

    def _send(self, method, params, session):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _read_message(self):
        while b"\0" not in self._buffer:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"Chromium did not answer within {TIMEOUT_S} s")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise Failure("Chromium exited early; its log:\n" + self.stderr()[-3000:])
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None):
        """Sends a command and returns its result; events read meanwhile are kept."""
        wanted = self._send(method, params or {}, session)
        while True:
            message = self._read_message()
            if message.get("id") == wanted:
                if "error" in message:
                    raise Failure(f"DevTools {method} failed: {message['error'].get('message')}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_event(self, method, session):
        """Waits for an event (or finds it among those already read)."""
        while True:
            for event in self.events:
                if event["method"] == method and event.get("sessionId") == session:
                    return event
            message = self._read_message()
            if "method" in message:
                self.events.append(message)


def evaluate(browser, session, expression):
    result = browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": True}, session)
    if "exceptionDetails" in result:
        raise Failure(f"evaluating {expression!r} threw: {result['exceptionDetails'].get('text')}")
    return result["result"].get("value")


def open_page(browser, url, width):
    """A page target showing `url` at `width` CSS px; returns its session id."""
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(domain + ".enable", {}, session)
    set_viewport(browser, session, width, PROBE_HEIGHT)
    browser.call("Page.navigate", {"url": url}, session)
    browser.wait_event("Page.loadEventFired", session)
    return session


def set_viewport(browser, session, width, height):
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": 1,
                  "mobile": width <= PHONE_MAX_WIDTH, "screenWidth": width, "screenHeight": height},
                 session)


def wait_ready(browser, session):
    """Waits (up to 5 s) for the page's script to mark the body ready; False if it never does."""
    for _ in range(50):
        if evaluate(browser, session, "document.body && document.body.dataset.reportReady === '1'"):
            return True
        time.sleep(0.1)
    return False


NEXT_FRAMES = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


# Every SVG text outside its <svg>'s box, and every summary element wider than its box (1 px slack).
TEXT_OUTSIDE = """(() => {
  const out = [];
  document.querySelectorAll('svg').forEach((svg) => {
    const b = svg.getBoundingClientRect();
    svg.querySelectorAll('text').forEach((t) => {
      const r = t.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)
        out.push((svg.closest('figure') || {id: 'svg'}).id + ': "' + t.textContent.slice(0, 60) + '"');
    });
  });
  document.querySelectorAll('#summary h2, #summary p, #summary li, #summary dt, #summary dd, h1').forEach((e) => {
    if (e.scrollWidth > e.clientWidth + 1) out.push('summary: "' + e.textContent.slice(0, 60) + '"');
  });
  return out;
})()"""


def render(executable, url, width):
    """Loads the page at `width`; returns (dom, png bytes, height, background rgb, stderr, events,
    texts outside their box)."""
    browser = Chromium(executable, time.monotonic() + TIMEOUT_S)
    try:
        with browser:
            session = open_page(browser, url, width)
            wait_ready(browser, session)
            height = evaluate(browser, session, "document.documentElement.scrollHeight")
            height = max(1, min(int(height or PROBE_HEIGHT), MAX_HEIGHT))
            set_viewport(browser, session, width, height)
            evaluate(browser, session, NEXT_FRAMES)
            dom = evaluate(browser, session, "document.documentElement.outerHTML")
            outside = evaluate(browser, session, TEXT_OUTSIDE)
            background = evaluate(browser, session, "getComputedStyle(document.body).backgroundColor")
            shot = browser.call("Page.captureScreenshot", {"format": "png"}, session)
            events = list(browser.events)
        return dom, base64.b64decode(shot["data"]), height, background, browser.stderr(), events, outside
    finally:
        browser.cleanup()


# ---------------------------------------------------------------------------------------------
# What a page holds

class Outline(html.parser.HTMLParser):
    """The body's attributes, each table's row count, each figure's attributes."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.body = {}
        self.tables = []
        self.figures = []
        self.sections = []
        self._open_tables = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag == "body":
            self.body = dict(attrs)
        elif tag == "table":
            self.tables.append(0)
            self._open_tables.append(len(self.tables) - 1)
        elif tag == "tr" and self._open_tables:
            self.tables[self._open_tables[-1]] += 1
        elif tag == "figure":
            self.figures.append(dict(attrs))
        elif tag == "section":
            self.sections.append(dict(attrs).get("id", ""))

    def handle_endtag(self, tag):
        if tag == "table" and self._open_tables:
            self._open_tables.pop()


def parse_rect(text):
    if not text or not re.fullmatch(r"-?\d+,-?\d+,\d+,\d+", text):
        return None
    return tuple(int(v) for v in text.split(","))


def parse_rgb(text):
    values = re.findall(r"[\d.]+", text or "")
    if len(values) < 3:
        raise Failure(f"cannot read the page background colour {text!r}")
    if len(values) == 4 and float(values[3]) == 0:
        return (255, 255, 255)  # a transparent body shows the canvas: white
    return tuple(int(float(v)) for v in values[:3])


# ---------------------------------------------------------------------------------------------
# The checks

class Report:
    """Prints one line per check; the first failure raises."""

    def __init__(self, label, width):
        self.prefix = f"{label} @{width}px"

    def check(self, ok, what, why=""):
        if not ok:
            raise Failure(f"{self.prefix}: {what}: {why}")
        print(f"ok    {self.prefix}: {what}")


def console_lines(stderr):
    return [line for line in stderr.splitlines() if "CONSOLE" in line]


def page_messages(events):
    """Console calls, uncaught exceptions and error or warning log entries, as text."""
    out = []
    for e in events:
        p = e.get("params", {})
        if e["method"] == "Runtime.consoleAPICalled":
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            out.append(f"console.{p.get('type')}: {args}")
        elif e["method"] == "Runtime.exceptionThrown":
            details = p.get("exceptionDetails", {})
            out.append("uncaught: " + str(details.get("exception", {}).get("description", details.get("text"))))
        elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
            out.append(f"log {p['entry']['level']}: {p['entry'].get('text')}")
    return out


def fetched(events, url):
    """Every URL the page requested other than itself and data: URLs."""
    urls = [e["params"]["request"]["url"] for e in events if e["method"] == "Network.requestWillBeSent"]
    return [u for u in urls if u.split("#")[0] != url and not u.startswith("data:")]


def figure_area(image, rect, background):
    """(share differing from the background, colours, share drawn on the figure's own background)."""
    x, y, w, h = rect
    box = (max(0, x), max(0, y), min(image.width, x + w), min(image.height, y + h))
    if box[2] <= box[0] or box[3] <= box[1]:
        return None
    region = image.crop(box)
    area = region.width * region.height
    colours = region.getcolors(maxcolors=area)
    foreground = [(n, c) for n, c in colours if not close_to(c, background)]
    different = sum(n for n, _ in foreground)
    if not foreground:
        return 0.0, len(colours), 0.0
    own = max(foreground)[1]
    drawn = sum(n for n, c in foreground if not close_to(c, own))
    return different / area, len(colours), drawn / different


def check_figures(report, dom, png, height, background, min_figures):
    figures = dom.figures
    rects = [parse_rect(f.get("data-rect")) for f in figures]
    report.check(len(figures) >= min_figures and all(rects),
                 f"{len(figures)} figure(s), each with a data-rect",
                 f"expected at least {min_figures}, data-rect: {[f.get('data-rect') for f in figures]}")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    report.check(image.height == height, f"screenshot {image.width}x{image.height} px",
                 f"expected a height of {height}")
    for figure, rect in zip(figures, rects):
        name = figure.get("id", "figure")
        measured = figure_area(image, rect, background)
        if measured is None:
            print(f"skip  {report.prefix}: {name} at {rect} lies outside the {MAX_HEIGHT}-px screenshot")
            continue
        different, colours, drawn = measured
        report.check(different > MIN_DIFFERENT and colours >= 2 and drawn > MIN_DRAWN,
                     f"{name} is drawn ({different:.1%} not background, {colours} colours, {drawn:.1%} drawn on it)",
                     f"the figure's area at {rect} looks blank (needs > {MIN_DIFFERENT:.0%} not background, "
                     f">= 2 colours, > {MIN_DRAWN:.0%} drawn)")


def check_page(chromium, path, width, out_dir, min_figures):
    label = f"{path.parent.name}/{path.name}"
    report = Report(label, width)
    url = path.resolve().as_uri()
    dom_text, png, height, background, stderr, events, outside = render(chromium, url, width)
    stem = out_dir / f"{re.sub(r'[^A-Za-z0-9_.-]', '-', path.parent.name)}-{path.stem}-{width}"
    (stem.with_suffix(".png")).write_bytes(png)
    (stem.with_suffix(".dom.html")).write_text(dom_text)
    (stem.with_suffix(".stderr.log")).write_text(stderr)
    source, dom = Outline(path.read_text(errors="replace")), Outline(dom_text)

    report.check(dom.body.get("data-report-ready") == "1", "script ran (data-report-ready=1)",
                 "the body has no data-report-ready=\"1\": the page's script did not finish")
    lines = console_lines(stderr)
    report.check(not lines, "no CONSOLE line on Chromium's stderr", "\n" + "\n".join(lines[:10]))
    messages = page_messages(events)
    report.check(not messages, "no console call, exception or error log", "\n" + "\n".join(messages[:10]))
    urls = fetched(events, url)
    report.check(not urls, "fetched nothing but the page", ", ".join(urls[:10]))
    report.check(dom.tables == source.tables, f"{len(source.tables)} table(s) with their rows in the DOM",
                 f"rows per table in the file {source.tables}, in the DOM {dom.tables}")
    scroll_width = dom.body.get("data-scroll-width", "")
    report.check(scroll_width.isdigit() and int(scroll_width) <= width,
                 f"page width {scroll_width} px fits the {width}-px window",
                 f"document scroll width {scroll_width!r} is wider than the window")
    report.check(len(dom.figures) == len(source.figures), f"{len(source.figures)} figure(s) in the DOM",
                 f"the file has {len(source.figures)}, the DOM {len(dom.figures)}")
    check_figures(report, dom, png, height, parse_rgb(background), min_figures)
    check_order(report, dom)
    report.check(not outside, "no text leaves its box", "\n" + "\n".join(outside[:10]))


def check_order(report, dom):
    """The page opens on the answer: summary, then the main figure (when any), then the tables."""
    expected = ["summary"] + (["main-figure"] if dom.figures else [])
    opening = dom.sections[:len(expected)]
    report.check(opening == expected, "opens on " + ", then ".join(expected),
                 f"its sections come in the order {dom.sections}")
    if "tables" in dom.sections:
        report.check(dom.sections.index("tables") == len(expected), "the tables follow",
                     f"its sections come in the order {dom.sections}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default="chromium", help="the Chromium executable (default: chromium)")
    parser.add_argument("--out", required=True, type=pathlib.Path,
                        help="directory for the screenshots, DOM dumps and Chromium logs")
    parser.add_argument("--min-figures", type=int, default=1,
                        help="figures each page must hold (default 1; 0 for a run that draws none)")
    parser.add_argument("reports", nargs="+", type=pathlib.Path, help="report.html files")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        for path in args.reports:
            if not path.is_file():
                raise Failure(f"{path}: no such file")
            for width in WIDTHS:
                check_page(args.chromium, path, width, args.out, args.min_figures)
    except Failure as e:
        print(f"FAIL  {e}", file=sys.stderr)
        return 1
    print(f"all checks passed ({len(args.reports)} page(s), widths {', '.join(map(str, WIDTHS))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
