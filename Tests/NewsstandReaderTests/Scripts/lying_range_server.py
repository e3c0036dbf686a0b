import http.server, os, re, socketserver, sys
root, mode = sys.argv[1], sys.argv[2]
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    def log_message(self, *args): pass
    def do_GET(self):
        path = os.path.join(root, self.path.lstrip("/"))
        data = open(path, "rb").read()
        header = self.headers.get("Range")
        if not header:
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        ranges = [(int(a), int(b)) for a, b in re.findall(r"(\d+)-(\d+)", header)]
        print(mode, len(ranges), flush=True)
        total = len(data)
        shift = 1 if mode == "wrongrange" else 0
        if mode == "drip":
            # A few bytes of the first range, then nothing: the stall rule must end it.
            a, b = ranges[0]
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (a, b, total))
            self.send_header("Content-Length", str(b - a + 1))
            self.end_headers()
            self.wfile.write(data[a:a + 10])
            self.wfile.flush()
            import time
            time.sleep(30)
            return
        if len(ranges) == 1 or mode == "wrongrange":
            if len(ranges) > 1:
                ranges = ranges[:1]
            a, b = ranges[0]
            body = data[a:b + 1] + (b"x" * 5000 if mode == "longer" else b"")
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (a + shift, b + shift, total))
            self.end_headers()
            self.wfile.write(body)
            return
        # Several ranges: a multipart body whose parts use another boundary than announced.
        self.send_response(206)
        self.send_header("Content-Type", "multipart/byteranges; boundary=ANNOUNCED")
        self.end_headers()
        # Or ("wrongpart") the announced boundary, with each part's bytes one off from its Content-Range.
        boundary, shift = (b"ANNOUNCED", 1) if mode == "wrongpart" else (b"OTHER", 0)
        for a, b in ranges:
            self.wfile.write(b"\r\n--%s\r\nContent-Range: bytes %d-%d/%d\r\n\r\n" % (boundary, a + shift, b + shift, total) + data[a:b + 1])
        self.wfile.write(b"\r\n--%s--\r\n" % boundary)
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
