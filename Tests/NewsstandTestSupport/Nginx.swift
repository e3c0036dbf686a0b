import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real nginx on a free loopback port, with its own prefix, config and logs in a temporary
/// folder; started by a test and stopped (and its folder removed) by `stop()`.
///
/// Locations:
/// - `/` serves `root` as is, but for hidden names (`.newsstand-publish.json`, a publish's
///   temporary names): 404 everywhere but the `^~` locations below, as docs/publishing.md says
///   (`hiddenNamesLocation`).
/// - `/slow/` serves `root` at 100 KB/s for requests without a `Range` header (so that a test
///   can cancel a first download mid-way) and at full speed for resumed ones.
/// - `/norange/` serves `root` ignoring `Range` (`max_ranges 0`), slow like `/slow/` at first.
/// - `/broken/` answers 503 to everything.
/// - `/redirect/<scheme>/<port>/<path>` answers 302 to `<scheme>://127.0.0.1:<port>/<path>`
///   (`ftp`, `sftp`, `http`): a server sending a client to another protocol and host.
/// - `/dav/` is a WebDAV endpoint (PUT, DELETE, MKCOL, COPY, MOVE) writing into `root`.
/// - `/authdav/` is the same endpoint behind HTTP basic authentication (`davUser`, `davPassword`).
/// - `/authput/` is the same endpoint where GET and HEAD are open and every other method needs
///   that authentication (a server that lets anyone read and only its publisher write).
/// - with a `secureLinkSecret`, `/paid/` (a paid issue's content, `<BaseURL>paid/<name>/` for a
///   magazine served at `/`) answers only signed, unexpired URLs, configured as docs/publishing.md's
///   "Hosting paid issues" says; anything else there is 403; `/slowpaid/` is the same, slow
///   like `/slow/` (100 KB/s without `Range`), so that a link can expire mid-download.
public final class Nginx: Sendable {
    /// The one user `/authdav/` lets in, and its password.
    public static let davUser = "publisher"
    public static let davPassword = "right-horse-battery"
    /// `davPassword` hashed by `openssl passwd -apr1 -salt nstest01`, as nginx's `auth_basic_user_file` takes it.
    static let davPasswordHash = "$apr1$nstest01$e3WTGIJgdXkcqKJ/HhY071"

    public let prefix: URL
    public let root: URL
    public let port: Int
    /// The guard over the master (a `supervised` `TestChild`): the master and its worker are
    /// in the guard's process group, which ends with the test process. The worker is the
    /// master's child, which nginx does not tie to it, so the parent-death signal alone would
    /// leave it behind (`master_process off` would not, but a single-process nginx logs a cut
    /// connection only after the next request, which the download tests read).
    private let child: TestChild
    private let master: pid_t

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    public static var executable: String? {
        let candidates = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx", "/opt/homebrew/bin/nginx"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts nginx; retries with another port if the chosen one was taken meanwhile. With
    /// `secureLinkSecret`, `/paid/` needs a URL signed with it (`secure_link`).
    public convenience init(secureLinkSecret: String? = nil) throws {
        try self.init(secureLinkSecret: secureLinkSecret, ports: { try Self.freePort() })
    }

    /// Starts nginx on the ports `ports` gives, one per try (five tries): a test of the start
    /// itself gives a port that is already taken.
    public init(secureLinkSecret: String?, ports: () throws -> Int) throws {
        guard let executable = Self.executable else { throw TestFailure("nginx is not installed (make deps)") }
        prefix = try Shell.temporaryFolder("nginx")
        root = prefix.appendingPathComponent("htdocs")
        for folder in ["htdocs", "logs", "tmp"] {
            try FileManager.default.createDirectory(at: prefix.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try "\(Self.davUser):\(Self.davPasswordHash)\n".write(
            to: prefix.appendingPathComponent("htpasswd"), atomically: true, encoding: .utf8)
        var lastError = ""
        for _ in 0..<5 {
            let port = try ports()
            let config = prefix.appendingPathComponent("nginx.conf")
            try Self.config(prefix: prefix.path, root: root.path, port: port, secureLinkSecret: secureLinkSecret).write(
                to: config, atomically: true, encoding: .utf8)
            let child = try TestChild.start(
                executable, ["-p", prefix.path, "-c", config.path, "-e", prefix.appendingPathComponent("logs/error.log").path],
                outputLimit: 1 << 20, supervised: true)
            let pidFile = prefix.appendingPathComponent("nginx.pid")
            if let master = Self.waitUntilListening(port: port, child: child, pidFile: pidFile) {
                self.port = port
                self.child = child
                self.master = master
                return
            }
            child.stop()
            lastError = (try? String(contentsOf: prefix.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
        }
        try? FileManager.default.removeItem(at: prefix)
        throw TestFailure("nginx did not start: \(lastError)")
    }

    /// Stops nginx and removes its folder.
    public func stop() {
        child.stop()
        try? FileManager.default.removeItem(at: prefix)
    }

    /// Stops nginx but keeps its files (to make requests fail).
    public func pause() { child.stop() }

    /// The process id of nginx's master (the one its pid file names).
    public var processIdentifier: Int32 { master }

    /// Requests logged so far, with every request answered before this call among them
    /// (`settleLog()`; a cut connection is logged only once nginx notices the cut, see
    /// `requests(for:atLeast:)`).
    public func requests() -> [LoggedRequest] {
        settleLog()
        return loggedLines().compactMap { LoggedRequest(String($0)) }.filter { !$0.uri.hasPrefix(Self.barrierPrefix) }
    }

    /// Requests for one URI path, waiting (up to 5 s) until at least `count` are logged: nginx
    /// logs a cut connection only once it notices the cut.
    public func requests(for uri: String, atLeast count: Int = 1) -> [LoggedRequest] {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let matching = requests().filter { $0.uri == uri }
            if matching.count >= count || Date() > deadline { return matching }
            usleep(20_000)
        }
    }

    /// The `location` docs/publishing.md's "Hosting paid issues" gives, for a magazine served at `prefix`
    /// (`/`), with the secret in place of `<secret>`.
    public static func paidLocation(prefix: String = "/", secret: String) -> String {
        """
        location ^~ \(prefix)paid/ {
            secure_link $arg_md5,$arg_expires;
            secure_link_md5 "$secure_link_expires$uri \(secret)";
            if ($secure_link = "") { return 403; }
            if ($secure_link = "0") { return 403; }
            add_header Cache-Control "private, max-age=31536000, immutable";
        }
        """
    }

    /// `paidLocation` under `/slowpaid/`, at 100 KB/s for requests without `Range`.
    static func slowPaidLocation(secret: String) -> String {
        """
        location ^~ /slowpaid/ {
            secure_link $arg_md5,$arg_expires;
            secure_link_md5 "$secure_link_expires$uri \(secret)";
            if ($secure_link = "") { return 403; }
            if ($secure_link = "0") { return 403; }
            set $limit_rate 100k;
            if ($http_range) { set $limit_rate 0; }
        }
        """
    }

    /// docs/publishing.md's refusal of hidden names (the publish record, `.newsstand-publish.json`,
    /// and a publish's hidden temporary names sit in the served folder), word for word: the
    /// first regular expression, so no other one serves them.
    public static let hiddenNamesLocation = #"location ~ "(^|/)\." { return 404; }"#

    /// docs/publishing.md's cache-header locations ("Cache-safe names and cache headers"), which are
    /// regular expressions: a request matching one would be served without the paid
    /// location's check, were it not `^~`. (A regular expression with `{` is quoted, or nginx
    /// reads it as a block.)
    static let cacheLocations = """
        location ~ "\\.[0-9a-f]{8}(\\.index)?(@2x)?\\.(zip|hpub|png|jpe?g|json)$" { add_header Cache-Control "public, max-age=31536000, immutable"; }
        location ~ \\.(plist|json|xml)$ { add_header Cache-Control "no-cache"; }
        """

    private static func config(prefix: String, root: String, port: Int, secureLinkSecret: String?) -> String {
        """
        daemon off;
        \(geteuid() == 0 ? "user root;" : "")
        worker_processes 1;
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/logs/error.log;
        events { worker_connections 64; }
        http {
            types { application/zip zip; image/png png; application/xml plist; }
            default_type application/octet-stream;
            client_body_temp_path \(prefix)/tmp/client;
            proxy_temp_path \(prefix)/tmp/proxy;
            fastcgi_temp_path \(prefix)/tmp/fastcgi;
            uwsgi_temp_path \(prefix)/tmp/uwsgi;
            scgi_temp_path \(prefix)/tmp/scgi;
            log_format test '$status $body_bytes_sent $request_method $uri "$http_range"';
            access_log \(prefix)/logs/access.log test;
            server {
                listen 127.0.0.1:\(port);
                root \(root);
                \(Self.hiddenNamesLocation)
                location /slow/ {
                    alias \(root)/;
                    set $limit_rate 100k;
                    if ($http_range) { set $limit_rate 0; }
                }
                location /norange/ {
                    alias \(root)/;
                    max_ranges 0;
                    set $limit_rate 100k;
                    if ($http_range) { set $limit_rate 0; }
                }
                location /paced/ {
                    alias \(root)/;
                    limit_rate 5m;
                }
                location /broken/ { return 503; }
                location ~ ^/redirect/(ftp|sftp|http)/([0-9]+)/(.*)$ { return 302 $1://127.0.0.1:$2/$3; }
                \(Self.barrierLocation)
                \(secureLinkSecret.map { Self.paidLocation(secret: $0) + "\n" + Self.slowPaidLocation(secret: $0) + "\n" + Self.cacheLocations } ?? "")
                # One validator each (no Last-Modified sent nor If-Modified-Since heeded, or no
                # ETag): a conditional GET must work with either alone.
                location /etag-only/ {
                    alias \(root)/;
                    if_modified_since off;
                    add_header Last-Modified "";  # an empty value removes nginx's own header
                }
                location /modified-only/ {
                    alias \(root)/;
                    etag off;
                }
                location ^~ /dav/ {
                    alias \(root)/;
                    dav_methods PUT DELETE MKCOL COPY MOVE;
                    create_full_put_path on;
                    dav_access user:rw group:r all:r;
                    client_max_body_size 0;
                }
                location ^~ /authdav/ {
                    alias \(root)/;
                    dav_methods PUT DELETE MKCOL COPY MOVE;
                    create_full_put_path on;
                    dav_access user:rw group:r all:r;
                    client_max_body_size 0;
                    auth_basic "newsstand tests";
                    auth_basic_user_file \(prefix)/htpasswd;
                }
                location ^~ /authput/ {
                    alias \(root)/;
                    dav_methods PUT DELETE MKCOL COPY MOVE;
                    create_full_put_path on;
                    dav_access user:rw group:r all:r;
                    client_max_body_size 0;
                    limit_except GET HEAD {
                        auth_basic "newsstand tests";
                        auth_basic_user_file \(prefix)/htpasswd;
                    }
                }
            }
        }
        """
    }

    /// A loopback port nobody listens on now (the kernel's choice for port 0); another process
    /// may take it before it is used.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        defer { close(fd) }
        guard let port = LoopbackListener.bindLoopback(fd) else { throw TestFailure("bind() failed") }
        return port
    }

    /// Waits until this nginx holds `port`. A connection alone does not tell: when another
    /// server took the port between `freePort()` and nginx's bind, that server answers while
    /// this nginx retries its bind for 2.5 s before it exits, and a test would talk to another
    /// test's nginx (and read its own, empty, log). nginx writes its pid file only once every
    /// listening socket is bound, so the file naming this master (the guard's child) is the
    /// proof. Returns the master's process id, nil when nginx did not start.
    private static func waitUntilListening(port: Int, child: TestChild, pidFile: URL) -> pid_t? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !child.hasExited {
            let written = (try? String(contentsOf: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let master = written.flatMap({ pid_t($0) }), ProcessStatus(pid: master)?.parent == child.pid,
                canConnect(port: port)
            {
                return master
            }
            usleep(10_000)
        }
        return nil
    }

    public static func canConnect(port: Int) -> Bool {
        guard let fd = connectedSocket(port: port) else { return false }
        close(fd)
        return true
    }

    /// A TCP socket connected to 127.0.0.1:`port` (the caller closes it), or nil.
    static func connectedSocket(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(fd)
            return nil
        }
        return fd
    }
}

/// One access-log line: `$status $body_bytes_sent $request_method $uri "$http_range"`.
public struct LoggedRequest: Equatable, Sendable {
    public var status: Int
    public var bytesSent: Int
    public var method: String
    public var uri: String
    /// The `Range` header, nil when there was none.
    public var range: String?

    public init?(_ line: String) {
        let parts = line.split(separator: " ", maxSplits: 4)
        guard parts.count == 5, let status = Int(parts[0]), let bytes = Int(parts[1]) else { return nil }
        self.status = status
        bytesSent = bytes
        method = String(parts[2])
        uri = String(parts[3])
        let quoted = parts[4].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        range = quoted == "-" ? nil : quoted
    }
}

/// A failure in the test harness itself.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Nginx {
    /// A copy of the repository's sample magazine in `folder`, with its BaseURL pointing at this
    /// server, so that what it builds and publishes is what this server serves.
    public func sampleMagazine(in folder: URL) throws -> URL {
        let magazine = folder.appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        let settings = magazine.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8)
            .replacingOccurrences(of: "http://localhost:8080/aurora/", with: baseURL.absoluteString)
            .write(to: settings, atomically: true, encoding: .utf8)
        return magazine
    }
}
