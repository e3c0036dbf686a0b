import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Issue 13's stress test of the reader: 50 issues served by nginx, downloads started,
/// cancelled, resumed and removed at random from several tasks for a bounded time, then the
/// invariants; and the same shelf after a `kill -9` of a child process at a random moment.
/// `NEWSSTAND_STRESS_SECONDS` sets the time (default 12 s, so that `make test` stays short).
@Suite("Reader stress", .timeLimit(.minutes(1)), .tags(.needsServer))
struct StressTests {
    static var seconds: Double {
        ProcessInfo.processInfo.environment["NEWSSTAND_STRESS_SECONDS"].flatMap(Double.init) ?? 12
    }

    /// Publishes `count` issues (bundles of 40-120 KB, half behind nginx's slow location) with
    /// one Python run, and a catalog with their sizes and checksums.
    static func publish(_ count: Int, on bed: Testbed) throws {
        let made = try Shell.python(
            """
            import os, random, sys, zipfile
            root = sys.argv[1]
            for n in range(1, int(sys.argv[2]) + 1):
                name = "s-%02d" % n
                os.makedirs(os.path.join(root, name), exist_ok=True)
                for scale in ("", "@2x"):
                    rng = random.Random(n * 7 + len(scale))
                    with zipfile.ZipFile(os.path.join(root, name, name + scale + ".zip"), "w") as z:
                        z.writestr("pages.plist", "<plist><array/></plist>")
                        for page in range(3):
                            z.writestr("%d-0%s.png" % (page, scale), rng.randbytes(rng.randrange(10_000, 40_000)))
                    open(os.path.join(root, name, "cover" + scale + ".png"), "w").write("cover " + name)
            """, [bed.nginx.root.path, String(count)])
        guard made.status == 0 else { throw TestFailure(made.stderr) }
        let base = bed.nginx.baseURL.absoluteString
        let entries = try (1...count).map { n -> CatalogEntry in
            let name = String(format: "s-%02d", n)
            let location = n.isMultiple(of: 2) ? "slow/" : ""
            var entry = CatalogEntry(
                name: name, title: name, date: Date(timeIntervalSince1970: Double(n) * 86_400),
                cover: base + location + name + "/cover.png", content: base + location + name + "/\(name).zip")
            let bundle = bed.nginx.root.appendingPathComponent("\(name)/\(name).zip")
            entry.contentSize = try Data(contentsOf: bundle).count
            entry.contentSHA256 = try SHA256.hex(ofFileAt: bundle)
            return entry
        }
        try bed.writeCatalog(entries)
    }

    /// Failures a random mix of operations may meet; anything else is a finding.
    static func isExpected(_ error: LibraryError) -> Bool {
        switch error {
        case .cancelled, .unknownIssue: true
        default: false
        }
    }

    @Test func randomDownloadsCancelsResumesAndRemovesKeepTheLibrarySound() async throws {
        try await Testbed.with { bed in
            let count = 50
            try Self.publish(count, on: bed)
            let library = try bed.library { $0.maxConcurrentDownloads = 3 }
            try await library.refresh(from: bed.catalogURL)
            let names = (1...count).map { String(format: "s-%02d", $0) }
            let deadline = Date().addingTimeInterval(Self.seconds)
            let findings = try await withThrowingTaskGroup(of: [String].self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        var findings: [String] = []
                        var rng = SystemRandomNumberGenerator()
                        var operations = 0
                        while Date() < deadline {
                            operations += 1
                            let name = names.randomElement(using: &rng) ?? "s-01"
                            do {
                                switch Int.random(in: 0..<10, using: &rng) {
                                case 0...2:
                                    try await library.startDownload(name)
                                case 3...4:
                                    // A download this task waits for, cancelled after a random moment.
                                    let download = Task { try await library.download(name) }
                                    try await Task.sleep(nanoseconds: UInt64.random(in: 0...300_000_000, using: &rng))
                                    download.cancel()
                                    _ = try? await download.value
                                case 5...6:
                                    await library.cancelDownload(name)
                                case 7:
                                    try await library.remove(name)
                                case 8:
                                    _ = await library.resumePendingDownloads()
                                default:
                                    try await Task.sleep(nanoseconds: UInt64.random(in: 0...50_000_000, using: &rng))
                                }
                            } catch let error as LibraryError {
                                if !Self.isExpected(error) { findings.append("worker \(worker): \(name): \(error)") }
                            }
                        }
                        return findings + (operations > 0 ? [] : ["worker \(worker) did nothing"])
                    }
                }
                var all: [String] = []
                for try await found in group { all += found }
                return all
            }
            #expect(findings == [])
            // Stop what still runs: every issue is then none or available, none stuck downloading.
            for name in names { await library.cancelDownload(name) }
            #expect(await library.pendingDownloads == [], "nothing stuck downloading")
            #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])

            // What is left downloads in full (resuming partial files), and everything matches.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in names { group.addTask { try await library.download(name) } }
                try await group.waitForAll()
            }
            #expect(await library.issues.allSatisfy { $0.status == .available })
            #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
        }
    }

    @Test func aChildKilledAtARandomMomentLeavesASoundLibrary() async throws {
        try await Testbed.with { bed in
            try Self.publish(50, on: bed)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            await library.close()
            let child = try BackgroundProcess(Shell.newsstand, ["library", bed.libraryFolder.path, "download", "--all"])
            try await Task.sleep(nanoseconds: UInt64(Double.random(in: 0.2...min(4, Self.seconds)) * 1e9))
            child.killNow()
            _ = await BlockingWork.run { child.wait() }
            let reopened = try bed.library()
            #expect(try await LibraryInvariants.violations(of: reopened, in: bed, allowsDownloading: true) == [])
            let pending = await reopened.resumePendingDownloads()
            for name in pending { try await reopened.download(name) }
            for issue in await reopened.issues where issue.status != .available { try await reopened.download(issue.name) }
            #expect(try await LibraryInvariants.violations(of: reopened, in: bed, allowsDownloading: false) == [])
        }
    }
}
