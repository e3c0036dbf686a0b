import Foundation
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// The nginx lines the reference gives (docs/reference/cache-headers.md, written from
/// `CacheRules`) are a configuration nginx accepts (`nginx -t`), and the table gives every kind
/// of file the header its kind needs.
@Suite(.tags(.needsTools)) struct CacheHeadersNginxTests {
    @Test func nginxAcceptsTheGeneratedLines() throws {
        let executable = try #require(Nginx.executable, "nginx is not installed (make deps)")
        let prefix = try Shell.temporaryFolder("nginx-cache-headers")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let config = prefix.appendingPathComponent("nginx.conf")
        try """
        pid \(prefix.path)/nginx.pid;
        error_log \(prefix.path)/logs/error.log;
        events { }
        http {
            \(CacheRules.nginxTypes)
            access_log off;
            server {
                listen 127.0.0.1:1;
                root \(prefix.path);
                \(CacheRules().nginxLocations(prefix: "/magazine/"))
            }
        }
        """.write(to: config, atomically: true, encoding: .utf8)
        let result = try Shell.run(executable, ["-t", "-p", prefix.path, "-c", config.path])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
