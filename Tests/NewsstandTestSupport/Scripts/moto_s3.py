"""A real S3 API for the tests: moto's server (PyPI `moto[server]`) on a loopback port the
kernel picks (bound here, so no other process can take it first), with one bucket.

Prints the port on its first line, then serves until killed. Every request is recorded
(method, path, query, status, conditional headers) and read back, as JSON lines, at
GET /__newsstand/requests: what reached the origin. A request for /__newsstand/... is not
recorded.

Usage: moto_s3.py BUCKET
"""
import json
import logging
import sys
import threading
import urllib.request

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import make_server

logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request on stderr
app = DomainDispatcherApplication(create_backend_app)
log = []
lock = threading.Lock()


def recorded(environ, start_response):
    path = environ.get("PATH_INFO", "")
    if path.startswith("/__newsstand/requests"):
        with lock:
            body = "".join(json.dumps(entry) + "\n" for entry in log).encode()
        start_response("200 OK", [("Content-Type", "application/x-ndjson"), ("Content-Length", str(len(body)))])
        return [body]

    def start(status, headers, exc_info=None):
        with lock:
            log.append({
                "method": environ["REQUEST_METHOD"], "path": path, "query": environ.get("QUERY_STRING", ""),
                "status": int(status.split()[0]), "ifNoneMatch": environ.get("HTTP_IF_NONE_MATCH"),
                "ifModifiedSince": environ.get("HTTP_IF_MODIFIED_SINCE"), "agent": environ.get("HTTP_USER_AGENT", ""),
            })
        return start_response(status, headers, exc_info)

    return app(environ, start)


server = make_server("127.0.0.1", 0, recorded, threaded=True)
port = server.server_port
threading.Thread(target=server.serve_forever, daemon=True).start()
# The bucket, made through the API itself (moto takes unsigned requests).
urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/{sys.argv[1]}", method="PUT")).read()
with lock:
    log.clear()
print(port, flush=True)
threading.Event().wait()
