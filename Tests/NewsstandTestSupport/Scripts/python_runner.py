"""Runs the tests' short Python checks without starting Python for each (`Shell.python`).

Prints its port on its first line, then serves until killed. A request is one connection: a
JSON object {"token": the NEWSSTAND_RUNNER_TOKEN this server was started with, "script": text,
"argv": [arguments]} sent whole, then the write side shut (a request without the token is
closed unanswered: any local process can reach a loopback port). The
script runs in a process of its own, forked from this one with the modules the checks use
already imported, as `python3 -c script argv...` would run it: `sys.argv` set, stdin empty,
stdout and stderr to files, its exit status what `sys.exit`, an uncaught exception (status 1)
or `os._exit` made it. The answer is {"status": n, "stdout": base64, "stderr": base64}, then
the connection is closed.

Usage: python_runner.py
"""
import base64
import hashlib  # noqa: F401  (imported once here, for the checks)
import hmac
import json
import os
import plistlib  # noqa: F401
import random  # noqa: F401
import socketserver
import struct  # noqa: F401
import sys
import tempfile
import traceback
import urllib.error  # noqa: F401
import urllib.request  # noqa: F401
import zipfile  # noqa: F401
import zlib  # noqa: F401


def run(script, argv, out, err):
    """In the forked child: runs `script` with its output on `out` and `err`, and exits."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    sys.argv = ["-c"] + argv
    status = 0
    try:
        exec(compile(script, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as exit:
        code = exit.code
        if code is None:
            status = 0
        elif isinstance(code, int):
            status = code & 0xFF
        else:
            print(code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


TOKEN = os.environ.pop("NEWSSTAND_RUNNER_TOKEN", "")


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        try:
            request = json.loads(self.rfile.read(16 << 20))
        except ValueError:
            return
        if not TOKEN or not isinstance(request, dict) or not hmac.compare_digest(str(request.get("token", "")), TOKEN):
            return
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            child = os.fork()
            if child == 0:
                self.connection.close()
                run(request["script"], request["argv"], out, err)
            _, wait_status = os.waitpid(child, 0)
            status = os.waitstatus_to_exitcode(wait_status)
            # A signal's death reads as 128 + the signal, as a shell says.
            status = 128 - status if status < 0 else status
            out.seek(0)
            err.seek(0)
            answer = {
                "status": status,
                "stdout": base64.b64encode(out.read()).decode(),
                "stderr": base64.b64encode(err.read()).decode(),
            }
        self.wfile.write(json.dumps(answer).encode())


class Server(socketserver.ForkingMixIn, socketserver.TCPServer):
    allow_reuse_address = True
    request_queue_size = 64


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
