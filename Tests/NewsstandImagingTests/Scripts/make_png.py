"""Writes test PNGs of every kind, with zlib only (no imaging library): colour types 0, 2, 3, 4
and 6, bit depths 1 to 16, tRNS, and optional ancillary chunks (iCCP, eXIf, tEXt). Pixels are a
seeded mix of gradients and noise ("photo") or a few flat colours ("flat")."""
import json
import random
import struct
import sys
import zlib


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def samples_per_pixel(colour_type):
    return {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour_type]


def pack_row(values, bit_depth):
    if bit_depth == 16:
        return b"".join(struct.pack(">H", v) for v in values)
    if bit_depth == 8:
        return bytes(values)
    out, acc, bits = bytearray(), 0, 0
    for v in values:
        acc = (acc << bit_depth) | v
        bits += bit_depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def main():
    spec = json.loads(sys.argv[1])
    path, w, h = spec["path"], spec["width"], spec["height"]
    ct, bd = spec.get("colourType", 2), spec.get("bitDepth", 8)
    pattern = spec.get("pattern", "photo")
    rng = random.Random(spec.get("seed", 1))
    top = (1 << bd) - 1
    n = samples_per_pixel(ct)
    palette_size = spec.get("paletteSize", 16)
    raw = bytearray()
    # The samples of every pixel in order, with the generator's numbers drawn in the same order
    # as a pixel-by-pixel loop would (randint(a, b) is a + _randbelow(b - a + 1)): the same
    # bytes, several times faster.
    below = rng._randbelow
    low, width = -top // 12, top // 12 - (-top // 12) + 1
    scale = max(1, (w + h) * 6)
    ramp = n in (2, 4) and spec.get("alpha") == "ramp"
    alphas = [(x * top) // max(1, w - 1) for x in range(w)]
    for y in range(h):
        values = []
        if ct == 3:
            if pattern == "flat":
                values = [((x // 7) + (y // 5) * 3) % palette_size for x in range(w)]
            else:
                values = [below(palette_size) for _ in range(w)]
        elif pattern == "flat":
            for x in range(w):
                values += [top if ((x // 8) + (y // 8) + s) % 3 == 0 else top // 3 for s in range(n)]
        else:
            terms = [y * (3 - s % 3) * 2 for s in range(n)]
            for x in range(w):
                for s in range(n):
                    v = ((x * (s + 1) * 3 + terms[s]) * top) // scale + low + below(width)
                    values.append(0 if v < 0 else top if v > top else v)
        if ramp:
            for x in range(w):
                values[x * n + n - 1] = alphas[x]
        raw += b"\x00" + pack_row(values, bd)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bd, ct, 0, 0, 0))
    if "iccProfile" in spec:
        profile = open(spec["iccProfile"], "rb").read()
        data += chunk(b"iCCP", b"profile\x00\x00" + zlib.compress(profile))
    if ct == 3:
        rng2 = random.Random(99)
        data += chunk(b"PLTE", bytes(rng2.randrange(256) for _ in range(palette_size * 3)))
        if spec.get("transparentIndex") is not None:
            data += chunk(b"tRNS", bytes(255 if i != spec["transparentIndex"] else 0 for i in range(palette_size)))
    elif "transparentColour" in spec:
        data += chunk(b"tRNS", b"".join(struct.pack(">H", v) for v in spec["transparentColour"]))
    if "text" in spec:
        data += chunk(b"tEXt", b"Comment\x00" + spec["text"].encode("latin-1"))
    if "exif" in spec:
        data += chunk(b"eXIf", bytes.fromhex(spec["exif"]))
    # Weak compression on purpose, as exported files often are: the optimiser has work to do.
    data += chunk(b"IDAT", zlib.compress(bytes(raw), spec.get("zlibLevel", 1)))
    data += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


main()
