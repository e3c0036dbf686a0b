"""Decodes PNGs with zlib alone (not libvips) and says whether two of them show the same pixels:
every pixel as 16-bit RGBA after expanding palettes, grey, bit depths and tRNS the way the PNG
specification says. Prints "same" or the first difference. Interlaced files are not handled
(the tests make none)."""
import struct
import sys
import zlib


def read(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    pos, idat, plte, trns = 8, b"", None, None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, bd, ct, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert interlace == 0, path + ": interlaced"
        elif kind == b"PLTE":
            plte = body
        elif kind == b"tRNS":
            trns = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    n = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ct]
    bits_pp = n * bd
    stride = (w * bits_pp + 7) // 8
    bpp = max(1, bits_pp // 8)
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    top = (1 << bd) - 1
    pixels = []
    for line in rows:
        if bd == 16:
            values = list(struct.unpack(">%dH" % (w * n), line))
        elif bd == 8:
            values = list(line[:w * n])
        else:
            values = []
            for byte in line:
                for shift in range(8 - bd, -1, -bd):
                    values.append((byte >> shift) & top)
            values = values[:w * n]
        for x in range(w):
            s = values[x * n:(x + 1) * n]
            if ct == 3:
                r, g, b = plte[s[0] * 3:s[0] * 3 + 3]
                alpha = trns[s[0]] if trns and s[0] < len(trns) else 255
                pixels.append((r * 257, g * 257, b * 257, alpha * 257))
                continue
            scale = lambda v: v * 65535 // top
            if ct == 0:
                alpha = 0 if trns and struct.unpack(">H", trns[:2])[0] == s[0] else top
                pixels.append((scale(s[0]),) * 3 + (scale(alpha),))
            elif ct == 4:
                pixels.append((scale(s[0]),) * 3 + (scale(s[1]),))
            elif ct == 2:
                alpha = 0 if trns and list(struct.unpack(">3H", trns[:6])) == s else top
                pixels.append(tuple(scale(v) for v in s) + (scale(alpha),))
            else:
                pixels.append(tuple(scale(v) for v in s))
    return w, h, pixels


a, b = read(sys.argv[1]), read(sys.argv[2])
if a[:2] != b[:2]:
    print("size %dx%d != %dx%d" % (a[0], a[1], b[0], b[1]))
else:
    for i, (p, q) in enumerate(zip(a[2], b[2])):
        if p != q:
            print("pixel (%d, %d): %s != %s" % (i % a[0], i // a[0], p, q))
            break
    else:
        print("same")
