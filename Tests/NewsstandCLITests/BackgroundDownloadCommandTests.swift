import Foundation
import NewsstandCLI
import NewsstandTestSupport
import Testing

/// `newsstand library … download --background`: the download is aria2's, outside every newsstand
/// process; the next command adopts it.
@Suite(.timeLimit(.minutes(3)), .tags(.needsServer)) struct BackgroundDownloadCommandTests {
    /// The aria2 daemons of a library folder (by their settings file's path on the command line).
    static func daemons(of shelf: String) -> [String] {
        let found = (try? Shell.run("pgrep", ["-f", "--", "--conf-path=\(shelf)/Engines/aria2/"]).stdout) ?? ""
        return found.split(separator: "\n").map(String.init)
    }

    static func killDaemons(of shelf: String) {
        for pid in daemons(of: shelf) { _ = try? Shell.run("kill", ["-9", pid]) }
    }

    @Test func aBackgroundDownloadOutlivesNewsstandAndTheNextCommandInstallsIt() async throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let work = try Shell.temporaryFolder("library-background")
        let magazine = try nginx.sampleMagazine(in: work)
        #expect(try Shell.run(Shell.newsstand, ["build", magazine.path, "--output", nginx.root.path]).status == 0)
        let bundle = try BuiltIssue("a-3", in: nginx.root).bundle
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: nginx.root.appendingPathComponent("a-3/\(bundle)").path)[.size]
                as? Int)
        // Through the slow location (100 KB/s): still arriving when the command has exited.
        try LibraryCommandTests.editCatalog(
            nginx.root,
            """
            for e in entries:
                if e["Name"] == "a-3": e["Content"] = e["Content"].replace("/a-3/", "/slow/a-3/")
            """)
        let shelf = work.appendingPathComponent("shelf").path
        defer { Self.killDaemons(of: shelf) }
        let catalog = nginx.baseURL.absoluteString + "issues.plist"
        #expect(try Shell.run(Shell.newsstand, ["library", shelf, "refresh", catalog]).status == 0)

        let handed = try Shell.run(Shell.newsstand, ["library", shelf, "download", "a-3", "--background"])
        #expect(handed.status == 0, "\(handed.stderr)")
        #expect(handed.stdout == "a-3: handed to the background engine\n")
        // No newsstand process runs now; the daemon does, and it downloads on.
        #expect(!Self.daemons(of: shelf).isEmpty, "aria2 runs after newsstand exited")
        let listed = try Shell.run(Shell.newsstand, ["library", shelf, "list", "--format", "json"])
        let issues = try JSONDocument.decode([LibraryJSON.Issue].self, from: listed.stdout, escapesSlashes: false)
        #expect(["queued", "transferring"].contains(issues.first { $0.name == "a-3" }?.background ?? ""), "\(listed.stdout)")

        let path = "/slow/a-3/\(bundle)"
        try #require(
            BackgroundProcess.poll(timeout: 120) {
                nginx.requests().contains { $0.uri == path && $0.status == 200 && $0.bytesSent >= size }
            },
            "the daemon finished the bundle")
        let adopted = try Shell.run(Shell.newsstand, ["library", shelf, "list"])
        #expect(adopted.status == 0, "\(adopted.stdout) \(listed.stderr) \(listed.stdout)")
        #expect(
            adopted.stderr == "newsstand library: a-3: installed from the background download\n",
            "list: \(adopted.stdout); during: \(listed.stdout) \(listed.stderr)")
        #expect(adopted.stdout.contains("a-3\t2026-09-01\tavailable\t"))
        #expect(
            nginx.requests().filter { $0.uri == path }.count == 1, "the bundle was fetched once: \(nginx.requests().map(\.uri))")
        #expect(FileManager.default.fileExists(atPath: "\(shelf)/Issues/a-3/1-0.png"))
        let downloads = try FileManager.default.contentsOfDirectory(atPath: "\(shelf)/Downloads")
        #expect(downloads.isEmpty, "no received or part file is left: \(downloads)")
        let again = try Shell.run(Shell.newsstand, ["library", shelf, "list"])
        #expect(again.stderr.isEmpty, "adopted once")
        #expect(try BackgroundProcess.poll(timeout: 30) { Self.daemons(of: shelf).isEmpty }, "the idle daemon was stopped")
    }

    @Test func cancelStopsABackgroundDownload() async throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let work = try Shell.temporaryFolder("library-background-cancel")
        let magazine = try nginx.sampleMagazine(in: work)
        #expect(try Shell.run(Shell.newsstand, ["build", magazine.path, "--output", nginx.root.path]).status == 0)
        try LibraryCommandTests.editCatalog(
            nginx.root,
            """
            for e in entries:
                e["Content"] = e["Content"].replace("/" + e["Name"] + "/", "/slow/" + e["Name"] + "/")
            """)
        let shelf = work.appendingPathComponent("shelf").path
        defer { Self.killDaemons(of: shelf) }
        #expect(
            try Shell.run(Shell.newsstand, ["library", shelf, "refresh", nginx.baseURL.absoluteString + "issues.plist"]).status
                == 0)
        #expect(try Shell.run(Shell.newsstand, ["library", shelf, "download", "--latest", "--background"]).status == 0)
        let cancelled = try Shell.run(Shell.newsstand, ["library", shelf, "cancel", "a-3"])
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        #expect(cancelled.stdout == "a-3: background download cancelled\n")
        let listed = try Shell.run(Shell.newsstand, ["library", shelf, "list"])
        #expect(listed.stdout.contains("a-3\t2026-09-01\tnone\t"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("background:"))
        #expect(
            try Shell.run(Shell.newsstand, ["library", shelf, "cancel", "a-3"]).stdout
                == "a-3: no background download to cancel\n")
        #expect(try Shell.run(Shell.newsstand, ["library", shelf, "list", "--background"]).status == 2)
    }
}
