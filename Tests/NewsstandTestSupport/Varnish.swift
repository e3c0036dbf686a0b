import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real cache in front of an origin, standing in for a CDN: Debian's Varnish (`make deps`)
/// with nothing but a backend, so its built-in rules decide as a CDN's defaults do (it keeps
/// what `Cache-Control` lets a shared cache keep, for `max-age`/`s-maxage`; never `no-cache`,
/// `private` or `no-store` answers, nor requests with `Authorization` or cookies; no per-path
/// rule). Runs in the foreground (`-F`) as a `supervised` `TestChild`, so its manager and the
/// cache process it forks die with the test process; its working folder (`-n`) and config
/// are a temporary folder of its own. It binds port 0 itself and reports the port it got
/// (`varnishadm debug.listen_address`): no other process can take it between.
public final class Varnish: Sendable {
    private let child: TestChild
    /// Its working folder (`varnishd -n`).
    public let workFolder: URL
    public let port: Int

    /// `http://127.0.0.1:<port>/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    public static var executable: String? {
        ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts Varnish in front of `127.0.0.1:originPort`; with `defaultTTL`, what it keeps an
    /// answer without `Cache-Control` for (its `default_ttl`, 120 s by default; CloudFront's
    /// "Default TTL"), which also applies after a revalidation answered 304 without one.
    public init(originPort: Int, defaultTTL: Int? = nil) throws {
        guard let executable = Self.executable else { throw TestFailure("varnishd is not installed (make deps)") }
        let folder = try Shell.temporaryFolder("varnish")
        // Varnish's cache process runs as its own user, which must reach the folder.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: folder.deletingLastPathComponent().path)
        let vcl = folder.appendingPathComponent("cdn.vcl")
        try """
        vcl 4.1;
        backend origin { .host = "127.0.0.1"; .port = "\(originPort)"; }
        """.write(to: vcl, atomically: true, encoding: .utf8)
        workFolder = folder.appendingPathComponent("work")
        child = try TestChild.start(
            executable,
            [
                "-F", "-f", vcl.path, "-a", "127.0.0.1:0", "-T", "127.0.0.1:0", "-n", workFolder.path, "-s", "malloc,32m",
            ] + (defaultTTL.map { ["-p", "default_ttl=\($0)"] } ?? []), outputLimit: 1 << 20, supervised: true)
        let deadline = Date().addingTimeInterval(30)
        while true {
            if child.hasExited {
                throw TestFailure("varnishd did not start: \(String(decoding: child.errorOutput + child.output, as: UTF8.self))")
            }
            if let result = try? Shell.run("varnishadm", ["-n", workFolder.path, "debug.listen_address"]), result.status == 0,
                let port = result.stdout.split(separator: " ").last.flatMap({
                    Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
                })
            {
                self.port = port
                return
            }
            if Date() > deadline {
                child.stop(grace: 0)
                throw TestFailure("varnishd did not report its address within 30 s")
            }
            usleep(50_000)
        }
    }

    /// Stops Varnish (its cache process with it).
    public func stop() { child.stop(grace: 2) }

    /// A counter of `varnishstat` (`MAIN.backend_req`: requests sent to the origin;
    /// `MAIN.cache_hit`, `MAIN.cache_miss`).
    public func counter(_ name: String) throws -> Int {
        let result = try Shell.run("varnishstat", ["-n", workFolder.path, "-1", "-f", name])
        let fields = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let value = Int(fields[1]) else {
            throw TestFailure("varnishstat: no \(name): \(result.stderr)")
        }
        return value
    }
}
