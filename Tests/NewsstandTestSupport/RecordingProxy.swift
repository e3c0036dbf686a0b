import Foundation

/// An HTTP proxy in Python in front of a server (nginx's WebDAV): it records every request it
/// receives (method, path, every header) and can answer one request with a 500 instead of
/// forwarding it, so a test can fail each step of a publish in turn and see exactly what a
/// client sent (where a password went).
public final class RecordingProxy: @unchecked Sendable {  // safe: `generation` changes only in `fail`, between requests
    private let server: PythonServer
    private let control: URL
    private var generation = 0
    /// The port to send requests to.
    public var port: Int { server.port }

    /// One request the proxy received.
    public struct Request: Sendable, Equatable {
        public var method: String
        public var path: String
        public var headers: [(name: String, value: String)]

        public static func == (a: Request, b: Request) -> Bool {
            a.method == b.method && a.path == b.path
                && a.headers.map { "\($0.name): \($0.value)" } == b.headers.map { "\($0.name): \($0.value)" }
        }
    }

    /// Starts a proxy to `upstream` (a port on 127.0.0.1).
    public init(upstream: Int) throws {
        control = try Shell.temporaryFolder("proxy")
        server = try PythonServer(script: Self.script, arguments: [String(upstream), control.path])
    }

    public func stop() { server.stop() }

    /// From now on, answer the `n`th request (counted from this call, from 1) with HTTP 500
    /// without forwarding it; nil forwards everything. Also forgets the requests recorded.
    public func fail(requestNumber n: Int?) throws {
        generation += 1
        let rules: [String: Any] = ["generation": generation, "failAt": n ?? 0]
        try JSONSerialization.data(withJSONObject: rules).write(to: control.appendingPathComponent("rules.json"))
    }

    /// The requests received since the last `fail(requestNumber:)`, in order.
    public func requests() -> [Request] {
        let log = (try? String(contentsOf: control.appendingPathComponent("log.jsonl"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["generation"] as? Int == generation,
                let method = object["method"] as? String, let path = object["path"] as? String,
                let headers = object["headers"] as? [[String]]
            else { return nil }
            return Request(method: method, path: path, headers: headers.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil })
        }
    }

    private static let script = """
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
                            "path": self.path, "headers": [[k, v] for k, v in self.headers.items()]}) + "\\n")
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
        """
}

/// What a reader gets from a served magazine: fetches the catalog at a URL and every bundle and
/// cover it lists (both sizes) with Python's urllib, and compares each body's size and SHA-256
/// with what the catalog says; so too each bundle index it lists (`ContentIndex`, both sizes),
/// which must also describe the bundle the catalog lists (its size and SHA-256); checks that
/// every URL in a `shelf.json` beside it answers.
public enum ServedMagazine {
    /// The entries in the served catalog, and every mismatch found (empty when consistent).
    /// `requiringIndexes`: an entry without `ContentIndex` is a problem too.
    public static func check(catalog: URL, requiringIndexes: Bool = false) throws -> (names: [String], problems: [String]) {
        let result = try Shell.python(script, [catalog.absoluteString, requiringIndexes ? "indexes" : ""])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let names = object["names"] as? [String], let problems = object["problems"] as? [String]
        else { throw TestFailure("the served-magazine check failed: \(result.stdout) \(result.stderr)") }
        return (names, problems)
    }

    private static let script = """
        import hashlib, json, plistlib, sys, urllib.error, urllib.request
        catalog = sys.argv[1]
        problems = []
        def fetch(url):
            request = urllib.request.Request(url, headers={"Cache-Control": "no-cache"})
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.read()
            except urllib.error.HTTPError as error:
                problems.append("%s: HTTP %d" % (url, error.code))
            except Exception as error:
                problems.append("%s: %s" % (url, error))
            return None
        def retina(url):
            head, _, last = url.rpartition("/")
            stem, dot, ext = last.rpartition(".")
            return head + "/" + (stem + "@2x." + ext if dot else last + "@2x")
        data = fetch(catalog)
        entries = plistlib.loads(data) if data is not None else []
        for entry in entries:
            for key, retinaURL, size_key, sha_key in [("Content", False, "ContentSize", "ContentSHA256"),
                    ("Content", True, "RetinaContentSize", "RetinaContentSHA256"),
                    ("Cover", False, None, "CoverSHA256"), ("Cover", True, None, "RetinaCoverSHA256")]:
                url = retina(entry[key]) if retinaURL else entry[key]
                body = fetch(url)
                if body is None:
                    continue
                if size_key and len(body) != entry[size_key]:
                    problems.append("%s: %d bytes, the catalog says %d" % (url, len(body), entry[size_key]))
                if hashlib.sha256(body).hexdigest() != entry[sha_key]:
                    problems.append("%s: SHA-256 %s, the catalog says %s" % (url, hashlib.sha256(body).hexdigest(), entry[sha_key]))
            if "ContentIndex" not in entry:
                if sys.argv[2] == "indexes":
                    problems.append("%s: no ContentIndex" % entry["Name"])
                continue
            for retinaURL, prefix in [(False, ""), (True, "Retina")]:
                url = retina(entry["ContentIndex"]) if retinaURL else entry["ContentIndex"]
                body = fetch(url)
                if body is None:
                    continue
                if len(body) != entry[prefix + "ContentIndexSize"]:
                    problems.append("%s: %d bytes, the catalog says %d" % (url, len(body), entry[prefix + "ContentIndexSize"]))
                if hashlib.sha256(body).hexdigest() != entry[prefix + "ContentIndexSHA256"]:
                    problems.append("%s: SHA-256 differs from the catalog's" % url)
                try:
                    bundle = json.loads(body)["bundle"]
                except Exception as error:
                    problems.append("%s: not an index: %s" % (url, error))
                    continue
                if bundle["size"] != entry[prefix + "ContentSize"] or bundle["sha256"] != entry[prefix + "ContentSHA256"]:
                    problems.append("%s: describes another bundle than the catalog's" % url)
        shelf_url = catalog.rpartition("/")[0] + "/shelf.json"
        try:
            with urllib.request.urlopen(shelf_url, timeout=30) as response:
                shelf = json.loads(response.read())
        except urllib.error.HTTPError:
            shelf = []
        for item in shelf:
            for url in (item["url"], item["cover"]):
                fetch(url)
        print(json.dumps({"names": [entry["Name"] for entry in entries], "problems": problems}))
        """
}
