#!/usr/bin/env python3
"""Writes the seed corpora (Fuzz/corpus/<Target>/) from the sample magazine, the built-in
schema and small hand-made inputs; run from the repository root. The output is committed:
run this again only to change the seeds."""
import datetime, hashlib, io, json, os, plistlib, shutil, struct, zipfile, zlib

ROOT = os.getcwd()
OUT = os.path.join(ROOT, "Fuzz", "corpus")


def put(target, name, data):
    folder = os.path.join(OUT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


shutil.rmtree(OUT, ignore_errors=True)

# FuzzPlist: the sample's and the template's lists, XML and binary, and a few small shapes.
plists = ["Samples/aurora/magazine.plist", "Samples/aurora/issues/a-1/issue.plist", "Samples/aurora/issues/a-3/pages.plist",
          "templates/page-classes.plist", "templates/new-magazine/issues/issue-1/pages.plist"]
for path in plists:
    data = read(path)
    name = path.replace("/", "_")
    put("FuzzPlist", name, data)
    put("FuzzPlist", name + ".bplist", plistlib.dumps(plistlib.loads(data), fmt=plistlib.FMT_BINARY))
every_kind = {"s": "text &<> \u00e9", "i": -42, "big": 2**62, "r": 1.5, "t": True, "f": False,
              "d": datetime.datetime(2026, 11, 30, 7, 0, 0), "b": b"\x00\x01bytes", "a": [1, [2, {}]], "e": {}}
put("FuzzPlist", "every-kind.plist", plistlib.dumps(every_kind))
put("FuzzPlist", "every-kind.bplist", plistlib.dumps(every_kind, fmt=plistlib.FMT_BINARY))
put("FuzzPlist", "cdata-comment.plist", b'<?xml version="1.0"?>\n<plist version="1.0"><array><!-- c -->'
    b'<string><![CDATA[a<b]]>&#x41;&#65;</string><integer> 7 </integer><real>-0.0</real></array></plist>\n')

# FuzzPageConfig: the sample's page configs with the built-in schema, and one with a
# magazine schema of its own before the separator.
for path in ["Samples/aurora/issues/a-1/pages.plist", "Samples/aurora/issues/a-2/pages.plist",
             "templates/new-magazine/issues/issue-1/pages.plist"]:
    put("FuzzPageConfig", path.replace("/", "_"), read(path))
schema = {"QuotePage": {"inherits": "SimplePage", "description": "a quote",
                        "properties": {"quote": {"type": "string", "required": True},
                                       "notes": {"type": "array", "minCount": 1, "maxCount": 3,
                                                 "items": {"type": "dict", "properties": {"at": {"type": "date"}}}}}}}
pages = [[{"class": "QuotePage", "properties": {"baseImage": "1-0.png", "quote": "q",
                                                "notes": [{"at": datetime.datetime(2026, 1, 1)}]}}],
         [{"class": "SimplePage", "properties": {"baseImage": 3}}]]
put("FuzzPageConfig", "own-schema", plistlib.dumps(schema) + b"\n%%pages%%\n" + plistlib.dumps(pages))

# FuzzImageHeader: heads of the sample's PNGs, hand-made GIF and JPEG headers.
put("FuzzImageHeader", "sample.png", read("Samples/aurora/issues/a-1/assets/1-0.png")[:64])
put("FuzzImageHeader", "sample-retina.png", read("Samples/aurora/issues/a-1/assets/1-0@2x.png")[:64])
put("FuzzImageHeader", "small.gif", b"GIF89a\x10\x00\x20\x00\x00\x00\x00" + b"\x00" * 12)
app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 480, 640, 1) + b"\x01\x11\x00"
put("FuzzImageHeader", "small.jpg", b"\xff\xd8" + app0 + b"\xff\xff" + sof0 + b"\xff\xda\x00\x02")
put("FuzzImageHeader", "progressive.jpg", b"\xff\xd8" + b"\xff\xc4\x00\x04\x00\x00" + sof0.replace(b"\xff\xc0", b"\xff\xc2"))

# FuzzCatalog: catalogs as Foundation and plistlib write them.
def entry(name, day, **extra):
    e = {"Name": name, "Title": "Issue " + name, "Date": datetime.datetime(2026, 11, day, 9, 0, 0),
         "Cover": f"https://example.com/{name}/cover.png", "Content": f"https://example.com/{name}/{name}.zip"}
    e.update(extra)
    return e
put("FuzzCatalog", "two-issues.plist", plistlib.dumps([entry("a-2", 2, Summary="s & <t>", ContentSize=1234,
    ContentSHA256="0" * 64), entry("a-1", 1)]))
put("FuzzCatalog", "bad-entry.plist", plistlib.dumps([entry("ok", 3), {"Name": "no-date", "Title": "t"}, "not a dict"]))
put("FuzzCatalog", "empty.plist", plistlib.dumps([]))
put("FuzzCatalog", "entities.plist", b'<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><?pi x?>\n'
    b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
    b'<plist version="1.0"><array><dict><key>Name</key><string>a&#x2D;1</string><key>Title</key>'
    b'<string><![CDATA[<T>]]>&amp;&lt;&gt;&quot;&apos;</string><key>Date</key><date>2026-11-30T09:00:00Z</date>'
    b'<key>Cover</key><string>c.png</string><key>Content</key><string>c.zip</string></dict></array></plist>\n')

# FuzzZipExtract: small archives, good and hostile.
def zip_bytes(entries, compression=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as z:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, (2026, 11, 30, 9, 0, 0))
            info.compress_type = compression
            info.external_attr = mode << 16
            z.writestr(info, data)
    return buffer.getvalue()
put("FuzzZipExtract", "issue.zip", zip_bytes([("pages.plist", read("templates/new-magazine/issues/issue-1/pages.plist"), 0o100644),
                                             ("assets/", b"", 0o040755), ("assets/1-0.png", read("Samples/aurora/issues/a-1/assets/1-0.png")[:200], 0o100644)]))
put("FuzzZipExtract", "stored.zip", zip_bytes([("a/b/c.txt", b"hello\n", 0o100644)], zipfile.ZIP_STORED))
put("FuzzZipExtract", "dotdot.zip", zip_bytes([("../escape.txt", b"x", 0o100644)], zipfile.ZIP_STORED))
put("FuzzZipExtract", "absolute.zip", zip_bytes([("/tmp/newsstand-fuzz-absolute.txt", b"x", 0o100644)], zipfile.ZIP_STORED))
put("FuzzZipExtract", "symlink.zip", zip_bytes([("link", b"../../outer", 0o120777), ("link/x", b"x", 0o100644)], zipfile.ZIP_STORED))
put("FuzzZipExtract", "duplicate.zip", zip_bytes([("a.txt", b"1", 0o100644), ("a.txt", b"2", 0o100644)], zipfile.ZIP_STORED))
put("FuzzZipExtract", "ratio.zip", zip_bytes([("zeros", b"\0" * 200000, 0o100644)]))
# What a hand-written reader newly risks: Zip64 records, a data descriptor (bit 3), a bad CRC,
# two central headers pointing at one record.
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
    with z.open(zipfile.ZipInfo("z64.txt", (2026, 11, 30, 9, 0, 0)), "w", force_zip64=True) as f:
        f.write(b"zip64 " * 50)
put("FuzzZipExtract", "zip64.zip", buffer.getvalue())
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
    z.writestr(zipfile.ZipInfo("a.txt", (2026, 11, 30, 9, 0, 0)), b"hello\n")
put("FuzzZipExtract", "badcrc.zip", buffer.getvalue().replace(b"hello", b"jello", 1))
overlap = bytearray(zip_bytes([("a.txt", b"one", 0o100644), ("b.txt", b"two", 0o100644)], zipfile.ZIP_STORED))
second = overlap.rfind(b"PK\x01\x02")
overlap[second + 42:second + 46] = b"\0\0\0\0"
put("FuzzZipExtract", "overlap.zip", bytes(overlap))

# FuzzZipRecord: single local records as an update fetches them (header, name, data), stored
# and deflated, as a bundle's are.
for name, data, method in [("1-0.png", read("Samples/aurora/issues/a-1/assets/1-0.png")[:300], 0),
                           ("pages.plist", read("templates/new-magazine/issues/issue-1/pages.plist"), 8)]:
    if method == 8:
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        body = c.compress(data) + c.flush()
    else:
        body = data
    encoded = name.encode()
    header = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0, zlib.crc32(data), len(body), len(data), len(encoded), 0)
    put("FuzzZipRecord", name + ".record", header + encoded + body)

# FuzzBundleStream: bundles and their indexes as `newsstand build` pairs them (records back to
# back from byte 0, sizes in the local headers, no data descriptor), stored and deflated, and a
# few pairs that disagree. `<index JSON>\n%%bundle%%\n<bundle>`; a seed named `*.ok` must stream
# to the end (FuzzRegressionTests checks it).
def bundle_pair(files, descriptor=False):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data, method in files:
            info = zipfile.ZipInfo(name, (2026, 11, 30, 9, 0, 0))
            info.compress_type = method
            z.writestr(info, data)
    bundle = buffer.getvalue()
    entries = []
    with zipfile.ZipFile(io.BytesIO(bundle)) as z:
        for info, (name, data, method) in zip(z.infolist(), files):
            header = info.header_offset
            nlen, elen = struct.unpack("<HH", bundle[header + 26:header + 30])
            start = header + 30 + nlen + elen
            entries.append('{"name":%s,"size":%d,"sha256":"%s","crc32":%d,"method":"%s","header":%d,"data":%d,"length":%d}' % (
                json.dumps(name, ensure_ascii=False), len(data), hashlib.sha256(data).hexdigest(), info.CRC,
                "stored" if method == zipfile.ZIP_STORED else "deflated", header, start, info.compress_size))
    index = '{"format":"newsstand-bundle-index","version":1,\n"bundle":{"size":%d,"sha256":"%s"},\n"entries":[\n%s\n]}\n' % (
        len(bundle), hashlib.sha256(bundle).hexdigest(), ",\n".join(entries))
    return index.encode(), bundle


def put_pair(name, index, bundle):
    put("FuzzBundleStream", name, index + b"\n%%bundle%%\n" + bundle)


page = read("Samples/aurora/issues/a-1/assets/1-0.png")[:2000]
config = read("templates/new-magazine/issues/issue-1/pages.plist")
stored = [("issue.plist", b"<plist><dict/></plist>", zipfile.ZIP_STORED), ("pages.plist", config, zipfile.ZIP_STORED),
          ("1-0.png", page, zipfile.ZIP_STORED)]
mixed = [("pages.plist", config, zipfile.ZIP_DEFLATED), ("1-0.png", page, zipfile.ZIP_STORED),
         ("articles/2/text.html", b"<p>" + b"words " * 200 + b"</p>", zipfile.ZIP_DEFLATED), ("empty.txt", b"", zipfile.ZIP_STORED)]
put_pair("stored.ok", *bundle_pair(stored))
put_pair("mixed.ok", *bundle_pair(mixed))
index, bundle = bundle_pair(mixed)
put_pair("wrong-entry-sha.pair", index.replace(hashlib.sha256(page).hexdigest().encode(), b"0" * 64, 1), bundle)
put_pair("damaged-byte.pair", index, bundle[:200] + bytes([bundle[200] ^ 0xFF]) + bundle[201:])
put_pair("cut-short.pair", index, bundle[:len(bundle) // 2])

# FuzzRecords: a publish state file (first byte even) and a build manifest (first byte odd).
publish = {"files": {"issues.plist": {"size": 10, "sha256": "a" * 64}, "a-1/a-1.zip": {"size": 5, "sha256": "b" * 64}},
           "retired": ["a-0/a-0.zip"]}
put("FuzzRecords", "publish-state.json", b"\x00" + json.dumps(publish, indent=2, sort_keys=True).encode())
def record(file):
    return {"file": file, "size": 1, "sha256": "c" * 64}
manifest = {"toolVersion": "1", "name": "a-1", "isVersioned": False,
            "metadata": {"title": "T", "date": 815000000.0, "cover": "1-0.png", "summary": "s"},
            "inputs": [{"path": "pages.plist", "size": 3, "modified": 1.5, "sha256": "d" * 64},
                       {"path": "assets/1-0.png", "size": 3, "modified": 2.0, "sha256": "e" * 64}],
            "bundle": record("a-1.zip"), "retinaBundle": record("a-1@2x.zip"), "cover": record("cover.png"),
            "retinaCover": record("cover@2x.png")}
put("FuzzRecords", "build-manifest.json", b"\x01" + json.dumps(manifest, indent=2, sort_keys=True).encode())
