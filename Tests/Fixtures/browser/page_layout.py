#!/usr/bin/env python3
"""Loads pages in headless Chromium and reports their layout, one JSON line per view.

    page_layout.py CHROMIUM PROFILE_DIR OUT_DIR DEADLINE_SECONDS NAME=URL [NAME=URL ...]

Drives Chromium over the DevTools protocol on a pipe (``--remote-debugging-pipe``: messages
are JSON ending in a NUL byte, read from the browser's fd 3 and written to its fd 4), so only
the standard library is needed. Every page is loaded at a phone's size (390x844, as a mobile
device, so the page's viewport meta applies) and a desktop's (1280x900), each in the light and
the dark colour scheme. For each view it prints:

    {"page": NAME, "view": "phone-light", "width": 390, "scrollWidth": ..., "clientWidth": ...,
     "overflowing": ["TAG.class right=..."], "errors": ["console or exception text"],
     "darkBackground": bool, "screenshot": "OUT_DIR/NAME-phone-light.png",
     "crosshair": "2 Oct, 13:31 UTC · 225.94" or null, "markerNote": "rule: message" or null}

On a page with a chart, its first alert marker is tapped (the note the page then shows) and a
pointer moved over it (what the crosshair reads), as DOM events the page's script handles.

``overflowing`` lists up to five elements whose right edge lies beyond the viewport (what a
reader would have to scroll sideways to see). Exits 2 with a message on standard error when
the browser does not answer within DEADLINE_SECONDS in all.
"""

import base64
import json
import os
import select
import subprocess
import sys
import time

VIEWS = [("phone", 390, 844, True), ("desktop", 1280, 900, False)]
SCHEMES = ["light", "dark"]

MEASURE = r"""
(() => {
  const root = document.documentElement;
  const limit = window.innerWidth + 1;
  const wide = [];
  for (const element of document.body.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && box.right > limit) {
      // Only the outermost offender of each branch: its children overflow with it.
      if (!wide.some(e => e.contains(element))) wide.push(element);
    }
  }
  const background = getComputedStyle(document.body).backgroundColor.match(/\d+/g) || [255, 255, 255];
  return {
    scrollWidth: root.scrollWidth,
    clientWidth: root.clientWidth,
    overflowing: wide.slice(0, 5).map(e =>
      e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '')
      + ' right=' + Math.round(e.getBoundingClientRect().right)),
    darkBackground: (Number(background[0]) + Number(background[1]) + Number(background[2])) / 3 < 96,
  };
})()
"""


class Browser:
    def __init__(self, chromium, profile, deadline):
        self.deadline = deadline
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        # Out of the way of 3 and 4, which the browser must receive them as.
        high_read = fcntl_dup_above(to_browser_read, 100)
        high_write = fcntl_dup_above(from_browser_write, 101)

        def arrange():
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--hide-scrollbars", "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=arrange, pass_fds=(3, 4, high_read, high_write))
        for descriptor in (to_browser_read, from_browser_write, high_read, high_write):
            os.close(descriptor)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def receive(self):
        while b"\0" not in self.buffer:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the browser did not answer in time")
            ready, _, _ = select.select([self.from_browser], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def wait_for_event(self, method, session):
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    del self.events[index]
                    return event
            self.events.append(self.receive())

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def fcntl_dup_above(descriptor, minimum):
    import fcntl
    return fcntl.fcntl(descriptor, fcntl.F_DUPFD, minimum)


PROBE = r"""
(() => {
  // In one evaluation, so a live refresh of the page's sections cannot come between the events
  // and the reading: tap the visible chart's first alert marker, then move a pointer over it.
  const visible = [...document.querySelectorAll('svg.chart[data-frame]')].find(s => s.getBoundingClientRect().width > 0);
  if (!visible) return {crosshair: null, markerNote: null};
  const marker = visible.querySelector('circle.marker');
  if (marker) marker.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  const box = visible.getBoundingClientRect();
  visible.dispatchEvent(new PointerEvent('pointermove', {bubbles: true, clientX: box.left + box.width * 0.6,
                                                        clientY: box.top + box.height * 0.45}));
  const text = [...visible.querySelectorAll('text.crosshair')].find(t => t.getAttribute('visibility') === 'visible');
  const note = document.getElementById('marker-note');
  return {crosshair: text ? text.textContent : null, markerNote: note ? note.textContent : null};
})()
"""


def probe_chart(browser, session):
    """Taps a page's visible chart's first alert marker and moves a pointer over the chart:
    the crosshair's reading and the marker's note (both null on a page without a chart)."""
    return browser.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session)["result"]["value"]


def errors_of(events, session):
    found = []
    for event in events:
        if event.get("sessionId") != session:
            continue
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            found.append("exception: " + details.get("exception", {}).get("description", details.get("text", "")))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
            found.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
            found.append("log: " + params["entry"].get("text", ""))
    return found


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    chromium, profile, out, seconds = sys.argv[1:5]
    pages = [argument.split("=", 1) for argument in sys.argv[5:]]
    browser = Browser(chromium, profile, time.monotonic() + float(seconds))
    try:
        for name, url in pages:
            for view, width, height, mobile in VIEWS:
                for scheme in SCHEMES:
                    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
                    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
                    for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
                        browser.send(domain, session=session)
                    browser.send("Emulation.setDeviceMetricsOverride",
                                 {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, session)
                    browser.send("Emulation.setEmulatedMedia",
                                 {"features": [{"name": "prefers-color-scheme", "value": scheme}]}, session)
                    browser.send("Page.navigate", {"url": url}, session)
                    browser.wait_for_event("Page.loadEventFired", session)
                    measured = browser.send("Runtime.evaluate", {"expression": MEASURE, "returnByValue": True},
                                            session)["result"]["value"]
                    measured.update(probe_chart(browser, session))
                    shot = browser.send("Page.captureScreenshot", {"format": "png"}, session)["data"]
                    path = os.path.join(out, f"{name}-{view}-{scheme}.png")
                    with open(path, "wb") as file:
                        file.write(base64.b64decode(shot))
                    errors = errors_of(browser.events, session)
                    browser.events = [e for e in browser.events if e.get("sessionId") != session]
                    browser.send("Target.closeTarget", {"targetId": target})
                    print(json.dumps(dict(page=name, view=f"{view}-{scheme}", width=width, errors=errors,
                                          screenshot=path, **measured)), flush=True)
    except (TimeoutError, RuntimeError) as error:
        print(f"page_layout.py: {error}", file=sys.stderr)
        sys.exit(2)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
