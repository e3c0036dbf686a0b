import os, sys, time, zlib, struct, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

root, log_path = sys.argv[1], sys.argv[2]
log_lock = threading.Lock()
PREFIX = b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n'

def log(path, rng, sent):
    with log_lock, open(log_path, "a") as f:
        f.write(f"{path} {rng or '-'} {sent}\n")

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        self.sent = 0
        try:
            kind, _, rest = url.path.lstrip("/").partition("/")
            getattr(self, "serve_" + kind.replace("-", "_"))(rest, query)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass
        finally:
            log(url.path, self.headers.get("Range"), self.sent)
            self.close_connection = True

    def send(self, data):
        self.wfile.write(data)
        self.wfile.flush()
        self.sent += len(data)

    def head(self, status, headers):
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Connection", "close")
        self.end_headers()

    def serve_gzip_bomb(self, name, query):
        size = int(query.get("size", 4 << 30))
        fill = b"\0" if query.get("fill") == "zero" else b" "
        block = fill * (1 << 20)
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        start = compressor.compress(PREFIX) + compressor.flush(zlib.Z_FULL_FLUSH)
        # After a full flush the compressor forgets its history, so every identical
        # block compresses to identical bytes: compress one, send it again and again.
        packed = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
        self.head(200, {"Content-Type": "application/xml", "Content-Encoding": "gzip"})
        self.send(start)
        crc, total = zlib.crc32(PREFIX), len(PREFIX)
        while total + len(block) <= size:
            self.send(packed)
            crc, total = zlib.crc32(block, crc), total + len(block)
        self.send(b"\x03\x00" + struct.pack("<II", crc & 0xFFFFFFFF, total & 0xFFFFFFFF))

    def serve_drip(self, rest, query):
        path = os.path.join(root, rest)
        if not os.path.isfile(path):
            self.head(404, {"Content-Length": "0"})
            return
        data = open(path, "rb").read()
        etag = '"drip-%d"' % len(data)
        start = 0
        rng = self.headers.get("Range", "")
        if rng.startswith("bytes=") and self.headers.get("If-Range") in (None, etag):
            start = int(rng[6:].split("-")[0]) + int(query.get("skew", 0))
        if start:
            self.head(206, {"Content-Length": str(len(data) - start), "ETag": etag,
                            "Content-Range": "bytes %d-%d/%d" % (start, len(data) - 1, len(data))})
        else:
            self.head(200, {"Content-Length": str(len(data)), "ETag": etag, "Accept-Ranges": "bytes"})
        chunk, interval = int(query.get("chunk", 1)), float(query.get("interval", 1))
        for offset in range(start, len(data), chunk):
            self.send(data[offset:offset + chunk])
            time.sleep(interval)

    def serve_endless(self, name, query):
        headers = {"Content-Type": "application/octet-stream"}
        declared = query.get("declared", "none")
        if declared != "none":
            headers["Content-Length"] = declared
        self.head(200, headers)
        chunk, interval = int(query.get("chunk", 65536)), float(query.get("interval", 0))
        self.send(PREFIX)
        block = b" " * chunk
        # "Without end" up to a cap far above any limit a test sets: a client that never stops
        # reading (FoundationNetworking reads a cancelled task's body on) must not keep both
        # cores busy for the rest of the test run.
        left = int(query.get("cap", 64 << 20))
        while left > 0:
            self.send(block[:left])
            left -= chunk
            if interval:
                time.sleep(interval)
        self.close_connection = True

    def serve_hold(self, rest, query):
        data = open(os.path.join(root, rest), "rb").read()
        self.head(200, {"Content-Length": str(len(data)), "ETag": '"hold"'})
        half = len(data) // 2
        self.send(data[:half])
        while not os.path.exists(os.path.join(root, ".release")):
            time.sleep(0.02)
        self.send(data[half:])

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
