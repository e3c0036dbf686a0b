import http.client, json, os, sys, threading
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
upstream, control = int(sys.argv[1]), sys.argv[2]
lock = threading.Lock()
state = {"generation": None, "count": 0}

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass
    def relay(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock:
            try:
                with open(os.path.join(control, "rules.json")) as f:
                    rules = json.load(f)
            except Exception:
                rules = {"generation": 0, "failAt": 0}
            if rules.get("generation") != state["generation"]:
                state["generation"], state["count"] = rules.get("generation"), 0
            state["count"] += 1
            number = state["count"]
            with open(os.path.join(control, "log.jsonl"), "a") as f:
                f.write(json.dumps({"generation": state["generation"], "n": number, "method": self.command,
                    "path": self.path, "headers": [[k, v] for k, v in self.headers.items()]}) + "\n")
        if number == rules.get("failAt"):
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("content-length", "expect", "connection")}
        origin = http.client.HTTPConnection("127.0.0.1", upstream, timeout=60)
        origin.request(self.command, self.path, body=body if length or self.command == "PUT" else None, headers=headers)
        answer = origin.getresponse()
        data = answer.read()
        self.send_response(answer.status)
        for k, v in answer.getheaders():
            if k.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(k, v)
        # A HEAD answer has no body but the length of the one a GET would have.
        length = answer.getheader("Content-Length") if self.command == "HEAD" else None
        self.send_header("Content-Length", length or str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        origin.close()
    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.relay
        raise AttributeError(name)

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
