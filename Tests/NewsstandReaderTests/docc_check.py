#!/usr/bin/python3
"""Opens a page of a DocC static site in headless Chromium and checks that it rendered the
symbol's content, not the empty shell DocC serves before its JavaScript has loaded the page's
data (Debian's chromium, chromium-driver and python3-selenium; run with /usr/bin/python3).

Usage: docc_check.py <site folder> <page path> <title> <text>...

The site is served over HTTP on a loopback port (DocC's renderer fetches JSON, which a file://
page may not). Passes when the page's <h1> is <title> and its rendered body holds every <text>.
Exits 0 with "docc check passed" on stdout, or non-zero with "docc check failed: ..." on stderr."""

import functools
import http.server
import os
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the test sources
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "NewsstandPreviewTests"))
import browser_check  # noqa: E402: the preview's Chromium helper, reused


def fail(message):
    print("docc check failed: " + message, file=sys.stderr)
    sys.exit(1)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def main(arguments):
    if len(arguments) < 3:
        fail("usage: docc_check.py <site folder> <page path> <title> <text>...")
    site, path, title, texts = arguments[0], arguments[1], arguments[2], arguments[3:]
    handler = functools.partial(QuietHandler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/%s" % (server.server_address[1], path.lstrip("/"))
    driver = browser_check.browser(1)
    try:
        driver.get(url)
        deadline = time.time() + 30
        heading = ""
        while time.time() < deadline:
            heading = driver.execute_script("var h = document.querySelector('main h1'); return h ? h.innerText : '';")
            if heading:
                break
            time.sleep(0.1)
        if heading.strip() != title:
            fail("%s rendered no <h1> '%s' (got %r): the page is an empty shell" % (url, title, heading))
        # DocC renders a long page's topics as they scroll into view: scroll until every text
        # has appeared, or the deadline passes.
        deadline = time.time() + 30
        while True:
            body = driver.execute_script("return document.querySelector('main').innerText;")
            missing = [text for text in texts if text not in body]
            if not missing:
                break
            if time.time() > deadline:
                fail("%s does not show %r; it shows:\n%s" % (url, missing[0], body[:3000]))
            driver.execute_script("window.scrollBy(0, 600);")
            time.sleep(0.1)
    finally:
        driver.quit()
        server.shutdown()
    print("docc check passed: %s shows %s and %d passages of its documentation" % (path, title, len(texts)))


if __name__ == "__main__":
    main(sys.argv[1:])
