#!/usr/bin/env python3
"""Generates the Newsstand sample magazine and the `newsstand init` template.

Writes:
  Samples/aurora/                 the "Aurora" sample magazine (3 issues)
  templates/new-magazine/         what `newsstand init` copies (1 issue, pages at the recommended size)

Uses only the Python standard library. Images are real 8-bit RGB PNGs drawn from
resolution-independent scenes, so every @2x image is drawn at twice the resolution
(not upscaled) and is exactly twice the width and height of its normal image.

The output is deterministic: running the script again produces identical bytes.

Usage: scripts/generate-sample.py [--root DIR]   (DIR defaults to the repository root)
"""

import argparse
import colorsys
import math
import os
import shutil
import struct
import zlib

# --------------------------------------------------------------------------------------------
# PNG writing


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def encode_png(width, height, rows):
    """Encodes rows (bytearrays of width*3 RGB bytes) as a PNG. Per row, picks the filter
    (None, Sub or Up) that leaves the most zero bytes, a cheap stand-in for the usual heuristic."""
    raw = bytearray()
    previous = bytes(width * 3)
    for row in rows:
        row = bytes(row)
        if row == previous:
            raw.append(2)
            raw += bytes(len(row))
        else:
            sub = bytes(row[:3]) + bytes((a - b) & 0xFF for a, b in zip(row[3:], row))
            up = bytes((a - b) & 0xFF for a, b in zip(row, previous))
            candidates = [(row.count(0), 0, row), (sub.count(0), 1, sub), (up.count(0), 2, up)]
            _, kind, data = max(candidates, key=lambda c: (c[0], -c[1]))
            raw.append(kind)
            raw += data
        previous = row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + _chunk(b"IEND", b""))


# --------------------------------------------------------------------------------------------
# A tiny 5x7 bitmap font


FONT = {
    "0": ["01110", "10001", "10011", "10101", "11001", "10001", "01110"],
    "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
    "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
    "3": ["11110", "00001", "00001", "01110", "00001", "00001", "11110"],
    "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
    "5": ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
    "6": ["00110", "01000", "10000", "11110", "10001", "10001", "01110"],
    "7": ["11111", "00001", "00010", "00100", "01000", "01000", "01000"],
    "8": ["01110", "10001", "10001", "01110", "10001", "10001", "01110"],
    "9": ["01110", "10001", "10001", "01111", "00001", "00010", "01100"],
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
    "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
    "D": ["11110", "10001", "10001", "10001", "10001", "10001", "11110"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "F": ["11111", "10000", "10000", "11110", "10000", "10000", "10000"],
    "G": ["01110", "10001", "10000", "10111", "10001", "10001", "01111"],
    "H": ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
    "I": ["01110", "00100", "00100", "00100", "00100", "00100", "01110"],
    "J": ["00111", "00010", "00010", "00010", "00010", "10010", "01100"],
    "K": ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
    "M": ["10001", "11011", "10101", "10101", "10001", "10001", "10001"],
    "N": ["10001", "10001", "11001", "10101", "10011", "10001", "10001"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "Q": ["01110", "10001", "10001", "10001", "10101", "10010", "01101"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
    "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    "U": ["10001", "10001", "10001", "10001", "10001", "10001", "01110"],
    "V": ["10001", "10001", "10001", "10001", "10001", "01010", "00100"],
    "W": ["10001", "10001", "10001", "10101", "10101", "10101", "01010"],
    "X": ["10001", "10001", "01010", "00100", "01010", "10001", "10001"],
    "Y": ["10001", "10001", "01010", "00100", "00100", "00100", "00100"],
    "Z": ["11111", "00001", "00010", "00100", "01000", "10000", "11111"],
    "-": ["00000", "00000", "00000", "11111", "00000", "00000", "00000"],
    ".": ["00000", "00000", "00000", "00000", "00000", "01100", "01100"],
    "/": ["00001", "00001", "00010", "00100", "01000", "10000", "10000"],
    " ": ["00000"] * 7,
}


# --------------------------------------------------------------------------------------------
# Drawing: all coordinates are logical (normal-resolution) pixels; a canvas with scale 2 draws
# the same scene at twice the resolution, sampling at device-pixel centres.


def clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


def mix(c1, c2, t):
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(c1, c2))


def hsv(h, s, v):
    return tuple(int(round(c * 255)) for c in colorsys.hsv_to_rgb(h % 1.0, s, v))


class Rng:
    """A small deterministic linear congruential generator (independent of Python's random)."""

    def __init__(self, seed):
        self.state = zlib.crc32(seed.encode("utf-8")) or 1

    def next(self):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state / 0x7FFFFFFF

    def uniform(self, a, b):
        return a + (b - a) * self.next()

    def choice(self, seq):
        return seq[int(self.next() * len(seq)) % len(seq)]


class Canvas:
    def __init__(self, width, height, scale):
        self.W, self.H = width, height          # logical size
        self.s = scale
        self.w, self.h = width * scale, height * scale   # device size
        self.rows = [bytearray(self.w * 3) for _ in range(self.h)]

    # device-pixel ranges whose centres fall inside [a, b) in logical units
    def _span(self, a, b, limit):
        lo = max(0, int(math.ceil(a * self.s - 0.5)))
        hi = min(limit, int(math.ceil(b * self.s - 0.5)))
        return lo, hi

    def _y(self, py):
        return (py + 0.5) / self.s

    def gradient(self, c0, c1, ax=0.0, ay=1.0, levels=512):
        """Linear gradient from c0 to c1 along the direction (ax, ay) in unit-square space."""
        pal = [bytes(mix(c0, c1, i / (levels - 1))) for i in range(levels)]
        norm = (abs(ax) + abs(ay)) or 1.0
        off = (max(0, -ax) + max(0, -ay)) / norm
        kx = ax / norm / self.w * (levels - 1)
        for py in range(self.h):
            base = (ay / norm * (py + 0.5) / self.h + off) * (levels - 1)
            if kx == 0:
                self.rows[py][:] = pal[clamp(int(base), 0, levels - 1)] * self.w
            else:
                self.rows[py][:] = b"".join(
                    [pal[clamp(int(base + kx * (px + 0.5)), 0, levels - 1)] for px in range(self.w)])

    def _fill_span(self, py, x0, x1, color):
        lo, hi = self._span(x0, x1, self.w)
        if hi > lo:
            self.rows[py][lo * 3:hi * 3] = bytes(color) * (hi - lo)

    def rect(self, x0, y0, x1, y1, color):
        lo, hi = self._span(y0, y1, self.h)
        for py in range(lo, hi):
            self._fill_span(py, x0, x1, color)

    def shade_rect(self, x0, y0, x1, y1, color, alpha):
        """Blends a flat colour over a rectangle (translucent panel)."""
        tables = [bytes(int(round(v * (1 - alpha) + c * alpha)) for v in range(256)) for c in color]
        ylo, yhi = self._span(y0, y1, self.h)
        xlo, xhi = self._span(x0, x1, self.w)
        if xhi <= xlo:
            return
        for py in range(ylo, yhi):
            row = self.rows[py]
            for ch in range(3):
                sl = slice(xlo * 3 + ch, xhi * 3, 3)
                row[sl] = bytes(row[sl]).translate(tables[ch])

    def circle(self, cx, cy, r, color, inner=0.0):
        lo, hi = self._span(cy - r, cy + r, self.h)
        for py in range(lo, hi):
            dy = self._y(py) - cy
            if dy * dy >= r * r:
                continue
            dx = math.sqrt(r * r - dy * dy)
            if inner > 0 and dy * dy < inner * inner:
                di = math.sqrt(inner * inner - dy * dy)
                self._fill_span(py, cx - dx, cx - di, color)
                self._fill_span(py, cx + di, cx + dx, color)
            else:
                self._fill_span(py, cx - dx, cx + dx, color)

    def polygon(self, points, color):
        """Even-odd scanline fill of a polygon given in logical coordinates."""
        ys = [p[1] for p in points]
        lo, hi = self._span(min(ys), max(ys), self.h)
        n = len(points)
        for py in range(lo, hi):
            y = self._y(py)
            xs = []
            for i in range(n):
                (x0, y0), (x1, y1) = points[i], points[(i + 1) % n]
                if (y0 <= y < y1) or (y1 <= y < y0):
                    xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
            xs.sort()
            for a, b in zip(xs[0::2], xs[1::2]):
                self._fill_span(py, a, b, color)

    def ridge(self, heights, base_y, color):
        """A filled silhouette: heights is a list of (x, y) points from left to right."""
        pts = [(-1, base_y)] + list(heights) + [(self.W + 1, base_y)]
        self.polygon(pts, color)

    def ribbon(self, y0, amp, freq, phase, height, color, strength=0.85):
        """An aurora-like curtain: a wavy bright lower edge that fades upward."""
        levels = 24
        tables = []
        for k in range(levels + 1):
            a = strength * k / levels
            tables.append([bytes(int(round(v * (1 - a) + c * a)) for v in range(256)) for c in color])
        edge = []
        for px in range(self.w):
            x = (px + 0.5) / self.s / self.W
            edge.append(y0 + amp * (math.sin(freq * x * 6.2832 + phase)
                                    + 0.45 * math.sin(2.7 * freq * x * 6.2832 + 1.7 * phase)))
        top = min(edge) - height
        lo, hi = self._span(top, max(edge) + 2, self.h)
        for py in range(lo, hi):
            y = self._y(py)
            row = self.rows[py]
            for px in range(self.w):
                d = edge[px] - y        # distance above the bright edge
                if d < -1.5 or d > height:
                    continue
                if d < 0:
                    t = (d + 1.5) / 1.5
                else:
                    t = (1 - d / height) ** 1.6
                k = int(t * levels)
                if k <= 0:
                    continue
                tb = tables[k]
                i = px * 3
                row[i] = tb[0][row[i]]
                row[i + 1] = tb[1][row[i + 1]]
                row[i + 2] = tb[2][row[i + 2]]

    def text(self, s, x, y, cell, color, shadow=None, spacing=1):
        """Block letters from the 5x7 font; each font pixel is a cell x cell square."""
        if shadow is not None:
            self.text(s, x + cell * 0.5, y + cell * 0.5, cell, shadow, None, spacing)
        for ch in s.upper():
            glyph = FONT.get(ch, FONT[" "])
            for gy, line in enumerate(glyph):
                for gx, bit in enumerate(line):
                    if bit == "1":
                        self.rect(x + gx * cell, y + gy * cell, x + (gx + 1) * cell, y + (gy + 1) * cell, color)
            x += (5 + spacing) * cell

    @staticmethod
    def text_width(s, cell, spacing=1):
        return (len(s) * (5 + spacing) - spacing) * cell

    def png(self):
        return encode_png(self.w, self.h, self.rows)


# --------------------------------------------------------------------------------------------
# Scenes (resolution independent)


def night_shift(hue):
    """Night skies stay blue; the issue's hue only nudges them."""
    return 0.05 * math.sin(hue * 2 * math.pi)


def scene_sky(c, rng, hue, night=True, stars=40):
    W, H = c.W, c.H
    if night:
        d = night_shift(hue)
        c.gradient(hsv(0.66 + d, 0.75, 0.10), hsv(0.56 + d, 0.65, 0.42), 0.25, 1.0)
    else:
        c.gradient(hsv(hue + 0.58, 0.45, 0.95), hsv(hue + 0.08, 0.35, 0.98), 0.0, 1.0)
    for _ in range(stars):
        x, y = rng.uniform(0, W), rng.uniform(0, H * 0.55)
        r = rng.uniform(0.4, 1.1) * max(1.0, W / 320)
        c.rect(x, y, x + r, y + r, (235, 240, 255) if night else (255, 255, 255))


def scene_landscape(c, rng, hue, with_aurora=True, water=True):
    """Mountains under a night or dusk sky, optionally with an aurora and a lake."""
    W, H = c.W, c.H
    night = with_aurora
    scene_sky(c, rng, hue, night=night, stars=int(W * H / 2500) if night else 0)
    if with_aurora:
        for k in range(rng.choice([2, 3])):
            c.ribbon(H * rng.uniform(0.30, 0.45), H * 0.05, rng.uniform(0.6, 1.4), rng.uniform(0, 6.28),
                     H * rng.uniform(0.18, 0.30), hsv(hue + 0.30 + 0.12 * k, 0.70, 0.95), 0.75)
    else:
        c.circle(W * rng.uniform(0.2, 0.8), H * rng.uniform(0.2, 0.35), H * 0.09, hsv(hue + 0.1, 0.35, 1.0))
    horizon = H * (0.70 if water else 0.88)
    for layer in range(3):
        pts = []
        n = 5 + layer * 2
        for i in range(n + 1):
            x = W * i / n + rng.uniform(-W / n / 3, W / n / 3)
            y = horizon - H * rng.uniform(0.08, 0.30) * (1.0 - 0.25 * layer)
            pts.append((x, y))
            if i < n:
                pts.append((x + W / n / 2, horizon - H * rng.uniform(0.02, 0.08)))
        shade = 0.16 + 0.10 * layer if night else 0.45 + 0.15 * layer
        c.ridge(pts, horizon + 1, hsv((0.62 + night_shift(hue)) if night else hue + 0.60, 0.45, shade))
    if water:
        c.rect(0, horizon, W, H, hsv((0.60 + night_shift(hue)) if night else hue + 0.58, 0.55,
                                     0.18 if night else 0.55))
        for i in range(6):
            y = horizon + (H - horizon) * (i + 0.5) / 6
            w = W * rng.uniform(0.15, 0.45)
            x = rng.uniform(0, W - w)
            c.rect(x, y, x + w, y + max(1.0, H / 240), hsv(hue + 0.35, 0.35, 0.55 if night else 0.85))


def scene_geometric(c, rng, hue):
    W, H = c.W, c.H
    c.gradient(hsv(hue, 0.35, 0.97), hsv(hue + 0.08, 0.55, 0.80), 1.0, 0.6)
    for i in range(5):
        y = H * (0.15 + 0.16 * i)
        c.polygon([(0, y), (W, y - H * 0.12), (W, y - H * 0.06), (0, y + H * 0.06)],
                  hsv(hue + 0.04 * i, 0.45, 0.92 - 0.05 * i))
    for _ in range(4):
        r = W * rng.uniform(0.08, 0.2)
        c.circle(rng.uniform(r, W - r), rng.uniform(H * 0.3, H * 0.8), r,
                 hsv(hue + rng.uniform(0.3, 0.6), 0.55, 0.9), inner=r * rng.choice([0.0, 0.0, 0.6]))


def draw_page(c, issue_no, article, page, pages, hue, style, rng):
    W, H = c.W, c.H
    if style == "night":
        scene_landscape(c, rng, hue, with_aurora=True, water=rng.next() < 0.5)
    elif style == "dusk":
        scene_landscape(c, rng, hue, with_aurora=False, water=True)
    else:
        scene_geometric(c, rng, hue)
    # Header band with the magazine name and the issue.
    c.shade_rect(0, 0, W, H * 0.07, (10, 14, 30), 0.55)
    cell = H * 0.07 / 11
    c.text("AURORA", W * 0.04, H * 0.07 / 2 - 3.5 * cell, cell, (240, 245, 255))
    label = "A-%d" % issue_no
    c.text(label, W * 0.96 - Canvas.text_width(label, cell), H * 0.07 / 2 - 3.5 * cell, cell, (240, 245, 255))
    # The big article number, and the page within the article.
    big = W * 0.045
    num = str(article)
    c.text(num, W * 0.07, H * 0.12, big, (255, 255, 255), shadow=(20, 24, 40))
    # An editorial panel of "text" lines on the lower part of the page.
    px0, py0, px1, py1 = W * 0.07, H * 0.62, W * 0.93, H * 0.93
    c.shade_rect(px0, py0, px1, py1, (250, 250, 246), 0.82)
    small = H * 0.0045
    c.text("PAGE %d/%d" % (page + 1, pages), px0 + W * 0.04, py0 + H * 0.025, small * 1.6, hsv(hue, 0.6, 0.45))
    y = py0 + H * 0.025 + small * 1.6 * 7 + H * 0.025
    line_h = H * 0.012
    while y + line_h < py1 - H * 0.02:
        length = (px1 - px0 - W * 0.08) * rng.uniform(0.55, 1.0)
        c.rect(px0 + W * 0.04, y, px0 + W * 0.04 + length, y + line_h * 0.55, (120, 124, 134))
        y += line_h * 1.6
    # A vertical-scroll hint on all but the last page of an article.
    if page + 1 < pages:
        x, y = W * 0.5, H * 0.975
        c.polygon([(x - W * 0.03, y - H * 0.012), (x + W * 0.03, y - H * 0.012), (x, y + H * 0.008)],
                  (250, 250, 250))


def draw_photo(c, hue, seed, label=None):
    rng = Rng(seed)
    kind = rng.choice(["night", "dusk", "night", "geo"])
    if kind == "geo":
        scene_geometric(c, rng, hue)
    else:
        scene_landscape(c, rng, hue, with_aurora=(kind == "night"), water=rng.next() < 0.6)
    if label is not None:
        cell = c.H * 0.012
        c.shade_rect(c.W * 0.03, c.H * 0.88, c.W * 0.03 + Canvas.text_width(label, cell) + cell * 4,
                     c.H * 0.88 + cell * 11, (10, 14, 30), 0.5)
        c.text(label, c.W * 0.03 + cell * 2, c.H * 0.88 + cell * 2, cell, (240, 240, 240))


def draw_cover(c, issue_no, season, year, hue, seed):
    rng = Rng(seed)
    W, H = c.W, c.H
    scene_landscape(c, rng, hue, with_aurora=True, water=True)
    cell = W * 0.9 / Canvas.text_width("AURORA", 1)
    c.text("AURORA", W * 0.05, H * 0.05, cell, (255, 255, 255), shadow=(15, 20, 45))
    small = cell * 0.45
    y = H * 0.05 + cell * 7 + small * 3
    c.text(season, W * 0.05, y, small, (230, 240, 255))
    c.text(year, W * 0.95 - Canvas.text_width(year, small), y, small, (230, 240, 255))
    no = "%d" % issue_no
    big = W * 0.05
    cx, cy = W * 0.72, H * 0.80
    c.circle(cx, cy, W * 0.22, hsv(hue + 0.05, 0.7, 0.95))
    c.text(no, cx - Canvas.text_width(no, big) / 2, cy - 3.5 * big, big, (255, 255, 255))


# --------------------------------------------------------------------------------------------
# Property lists: XML with the Apple DOCTYPE, indented, one key or value per line


HEADER = ('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
          '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n')


class Date(str):
    """A plist <date>, written as given (ISO 8601, UTC)."""


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _value(v, depth, out):
    pad = "    " * depth
    if isinstance(v, Date):
        out.append("%s<date>%s</date>" % (pad, v))
    elif isinstance(v, str):
        out.append("%s<string>%s</string>" % (pad, _esc(v)))
    elif isinstance(v, bool):
        out.append("%s<%s/>" % (pad, "true" if v else "false"))
    elif isinstance(v, int):
        out.append("%s<integer>%d</integer>" % (pad, v))
    elif isinstance(v, list):
        out.append(pad + "<array>")
        for item in v:
            _value(item, depth + 1, out)
        out.append(pad + "</array>")
    elif isinstance(v, dict):
        out.append(pad + "<dict>")
        for k, item in v.items():
            out.append("%s    <key>%s</key>" % (pad, _esc(k)))
            _value(item, depth + 1, out)
        out.append(pad + "</dict>")
    else:
        raise TypeError(type(v))


def plist(value, comment=None):
    out = []
    _value(value, 0, out)
    head = HEADER + ("<!-- %s -->\n" % comment if comment else "")
    return (head + '<plist version="1.0">\n' + "\n".join(out) + "\n</plist>\n").encode("utf-8")


# --------------------------------------------------------------------------------------------
# Issue generation


def retina(name):
    base, ext = os.path.splitext(name)
    return base + "@2x" + ext


class Writer:
    def __init__(self):
        self.files = []

    def write(self, path, data):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        self.files.append(path)

    def image(self, folder, name, size, draw):
        """Draws an image at 1x and 2x (draw(canvas) is called for each) and writes both."""
        for scale, fname in ((1, name), (2, retina(name))):
            c = Canvas(size[0], size[1], scale)
            draw(c)
            self.write(os.path.join(folder, fname), c.png())


def build_issue(w, folder, meta, articles, sizes, hue, issue_no, season, year):
    """articles: list of articles, each a list of pages; a page is 0 (SimplePage) or the
    number of photos of a PhotoPage."""
    assets = os.path.join(folder, "assets")
    page_size, cover_size, photo_size, thumb_size = sizes
    w.image(assets, "cover.png", cover_size,
            lambda c: draw_cover(c, issue_no, season, year, hue, "cover-%d" % issue_no))
    config = []
    styles = ["night", "geo", "dusk"]
    for a, pages in enumerate(articles, start=1):
        art_hue = hue + 0.07 * (a - 1)
        entries = []
        for p, photos in enumerate(pages):
            base = "%d-%d.png" % (a, p)
            seed = "i%d-a%d-p%d" % (issue_no, a, p)
            style = styles[(a + p + issue_no) % 3]
            w.image(assets, base, page_size,
                    lambda c, a=a, p=p, n=len(pages), st=style, sd=seed:
                    draw_page(c, issue_no, a, p, n, art_hue, st, Rng(sd)))
            if photos == 0:
                entries.append({"class": "SimplePage", "properties": {"baseImage": base}})
                continue
            gallery = []
            for k in range(1, photos + 1):
                photo, thumb = "%d-%d-p%d.png" % (a, p, k), "%d-%d-p%dt.png" % (a, p, k)
                pseed = "%s-photo%d" % (seed, k)
                w.image(assets, photo, photo_size,
                        lambda c, ps=pseed, k=k: draw_photo(c, art_hue + 0.05 * k, ps, "%d/%d" % (k, photos)))
                w.image(assets, thumb, thumb_size,
                        lambda c, ps=pseed, k=k: draw_photo(c, art_hue + 0.05 * k, ps))
                gallery.append({"photo": photo, "thumbnail": thumb})
            entries.append({"class": "PhotoPage", "properties": {"baseImage": base, "photos": gallery}})
        config.append(entries)
    w.write(os.path.join(folder, "issue.plist"), plist(meta))
    w.write(os.path.join(folder, "pages.plist"), plist(config))


AURORA_ISSUES = [
    {
        "name": "a-1", "season": "SPRING", "year": "2026", "hue": 0.38,
        "meta": {
            "Title": "Aurora — Spring 2026",
            "Date": Date("2026-03-01T08:00:00Z"),
            "Summary": "Northern lights over the fjords, a field guide to spring skies, "
                       "and five photographers on waiting for the dark.",
        },
        # 0 = SimplePage, n > 0 = PhotoPage with n photos
        "articles": [[0], [0, 3, 0], [2, 0], [0, 0, 0], [4]],
    },
    {
        "name": "a-2", "season": "SUMMER", "year": "2026", "hue": 0.88,
        "meta": {
            "Title": "Аврора — лето 2026",
            "Date": Date("2026-06-01T08:00:00Z"),
            "Summary": "Белые ночи на Севере: полуночное солнце, летние маршруты и фотографии читателей.",
            "Language": "ru",
        },
        "articles": [[0], [3], [0, 0], [0, 2, 0], [0, 0], [2]],
    },
    {
        "name": "a-3", "season": "AUTUMN", "year": "2026", "hue": 0.70,
        "meta": {
            "Title": "Aurora — Autumn 2026",
            "Date": Date("2026-09-01T08:00:00Z"),
            "Summary": "The first dark nights of the season: forecasting solar storms, "
                       "a cabin on the Arctic coast and the readers' gallery.",
        },
        "articles": [[0, 0], [2, 0, 0], [0, 3], [0]],
    },
]


# The sample's CI pipelines are written by 'newsstand init --ci' (see Samples/README.md), not
# by this script: they are kept across a regeneration.
PIPELINES = (os.path.join(".github", "workflows", "newsstand.yml"), ".gitlab-ci.yml")


def generate_aurora(w, root):
    mag = os.path.join(root, "Samples", "aurora")
    kept = {}
    for name in PIPELINES:
        path = os.path.join(mag, name)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                kept[name] = handle.read()
    if os.path.isdir(mag):
        shutil.rmtree(mag)
    for name, data in kept.items():
        os.makedirs(os.path.dirname(os.path.join(mag, name)), exist_ok=True)
        with open(os.path.join(mag, name), "wb") as handle:
            handle.write(data)
    w.write(os.path.join(mag, "magazine.plist"),
            plist({"Title": "Aurora", "BaseURL": "http://localhost:8080/aurora/", "Publisher": "Aurora Press"}))
    sizes = ((384, 512), (384, 512), (360, 240), (96, 64))
    for no, spec in enumerate(AURORA_ISSUES, start=1):
        meta = {"Name": spec["name"]}
        meta.update(spec["meta"])
        meta["Cover"] = "cover.png"
        ordered = {k: meta[k] for k in ("Name", "Title", "Date", "Cover", "Summary", "ProductID", "Access", "Language")
                   if k in meta}
        build_issue(w, os.path.join(mag, "issues", spec["name"]), ordered, spec["articles"], sizes,
                    spec["hue"], no, spec["season"], spec["year"])


def generate_template(w, root):
    tpl = os.path.join(root, "templates", "new-magazine")
    if os.path.isdir(tpl):
        shutil.rmtree(tpl)
    w.write(os.path.join(tpl, "magazine.plist"),
            plist({"Title": "My Magazine", "BaseURL": "https://example.com/magazine/"},
                  comment="BaseURL: where the built magazine is hosted (absolute http(s) URL ending in '/')."))
    folder = os.path.join(tpl, "issues", "issue-1")
    assets = os.path.join(folder, "assets")
    hue = 0.55

    def placeholder(c, label, h):
        c.gradient(hsv(h, 0.35, 0.95), hsv(h + 0.1, 0.6, 0.7), 0.3, 1.0)
        cell = min(c.W / 7.0, c.H / 9.0)
        c.text(label, (c.W - Canvas.text_width(label, cell)) / 2, (c.H - 7 * cell) / 2, cell, (255, 255, 255))

    # The sizes docs/magazine-layout.md recommends: pages at the iPad's portrait screen (768x1024,
    # the @2x 1536x2048, what 'newsstand import' renders by default), a cover of the same size
    # (its @2x passes the Newsstand feed's rule: a PNG whose long side is at least 1,024 px).
    page = (768, 1024)
    w.image(assets, "cover.png", page, lambda c: placeholder(c, "1", hue))
    w.image(assets, "1-0.png", page, lambda c: placeholder(c, "1", hue + 0.2))
    w.image(assets, "2-0.png", page, lambda c: placeholder(c, "2", hue + 0.4))
    w.image(assets, "2-0-p1.png", (720, 480), lambda c: placeholder(c, "P", hue + 0.6))
    w.image(assets, "2-0-p1t.png", (96, 64), lambda c: c.gradient(hsv(hue + 0.6, 0.4, 0.95), hsv(hue + 0.7, 0.6, 0.7)))
    meta = {
        "Name": "issue-1",
        "Title": "Issue 1",
        "Date": Date("2026-01-01T00:00:00Z"),
        "Cover": "cover.png",
        "Summary": "A short description of the issue, shown on the shelf.",
    }
    w.write(os.path.join(folder, "issue.plist"), plist(meta))
    pages = [
        [{"class": "SimplePage", "properties": {"baseImage": "1-0.png"}}],
        [{"class": "PhotoPage", "properties": {
            "baseImage": "2-0.png",
            "photos": [{"photo": "2-0-p1.png", "thumbnail": "2-0-p1t.png"}],
        }}],
    ]
    w.write(os.path.join(folder, "pages.plist"),
            plist(pages, comment="Articles (swipe left/right), each an array of pages (swipe up/down). "
                                 "Image names are files in assets/; each needs its @2x twin."))


def main():
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=default_root, help="repository root to write into")
    args = parser.parse_args()
    w = Writer()
    generate_aurora(w, args.root)
    generate_template(w, args.root)
    total = sum(os.path.getsize(p) for p in w.files)
    print("wrote %d files, %.1f KB" % (len(w.files), total / 1024.0))


if __name__ == "__main__":
    main()
