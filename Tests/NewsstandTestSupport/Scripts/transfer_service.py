# A stand-in for the OS transfer service (iOS's nsurlsessiond), in a process of its own, as
# Apple documents background URLSessions to behave:
# - it keeps downloading after the app's process is gone;
# - it relaunches the app (runs `app library service wake`) when events are waiting and no app
#   is running, and counts the wake's completion-handler calls;
# - a finished file exists only until the app says it handled the event: then it is deleted;
# - task identifiers start again at 1 every time an app connects (a new session object), so
#   only a task's description identifies it;
# - a failure with bytes received gives resume data (offset, validator, the partial file);
# - a force-quit cancels every task, relaunches nothing, and reports each as cancelled
#   (reason: the user force-quit) once the user opens the app again;
# - faults on demand: a finished event delivered twice, a stale generation's finished event, a
#   404 body delivered as a finished file, the app killed inside the hand-off (the task is
#   then over and its file deleted, as on iOS), a connection cut after the first 64 KB
#   (a failure with resume data), and a task held before its request until `release` (so
#   that a step the test takes meanwhile comes first whatever the machine's load).
#
# RPC: POST /<verb> with a JSON body, answered with JSON, on 127.0.0.1. Prints its port first.
import json, os, signal, subprocess, sys, threading, time, urllib.error, urllib.request, uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

folder, app, library = sys.argv[1], sys.argv[2], sys.argv[3]
tmp = os.path.join(folder, "tmp")
os.makedirs(tmp, exist_ok=True)
lock = threading.Condition()
tasks = {}        # description -> task (live or waiting for its events to be handled)
events = []       # undelivered events, in order
seq = [0]
faults = {}       # (kind, issue name) -> remaining count
stats = {"launches": 0, "wakes": 0, "completions": [], "tasks_created": 0, "gets": 0, "killed_in_hand_off": 0,
         "force_quits": 0, "deleted_files": 0}
app_pid = [None]  # the connected app's process id
wake = {"running": None, "number": 0, "all_delivered_sent": False}
suppressed = [False]  # after a force-quit: nothing is relaunched until the user opens the app
port = [0]


def alive(pid):
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][0] != "Z"
    except (OSError, IndexError):
        return False


def take_fault(kind, name):
    key = (kind, name)
    if faults.get(key, 0) > 0:
        faults[key] -= 1
        return True
    return False


def push(event):
    seq[0] += 1
    event["seq"] = seq[0]
    events.append(event)
    lock.notify_all()


def issue_name(description):
    return description.rpartition("#")[0]


def download(task):
    """Runs one task to its end: a finished event (whatever the status) or a failed one."""
    request = urllib.request.Request(task["url"])
    resume = task.get("resume")
    path = os.path.join(tmp, "CFNetworkDownload_%s.tmp" % uuid.uuid4().hex)
    offset = 0
    if resume and os.path.exists(resume["file"]):
        request.add_header("Range", "bytes=%d-" % resume["offset"])
        request.add_header("If-Range", resume["validator"])
    received, validator, status = 0, None, None
    try:
        with lock:
            while faults.get(("hold", issue_name(task["description"])), 0) > 0 and task["state"] == "running":
                lock.wait(0.05)
            if task["state"] != "running":
                raise InterruptedError()
            stats["gets"] += 1
        try:
            response = urllib.request.urlopen(request, timeout=30)
        except urllib.error.HTTPError as error:
            response = error
        status = response.status if hasattr(response, "status") else response.code
        validator = response.headers.get("ETag")
        total = None
        if status == 206 and resume:
            # As iOS: the bytes it had and the rest make one file; the response stays the 206.
            os.replace(resume["file"], path)
            offset = resume["offset"]
            total = (response.headers.get("Content-Range") or "").rpartition("/")[2]
        elif resume and os.path.exists(resume["file"]):
            os.remove(resume["file"])
        expected = response.headers.get("Content-Length")
        expected = int(expected) + offset if expected else None
        last = 0.0
        with open(path, "ab") as out:
            while True:
                with lock:
                    if task["state"] != "running":
                        raise InterruptedError()
                block = response.read(65536)
                if not block:
                    break
                out.write(block)
                received += len(block)
                with lock:
                    if take_fault("cut", issue_name(task["description"])):
                        raise ConnectionResetError("the connection was reset (the stand-in's fault)")
                now = time.monotonic()
                if now - last > 0.3:
                    last = now
                    with lock:
                        task["received"] = offset + received
                        if alive(app_pid[0]):
                            # Only the newest progress of a task waits to be delivered.
                            events[:] = [e for e in events if not (e["kind"] == "progress" and e["task"] == task["id"]
                                                                   and not e.get("delivered"))]
                            push({"kind": "progress", "task": task["id"], "description": task["description"],
                                  "received": offset + received, "expected": expected})
        with lock:
            if task["state"] != "running":
                raise InterruptedError()
            name = issue_name(task["description"])
            if take_fault("status404", name):
                with open(path, "wb") as out:
                    out.write(b"<html><body>404 Not Found</body></html>")
                status = 404
            task["state"] = "finished"
            push({"kind": "finished", "task": task["id"], "description": task["description"], "status": status,
                  "file": path, "total": int(total) if total and total.isdigit() else None})
            if take_fault("duplicate", name):
                twin = path + ".dup"
                with open(path, "rb") as source, open(twin, "wb") as out:
                    out.write(source.read())
                push({"kind": "finished", "task": task["id"], "description": task["description"], "status": status,
                      "file": twin})
            generation = int(task["description"].rpartition("#")[2])
            if generation > 1 and take_fault("stale", name):
                stale = path + ".stale"
                with open(path, "rb") as source, open(stale, "wb") as out:
                    out.write(source.read())
                push({"kind": "finished", "task": 999, "description": "%s#%d" % (name, generation - 1),
                      "status": 200, "file": stale})
    except InterruptedError:
        if os.path.exists(path):
            os.remove(path)
    except Exception as error:  # the network failed: resume data when there is something to resume
        with lock:
            if task["state"] != "running":
                return
            task["state"] = "failed"
            data = None
            if received + offset > 0 and validator:
                data = {"url": task["url"], "offset": offset + received, "validator": validator, "file": path}
            elif os.path.exists(path):
                os.remove(path)
            push({"kind": "failed", "task": task["id"], "description": task["description"], "error": str(error),
                  "resume": data})


def relauncher():
    """Relaunches the app with its session's events, one wake at a time, as iOS does."""
    while True:
        time.sleep(0.1)
        with lock:
            if wake["running"] is not None or suppressed[0] or alive(app_pid[0]):
                continue
            if not any(e["kind"] != "progress" for e in events):
                continue
            stats["wakes"] += 1
            stats["completions"].append(0)
            wake["number"] = stats["wakes"]
            wake["all_delivered_sent"] = False
            service = "http://127.0.0.1:%d/" % port[0]
            log = open(os.path.join(folder, "wake-%d.log" % wake["number"]), "wb")
            environment = dict(os.environ, STANDIN_INSTALLS=os.path.join(folder, "installs.log"))
            wake["running"] = subprocess.Popen([app, library, service, "wake"], stdout=log, stderr=log, env=environment)
            process = wake["running"]
        process.wait()
        with lock:
            wake["running"] = None
            if app_pid[0] == process.pid:
                app_pid[0] = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        answer = getattr(self, "verb_" + self.path.strip("/"))(body)
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def verb_connect(self, body):
        """A new session object in a new process: identifiers start again at 1."""
        with lock:
            app_pid[0] = body["pid"]
            # What an earlier process was given but never answered goes to this one.
            for event in events:
                event["delivered"] = False
            if body.get("user"):
                suppressed[0] = False
                stats["launches"] += 1
            live = [t for t in tasks.values() if t["state"] in ("running", "failed")]
            for number, task in enumerate(sorted(live, key=lambda t: t["description"]), start=1):
                task["id"] = number
            seq_ids = [t["id"] for t in live]
            return {"tasks": self.listing(), "next": max(seq_ids, default=0) + 1}

    def listing(self):
        return [{"id": t["id"], "description": t["description"], "state": t["state"], "received": t["received"],
                 "resumable": t.get("resumable", False)} for t in tasks.values() if t["state"] == "running"]

    def verb_list(self, body):
        with lock:
            return {"tasks": self.listing()}

    def verb_task(self, body):
        with lock:
            existing = tasks.get(body["description"])
            if existing and existing["state"] == "running":
                return {"id": existing["id"], "kept": True}
            number = max([t["id"] for t in tasks.values()], default=0) + 1
            task = {"id": number, "description": body["description"], "url": body["url"], "state": "running",
                    "received": 0, "resume": body.get("resume")}
            tasks[body["description"]] = task
            stats["tasks_created"] += 1
        threading.Thread(target=download, args=(task,), daemon=True).start()
        return {"id": number, "kept": False}

    def verb_cancel(self, body):
        with lock:
            task = tasks.get(body["description"])
            if task and task["state"] == "running":
                task["state"] = "cancelled"
                push({"kind": "failed", "task": task["id"], "description": task["description"], "error": "cancelled",
                      "resume": None})
            return {}

    def verb_events(self, body):
        """The next event for the connected app, waiting up to `wait` seconds; once a wake's
        events are all handled, `allDelivered` (urlSessionDidFinishEvents), once."""
        deadline = time.monotonic() + body.get("wait", 1)
        with lock:
            while True:
                for event in events:
                    if not event.get("delivered"):
                        event["delivered"] = True
                        if event["kind"] == "progress":
                            events.remove(event)  # nothing to answer for
                        return {"event": event}
                is_wake = wake["running"] is not None and wake["running"].pid == body["pid"]
                if is_wake and not events and not wake["all_delivered_sent"]:
                    wake["all_delivered_sent"] = True
                    return {"allDelivered": True}
                left = deadline - time.monotonic()
                if left <= 0:
                    return {}
                lock.wait(left)

    def verb_handling(self, body):
        """The app is inside the finished callback: the moment a kill during the hand-off hits."""
        with lock:
            event = next((e for e in events if e["seq"] == body["seq"]), None)
            if event and take_fault("killDuringHandOff", issue_name(event["description"])):
                stats["killed_in_hand_off"] += 1
                os.kill(body["pid"], signal.SIGKILL)
                self.finish_event(event)
            return {}

    def verb_handled(self, body):
        with lock:
            event = next((e for e in events if e["seq"] == body["seq"]), None)
            if event:
                self.finish_event(event)
            return {}

    def finish_event(self, event):
        """The delegate returned: a finished file is deleted, the task is over."""
        events.remove(event)
        if event["kind"] == "finished" and os.path.exists(event["file"]):
            os.remove(event["file"])
            stats["deleted_files"] += 1
        if event["kind"] in ("finished", "failed"):
            task = tasks.get(event["description"])
            if task and task["state"] != "running":
                del tasks[event["description"]]
        lock.notify_all()

    def verb_completion(self, body):
        with lock:
            if stats["completions"]:
                stats["completions"][-1] += 1
            return {}

    def verb_forcequit(self, body):
        """The user swiped the app away: every task cancelled, the app killed, nothing relaunched."""
        with lock:
            stats["force_quits"] += 1
            suppressed[0] = True
            if alive(app_pid[0]):
                os.kill(app_pid[0], signal.SIGKILL)
            for task in list(tasks.values()):
                if task["state"] == "running":
                    task["state"] = "cancelled"
                    push({"kind": "failed", "task": task["id"], "description": task["description"],
                          "error": "cancelled", "reason": 0, "resume": None})
            return {}

    def verb_release(self, body):
        """Lets every held task go on (the `hold` fault)."""
        with lock:
            for key in [key for key in faults if key[0] == "hold"]:
                del faults[key]
            lock.notify_all()
            return {}

    def verb_fault(self, body):
        with lock:
            faults[(body["kind"], body["name"])] = faults.get((body["kind"], body["name"]), 0) + body.get("count", 1)
            return {}

    def verb_stats(self, body):
        with lock:
            answer = dict(stats)
            answer["live"] = [t["description"] for t in tasks.values() if t["state"] == "running"]
            answer["pending_events"] = len([e for e in events if e["kind"] != "progress"])
            answer["files"] = sorted(os.listdir(tmp))
            answer["waking"] = wake["running"] is not None
            return answer


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
port[0] = server.server_address[1]
threading.Thread(target=relauncher, daemon=True).start()
print(port[0], flush=True)
server.serve_forever()
