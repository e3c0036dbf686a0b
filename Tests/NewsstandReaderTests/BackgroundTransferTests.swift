import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandAria2
@testable import NewsstandReader

/// Background downloads through the lifecycle: handed to an engine, persisted, and adopted by a
/// library that remembers nothing else (a relaunch), against a real aria2 daemon and against an
/// engine scripted to misbehave as an OS transfer service may.
@Suite("Background transfers", .timeLimit(.minutes(3)), .tags(.needsServer))
struct BackgroundTransferTests {
    /// Counts every install the library reports (analytics), across library instances.
    final class Installs: AnalyticsSink {
        let counts = Locked<[String: Int]>([:])
        func record(_ event: AnalyticsEvent) {
            if case .issueDownloaded(let name, _) = event { counts.withLock { $0[name, default: 0] += 1 } }
        }
    }

    static func aria2(_ bed: Testbed) -> Aria2Configuration {
        var configuration = Aria2Configuration()
        configuration.stopWithProcess = getpid()
        configuration.pollInterval = 0.1
        configuration.retryWait = 0
        configuration.startTimeout = 30
        return configuration
    }

    static func killDaemons(_ bed: Testbed) {
        let settings = bed.libraryFolder.appendingPathComponent("Engines/aria2/\(Aria2Settings.fileName)").path
        for pid in Aria2Platform.processes(withArgument: "--conf-path=" + settings) { kill(pid, SIGKILL) }
    }

    /// Four downloads handed to aria2, the library closed while they run; a new library (a
    /// relaunch) adopts them: each installed once, fetched once.
    @Test func downloadsHandedToAria2AreAdoptedByTheNextLibraryWithoutFetchingAgain() async throws {
        try await Testbed.with { bed in
            defer { Self.killDaemons(bed) }
            let specs = (1...4).map {
                Testbed.IssueSpec(
                    "b-\($0)", day: $0, normal: Testbed.IssueSpec.pages(scale: "", seed: $0), location: $0 % 2 == 0 ? "slow/" : ""
                )
            }
            try bed.publish(specs)
            let installs = Installs()
            let first = try bed.library { $0.analytics = installs }
            try await first.refresh(from: bed.catalogURL)
            await first.useBackgroundEngine(.custom(Aria2Engine(in: first, configuration: Self.aria2(bed))))
            for spec in specs { try await first.startBackgroundDownload(spec.name) }
            #expect(await first.issue(named: "b-2")?.status != IssueStatus.none, "shown downloading")
            // The app is gone; the daemon is not.
            await first.close()

            for spec in specs {
                let path = "/\(spec.location)\(spec.name)/\(spec.name).zip"
                try #require(
                    BackgroundProcess.poll(timeout: 90) { bed.nginx.requests().contains { $0.uri == path && $0.status == 200 } },
                    "aria2 fetched \(path)")
            }
            let second = try bed.library { $0.analytics = installs }
            var result = await second.useBackgroundEngine(.custom(Aria2Engine(in: second, configuration: Self.aria2(bed))))
            // Until every transfer has ended, within a minute (a loaded machine's installs, each
            // with its fsyncs, can take seconds apiece).
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, await !second.backgroundTransfers.isEmpty {
                try await Task.sleep(nanoseconds: 100_000_000)
                result = await second.reconcileTransfers()
            }
            let left = await second.backgroundTransfers
            #expect(left.isEmpty, "\(left); \(result)")
            for spec in specs {
                let why = await second.lastTransferError(of: spec.name) ?? "no error recorded"
                #expect(await second.issue(named: spec.name)?.status == .available, "\(spec.name): \(why); \(result)")
                let fetched = bed.nginx.requests().filter { $0.uri == "/\(spec.location)\(spec.name)/\(spec.name).zip" }
                // Once whole (a 206 continuing a cut connection is not a second fetch).
                #expect(fetched.filter { $0.status == 200 }.count == 1, "\(spec.name) fetched once: \(fetched); \(result)")
            }
            #expect(
                installs.counts.current == Dictionary(uniqueKeysWithValues: specs.map { ($0.name, 1) }), "each installed once")
            #expect(try await LibraryInvariants.violations(of: second, in: bed, allowsDownloading: false) == [])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
                    == [])
            #expect(await second.stopBackgroundEngineIfIdle())
            await second.close()
        }
    }
}
