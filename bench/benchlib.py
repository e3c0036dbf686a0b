"""Shared helpers for the benchmarks: timing commands, peak memory, fixture writing."""
import os
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NEWSSTAND = os.environ.get("NEWSSTAND", os.path.join(ROOT, ".build", "release", "newsstand"))


REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))


def run(argv, prepare=None, repeat=REPEAT, **kwargs):
    """Runs a command `repeat` times and returns its best wall-clock seconds (this virtual
    machine's disk makes single timings noisy). Before each run `prepare` removes the
    previous run's output, and dirty pages are written out, so no command pays for another's
    writes."""
    return min(timed(argv, prepare, **kwargs) for _ in range(repeat))


def timed(argv, prepare=None, **kwargs):
    """One run of a command, its output removed first and dirty pages written out: seconds."""
    if prepare:
        prepare()
    os.sync()
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
    return seconds


def paired(ours, theirs, rounds):
    """Interleaved paired runs: each round times `ours` then `theirs` (each a dict of timed's
    arguments), so both meet the same load on a shared machine. Returns (median of our
    seconds, median of theirs, median of the rounds' ratios ours / theirs)."""
    mine, peer, ratios = [], [], []
    for _ in range(rounds):
        a = timed(**ours)
        b = timed(**theirs)
        mine.append(a)
        peer.append(b)
        ratios.append(a / b)
    return statistics.median(mine), statistics.median(peer), statistics.median(ratios)


def load():
    """The load average over the last minute, as uptime prints it."""
    return os.getloadavg()[0]


def remover(*paths):
    """A `prepare` that deletes files or folders."""
    def prepare():
        for path in paths:
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
    return prepare


def peak_rss(argv):
    """Peak RSS in MB of one command. ru_maxrss of children is a maximum over every child so
    far, so the command runs under a fresh Python whose only child it is."""
    code = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code] + argv, capture_output=True, check=True, text=True)
    return int(out.stdout.strip()) / 1024.0


def png_header(width, height):
    """A PNG signature and IHDR chunk: enough for the validator, which reads headers only."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def plist(body):
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        '<plist version="1.0">\n' + body + "\n</plist>\n"
    ).encode()


def write_magazine(root, issues, pages, image_bytes=None):
    """Writes a magazine of `issues` issues with `pages` SimplePages each (one article per page)."""
    shutil.rmtree(root, ignore_errors=True)
    write(os.path.join(root, "magazine.plist"), plist(
        "<dict>\n<key>Title</key>\n<string>Bench</string>\n<key>BaseURL</key>\n<string>https://example.com/bench/</string>\n</dict>"))
    for n in range(issues):
        name = f"issue-{n:04d}"
        folder = os.path.join(root, "issues", name)
        write(os.path.join(folder, "issue.plist"), plist(
            "<dict>\n<key>Title</key>\n<string>Issue %d</string>\n<key>Date</key>\n<date>2026-%02d-%02dT08:00:00Z</date>\n"
            "<key>Cover</key>\n<string>cover.png</string>\n<key>Summary</key>\n<string>Issue %d.</string>\n</dict>"
            % (n, n % 12 + 1, n % 28 + 1, n)))
        articles = []
        for p in range(pages):
            articles.append(
                "<array>\n<dict>\n<key>class</key>\n<string>SimplePage</string>\n<key>properties</key>\n<dict>\n"
                "<key>baseImage</key>\n<string>%d-0.png</string>\n</dict>\n</dict>\n</array>" % p)
        write(os.path.join(folder, "pages.plist"), plist("<array>\n" + "\n".join(articles) + "\n</array>"))
        for index, stem in [(-1, "cover")] + [(p, f"{p}-0") for p in range(pages)]:
            for retina in (False, True):
                w, h = (768, 1024) if retina else (384, 512)
                payload = image_bytes(index, retina) if image_bytes else b""
                write(os.path.join(folder, "assets", stem + ("@2x" if retina else "") + ".png"), png_header(w, h) + payload)
    return root


def ratio(ours, theirs):
    return f"{theirs / ours:6.1f}x" if ours > 0 else "   n/a"
