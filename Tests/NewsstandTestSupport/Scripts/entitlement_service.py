"""A small entitlement service, as a publisher runs one beside a static host: a reader app
asks it for a link to a paid issue's file with its token (a login, a checked store receipt),
and it answers a URL signed for nginx's secure_link, or refuses.

    python3 entitlement_service.py CONFIG

CONFIG is a JSON file:
    {"secret_file": "...",                      the host's secure_link_md5 secret (first line)
     "paid_base": "http://127.0.0.1:8080/paid/", where paid issues' content is: <BaseURL>paid/
     "tokens": {"<token>": ["a-3", ...]},        the issues each token is entitled to ("*": all)
     "lifetime": 300}                            seconds a link works (a request may ask less)

It listens on a free loopback port and prints the port on its first line, then one line per
request: "<status> <issue or -> <token label>" (never a token or the secret).

    GET /sign?url=<the URL to fetch>[&lifetime=<seconds>]
    Authorization: Bearer <token>

200: the signed URL on one line (text/plain). 401: no token, or one it does not know. 403:
the token is not entitled to that issue. 400: the URL is not a paid issue's file.

The signature is computed here on its own (hashlib), not by newsstand: a test checks that the
two agree and that nginx accepts both.
"""
import base64
import hashlib
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def signature(path_bytes, expires, secret):
    """base64url, without padding, of MD5("<expires><path> <secret>"): nginx's
    secure_link_md5 "$secure_link_expires$uri <secret>", $uri being the decoded path."""
    digest = hashlib.md5(str(expires).encode() + path_bytes + b" " + secret).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign(url, expires, secret):
    parts = urllib.parse.urlsplit(url)
    path = urllib.parse.unquote_to_bytes(parts.path)
    joiner = "&" if parts.query else "?"
    return f"{url}{joiner}md5={signature(path, expires, secret)}&expires={expires}"


def main():
    with open(sys.argv[1]) as handle:
        config = json.load(handle)
    with open(config["secret_file"], "rb") as handle:
        secret = handle.read().split(b"\n")[0].rstrip(b"\r")
    paid_base = config["paid_base"]
    tokens = config["tokens"]
    lifetime = int(config.get("lifetime", 300))
    labels = {token: f"token{index}" for index, token in enumerate(sorted(tokens))}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body, issue="-", token=None):
            # Logged before the answer is sent: a client that has its answer may stop the
            # service at once, and the line must be out by then (under load it was not).
            with lock:
                print(status, issue, labels.get(token, "unknown") if token else "none", flush=True)
            data = (body + "\n").encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            request = urllib.parse.urlsplit(self.path)
            if request.path != "/sign":
                return self.answer(404, "not found")
            query = urllib.parse.parse_qs(request.query)
            header = self.headers.get("Authorization", "")
            token = header[len("Bearer "):] if header.startswith("Bearer ") else None
            if token not in tokens:
                return self.answer(401, "a token is needed", token=token)
            url = (query.get("url") or [""])[0]
            if not url.startswith(paid_base):
                return self.answer(400, "not a paid issue's file", token=token)
            issue = url[len(paid_base):].split("/")[0]
            rest = url[len(paid_base) + len(issue):]
            if not issue or not rest.startswith("/") or len(rest) < 2:
                return self.answer(400, "not a paid issue's file", token=token)
            entitled = tokens[token]
            if "*" not in entitled and issue not in entitled:
                return self.answer(403, "not entitled", issue=issue, token=token)
            try:
                asked = int((query.get("lifetime") or [lifetime])[0])
            except ValueError:
                return self.answer(400, "lifetime is not a number of seconds", issue=issue, token=token)
            expires = int(time.time()) + max(1, min(asked, lifetime))
            return self.answer(200, sign(url, expires, secret), issue=issue, token=token)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
