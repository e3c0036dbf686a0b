#!/usr/bin/python3
"""Checks a `newsstand preview` folder in headless Chromium, driven by Selenium and chromedriver
(Debian's chromium, chromium-driver and python3-selenium; run with /usr/bin/python3).

Usage: browser_check.py <preview folder> <issue>... [--screenshots DIR] [--layout ISSUE]

The issues are the names the index must list, newest first; the first one is opened and
navigated with real key events. Exits 0 with "browser check passed" on stdout, or non-zero
with "browser check failed: ..." on stderr."""

import os
import shutil
import sys
import time


def fail(message):
    print("browser check failed: " + message, file=sys.stderr)
    sys.exit(1)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError as error:
    fail("cannot import selenium (%s); install Debian's python3-selenium and run with /usr/bin/python3" % error)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def browser(scale, size=(1280, 800)):
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            fail("%s not found; install Debian's %s package (make deps)" % (path, package))
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800", "--force-device-scale-factor=%d" % scale,
                     "--allow-file-access-from-files"):
        options.add_argument(argument)
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except Exception as error:  # noqa: BLE001: any start-up failure is a clear failure
        fail("cannot start Chromium with chromedriver: %s" % error)
    driver.set_page_load_timeout(60)
    # --window-size is the window's outer size: make the page's viewport 1280x800.
    driver.get("about:blank")
    chrome = driver.execute_script("return [outerWidth - innerWidth, outerHeight - innerHeight];")
    driver.set_window_size(size[0] + chrome[0], size[1] + chrome[1])
    return driver


def wait(driver, script, what, timeout=15):
    """Polls a JavaScript expression until it is truthy."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = driver.execute_script("return " + script)
        if value:
            return value
        time.sleep(0.05)
    fail("timed out waiting for " + what)


LOADED = "(function (i) { return i && i.complete && i.naturalWidth > 0; })(%s)"
CURRENT = "document.querySelector('.page.is-current')"
CURRENT_IMAGE = "document.querySelector('.page.is-current img')"


def current_page(driver):
    return driver.execute_script("var p = %s; return p ? p.id : null;" % CURRENT)


def press(driver, key, expected, what):
    ActionChains(driver).send_keys(key).perform()
    deadline = time.time() + 5
    while time.time() < deadline and current_page(driver) != expected:
        time.sleep(0.05)
    found = current_page(driver)
    if found != expected:
        fail("%s: expected page %s, found %s" % (what, expected, found))
    wait(driver, LOADED % CURRENT_IMAGE, "the image of page %s to load" % expected)


def check_index(driver, folder, issues):
    driver.get("file://" + os.path.join(folder, "index.html"))
    listed = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('.shelf__issue'), function (e) { return e.dataset.issue; });")
    if listed != issues:
        fail("index.html lists %s, expected %s (newest first)" % (listed, issues))
    for name in issues:
        cover = "document.querySelector('.shelf__issue[data-issue=\"%s\"] img.shelf__cover')" % name
        wait(driver, LOADED % cover, "the cover of %s to load" % name)


def check_reader(driver, issues, screenshots):
    first = issues[0]
    driver.find_element(By.CSS_SELECTOR, '.shelf__issue[data-issue="%s"] a' % first).click()
    wait(driver, "document.querySelector('[data-reader]') && document.querySelector('[data-reader]').dataset.issue === '%s'" % first,
         "the reader of %s to open from the index" % first)
    if current_page(driver) != "p1-1":
        fail("the reader opens on %s, expected p1-1" % current_page(driver))
    wait(driver, LOADED % CURRENT_IMAGE, "the first page's image to load")
    shown = driver.execute_script(
        "var r = %s.getBoundingClientRect(); return r.width > 100 && r.height > 100 && r.top < innerHeight;" % CURRENT_IMAGE)
    if not shown:
        fail("the first page's image is not visible")
    hidden = driver.execute_script(
        "return Array.prototype.filter.call(document.querySelectorAll('.page'), function (p) {"
        " return p.getClientRects().length > 0; }).length;")
    if hidden != 1:
        fail("%d pages are displayed at once, expected 1" % hidden)

    pages = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('.article'), function (a) { return a.querySelectorAll('.page').length; });")
    if len(pages) < 2 or pages[1] < 2:
        fail("the issue needs a second article with two pages for the navigation check, has %s" % pages)
    body = driver.find_element(By.TAG_NAME, "body")
    press(driver, Keys.ARROW_RIGHT, "p2-1", "Right arrow (next article)")
    press(driver, Keys.ARROW_DOWN, "p2-2", "Down arrow (next page)")
    press(driver, Keys.ARROW_UP, "p2-1", "Up arrow (previous page)")
    press(driver, Keys.ARROW_UP, "p2-1", "Up arrow on an article's first page (stays)")
    press(driver, Keys.ARROW_LEFT, "p1-1", "Left arrow (previous article)")
    press(driver, Keys.ARROW_LEFT, "p1-1", "Left arrow on the first article (stays)")
    body.send_keys(Keys.ARROW_RIGHT)
    press(driver, Keys.ARROW_DOWN, "p2-2", "Down arrow after Right sent to body")
    press(driver, Keys.ARROW_RIGHT, "p3-1", "Right arrow from a later page (next article's first page)")
    position = driver.execute_script("return document.querySelector('[data-position]').textContent;")
    if not position.startswith("Article 3 of %d" % len(pages)):
        fail("the position reads %r on p3-1" % position)
    press(driver, Keys.ARROW_LEFT, "p2-1", "Left arrow back to article 2")

    # The gallery of a PhotoPage: thumbnails loaded, a click opens the photo.
    photo_page = driver.execute_script("return %s.classList.contains('page--photo');" % CURRENT)
    if photo_page:
        thumbs = "document.querySelectorAll('.page.is-current .gallery__item img')"
        wait(driver, "Array.prototype.every.call(%s, function (i) { return i.complete && i.naturalWidth > 0; }) && %s.length > 0"
             % (thumbs, thumbs), "the gallery's thumbnails to load")
        if screenshots:
            driver.save_screenshot(os.path.join(screenshots, "preview-issue.png"))
        driver.find_element(By.CSS_SELECTOR, ".page.is-current .gallery__item").click()
        wait(driver, "document.querySelector('dialog.lightbox').open", "the photo to open")
        wait(driver, LOADED % "document.querySelector('dialog.lightbox img')", "the photo to load")
        # The largest file, whatever the screen's pixel ratio (this window's is 1).
        photo = "document.querySelector('dialog.lightbox img')"
        first = driver.execute_script("return %s.currentSrc;" % photo)
        if not first.endswith("@2x.png"):
            fail("the lightbox shows %s, not the photo's largest (@2x) file" % first)
        count = driver.execute_script("return document.querySelectorAll('.page.is-current .gallery__item').length;")
        if count > 1:
            ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
            wait(driver, "document.querySelector('dialog.lightbox').getAttribute('data-photo') === '2'", "Right arrow to show photo 2")
            second = wait(driver, "(%s.complete && %s.currentSrc !== %r) ? %s.currentSrc : ''" % (photo, photo, first, photo),
                          "the second photo to load")
            if not second.endswith("@2x.png"):
                fail("the second photo is %s, not its @2x file" % second)
            ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
            wait(driver, "document.querySelector('dialog.lightbox').getAttribute('data-photo') === '1'", "Left arrow back to photo 1")
            ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
            wait(driver, "document.querySelector('dialog.lightbox').getAttribute('data-photo') === '%d'" % count,
                 "Left arrow on the first photo to show the last")
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        wait(driver, "!document.querySelector('dialog.lightbox').open", "the photo to close on Escape")
        press(driver, Keys.ARROW_DOWN, "p2-2", "Down arrow after closing the photo")
    elif screenshots:
        driver.save_screenshot(os.path.join(screenshots, "preview-issue.png"))


def check_scale(driver, folder, issues, scale):
    """The browser picks the image file for its pixel ratio from srcset."""
    ratio = driver.execute_script("return window.devicePixelRatio;")
    if ratio != scale:
        fail("devicePixelRatio is %s, expected %s" % (ratio, scale))
    suffix = "@2x.png" if scale == 2 else ".png"
    driver.get("file://" + os.path.join(folder, issues[0], "index.html"))
    source = wait(driver, "(%s && %s.complete) ? %s.currentSrc : ''" % (CURRENT_IMAGE, CURRENT_IMAGE, CURRENT_IMAGE),
                  "the first page's image at scale %d" % scale)
    if not source.endswith(suffix) or (scale == 1 and source.endswith("@2x.png")):
        fail("at devicePixelRatio %d the page image is %s, expected a file ending in %s" % (scale, source, suffix))
    driver.get("file://" + os.path.join(folder, "index.html"))
    cover = "document.querySelector('img.shelf__cover')"
    source = wait(driver, "%s.complete ? %s.currentSrc : ''" % (cover, cover), "the cover at scale %d" % scale)
    if not source.endswith("cover" + suffix):
        fail("at devicePixelRatio %d the cover is %s, expected cover%s" % (scale, source, suffix))


# The page as drawn: its box is contained-fitted (object-fit: contain), so the image's own
# rectangle is worked out from its natural size.
DRAWN = """
var image = document.querySelector('.page.is-current .page__image');
var box = image.getBoundingClientRect();
var scale = Math.min(box.width / image.naturalWidth, box.height / image.naturalHeight);
var reader = document.querySelector('[data-reader]').getBoundingClientRect();
var map = document.querySelector('[data-map]'), nav = document.querySelector('[data-nav]');
return {width: image.naturalWidth * scale, height: image.naturalHeight * scale, boxWidth: box.width,
        boxHeight: box.height, scale: scale, readerHeight: reader.height, readerWidth: reader.width,
        mapHeight: map.scrollHeight, mapBottom: map.getBoundingClientRect().bottom, navHeight: nav.clientHeight,
        navBottom: nav.getBoundingClientRect().bottom, innerHeight: innerHeight};
"""


def check_layout(folder, issue, name, size, screenshots):
    """At a window of `size`: each page fills its room on one axis (scaled up when the window
    is larger than the image), and the page map stays inside its bar."""
    driver = browser(1, size)
    try:
        driver.get("file://" + os.path.join(folder, issue, "index.html"))
        articles = driver.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('.article'), function (a) {"
            " return a.querySelectorAll('.page').length; });")
        longest = max(range(len(articles)), key=lambda a: articles[a])
        if articles[longest] <= 5:
            fail("the layout check needs an article of more than five pages, has %s" % articles)
        for article in range(len(articles)):
            wait(driver, LOADED % CURRENT_IMAGE, "page %s of article %d to load at %s" % (current_page(driver), article + 1, name))
            drawn = driver.execute_script(DRAWN)
            fills = max(drawn["width"] / drawn["boxWidth"], drawn["height"] / drawn["boxHeight"])
            if fills < 0.99:
                fail("at %s page %s is drawn %dx%d in a room of %dx%d: it does not fill it on either axis"
                     % (name, current_page(driver), drawn["width"], drawn["height"], drawn["boxWidth"], drawn["boxHeight"]))
            if drawn["boxHeight"] < 0.5 * drawn["readerHeight"]:
                fail("at %s page %s has %d of the reader's %d px of height" % (name, current_page(driver), drawn["boxHeight"], drawn["readerHeight"]))
            if drawn["mapHeight"] > drawn["navHeight"] or drawn["navBottom"] > drawn["innerHeight"] + 0.5:
                fail("at %s the page map (%d px high) overflows its %d-px bar" % (name, drawn["mapHeight"], drawn["navHeight"]))
            if screenshots and article == longest:
                driver.save_screenshot(os.path.join(screenshots, "layout-%s.png" % name))
            if article == 0 and name == "desktop" and drawn["scale"] <= 1:
                fail("at %s the first page is not scaled up (scale %.2f) though the window has room" % (name, drawn["scale"]))
            if article + 1 < len(articles):
                press(driver, Keys.ARROW_RIGHT, "p%d-1" % (article + 2), "Right arrow at %s" % name)
        return drawn
    finally:
        driver.quit()


def main(arguments):
    screenshots = None
    if "--screenshots" in arguments:
        at = arguments.index("--screenshots")
        screenshots = os.path.abspath(arguments[at + 1])
        del arguments[at:at + 2]
    layout = None
    if "--layout" in arguments:
        at = arguments.index("--layout")
        layout = arguments[at + 1]
        del arguments[at:at + 2]
    if len(arguments) < 2:
        fail("usage: browser_check.py <preview folder> <issue>... [--screenshots DIR] [--layout ISSUE]")
    folder, issues = os.path.abspath(arguments[0]), arguments[1:]
    if not os.path.isfile(os.path.join(folder, "index.html")):
        fail("%s has no index.html" % folder)

    driver = browser(1)
    try:
        check_index(driver, folder, issues)
        if screenshots:
            os.makedirs(screenshots, exist_ok=True)
            driver.save_screenshot(os.path.join(screenshots, "preview-index.png"))
        check_reader(driver, issues, screenshots)
        check_scale(driver, folder, issues, 1)
    finally:
        driver.quit()
    driver = browser(2)
    try:
        check_scale(driver, folder, issues, 2)
    finally:
        driver.quit()
    if layout:
        for name, size in (("desktop", (1280, 900)), ("phone", (390, 844))):
            check_layout(folder, layout, name, size, screenshots)
        print("layout check passed: pages fill the window (desktop 1280x900, phone 390x844), the map stays in its bar")
    print("browser check passed: %d issues listed with covers; reader navigation and srcset (1x, 2x) work" % len(issues))


if __name__ == "__main__":
    main(sys.argv[1:])
