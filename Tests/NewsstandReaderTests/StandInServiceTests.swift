import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The OS transfer service simulated honestly (#22): `transfer_service.py`, a process of its own,
/// downloads from nginx while the app's process (`StandInApp`) is killed, relaunches it with the
/// events, deletes a finished file once the callback returns, numbers tasks from 1 in every
/// session, and on a force-quit cancels everything and relaunches nothing; faults on demand.
/// After each run: every issue installed once and equal to its bundle, one completion-handler
/// call per wake, nothing half-installed, no stray files.
@Suite("Stand-in OS transfer service", .timeLimit(.minutes(3)), .tags(.needsServer))
struct StandInServiceTests {
    /// The app the service launches: `StandInApp`, built beside `newsstand`.
    static var app: String {
        URL(fileURLWithPath: Shell.newsstand).deletingLastPathComponent().appendingPathComponent("StandInApp").path
    }

    static func specs(_ count: Int) -> [Testbed.IssueSpec] {
        (1...count).map {
            Testbed.IssueSpec(
                "s-\($0)", day: $0, normal: Testbed.IssueSpec.pages(scale: "", imageBytes: 200_000, seed: $0), location: "slow/")
        }
    }

    /// `count` issues published and refreshed into a closed library, and the service over it.
    static func with(
        _ count: Int, _ body: (Testbed, TransferServiceStandIn, [Testbed.IssueSpec]) async throws -> Void
    ) async throws {
        try await Testbed.with { bed in
            let specs = Self.specs(count)
            try bed.publish(specs)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            await library.close()
            let service = try TransferServiceStandIn(library: bed.libraryFolder, app: Self.app)
            defer { service.stop() }
            try await body(bed, service, specs)
        }
    }

    /// How many times nginx sent the whole of `name`'s bundle. The service lists running tasks
    /// only, so a wake's reconcile, which asks before the wake's events come, waits for them
    /// (`LibraryConfiguration.eventGrace`, 120 s in the stand-in app's wakes, ended by the service's word that every event is delivered) rather than starting those transfers again.
    static func wholeFetches(of name: String, in bed: Testbed) -> Int {
        let bundle = bed.nginx.root.appendingPathComponent("\(name)/\(name).zip")
        let size = (try? FileManager.default.attributesOfItem(atPath: bundle.path)[.size] as? Int) ?? -1
        return bed.nginx.requests().filter { $0.uri == "/slow/\(name)/\(name).zip" && $0.bytesSent == size }.count
    }

    /// What every run must leave: each issue installed once and whole, every wake's completion
    /// handler called once, no file of the library's or the service's left over.
    static func checkInvariants(
        _ service: TransferServiceStandIn, _ stats: [String: Any], names: [String], in bed: Testbed
    ) async throws {
        let story = "\(stats)\n\(service.wakeLogs)"
        #expect(service.installCounts == Dictionary(uniqueKeysWithValues: names.map { ($0, 1) }), "installed once: \(story)")
        let completions = stats["completions"] as? [Int] ?? []
        #expect(completions.allSatisfy { $0 == 1 }, "one completion-handler call per wake: \(story)")
        #expect((stats["files"] as? [String])?.isEmpty == true, "the service deleted every file: \(story)")
        let library = try bed.library()
        #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
        for name in names { #expect(await library.issue(named: name)?.status == .available, "\(name): \(story)") }
        let downloads = try FileManager.default.contentsOfDirectory(
            atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
        #expect(downloads.isEmpty, "no part or received file left: \(downloads)")
        await library.close()
    }

    /// Four downloads handed over, the app killed at once: the service finishes them, relaunches
    /// the app with their events, and the wake installs each once.
    @Test func downloadsGoOnAfterTheAppIsKilledAndTheRelaunchInstallsThem() async throws {
        try await Self.with(4) { bed, service, specs in

            let app = try service.launch(specs.map(\.name))
            app.killNow()
            _ = app.wait()
            let stats = try await service.settled()
            #expect((stats["wakes"] as? Int ?? 0) >= 1, "the app was relaunched: \(stats)")
            try await Self.checkInvariants(service, stats, names: specs.map(\.name), in: bed)
            for spec in specs {
                #expect(Self.wholeFetches(of: spec.name, in: bed) == 1, "\(spec.name) fetched whole once")
            }
        }
    }

    /// The faults an OS service may bring, one issue each: a finished event delivered twice, a
    /// 404's body delivered as a finished file (refused, never installed: the issue fails with
    /// the status, and the user's next try installs it), and the app killed inside the hand-off
    /// (the task is then over and its file gone; the user's next open starts it again, and the
    /// stale generation's late event that then arrives is ignored).
    @Test func duplicateStaleAndRefusedEventsAndAKillInsideTheHandOffLeaveEachIssueInstalledOnce() async throws {
        try await Self.with(4) { bed, service, specs in
            try await service.fault("duplicate", "s-1")
            try await service.fault("status404", "s-2")
            try await service.fault("killDuringHandOff", "s-3")
            try await service.fault("stale", "s-3")

            let app = try service.launch(specs.map(\.name))
            var stats = try await service.settled()
            app.killNow()
            _ = app.wait()
            #expect(stats["killed_in_hand_off"] as? Int == 1, "\(stats)")
            // What the kill lost, only the user's opening the app brings back (iOS relaunches for events only).
            let opened = try service.open()
            stats = try await service.settled()
            #expect(opened.contains("s-3 available"), "\(opened)")
            let reopened = try bed.library()
            #expect(await reopened.issue(named: "s-2")?.status == IssueStatus.none, "a 404's body is never installed")
            let why = await reopened.lastTransferError(of: "s-2") ?? ""
            #expect(why.contains("404"), "the failure names the status: \(why)")
            await reopened.close()
            #expect(service.installCounts["s-2"] == nil)

            // The user tries again; the app is killed once more and the wake installs it.
            let again = try service.launch(["s-2"])
            again.killNow()
            _ = again.wait()
            stats = try await service.settled()
            try await Self.checkInvariants(service, stats, names: specs.map(\.name), in: bed)
            #expect(Self.wholeFetches(of: "s-3", in: bed) == 2, "s-3 fetched again after the kill lost its file")
            for name in ["s-1", "s-4"] { #expect(Self.wholeFetches(of: name, in: bed) == 1, "\(name) fetched whole once") }
        }
    }

    /// A connection cut mid-transfer: the service fails the task with resume data (offset,
    /// validator, the partial file), the library starts a new generation from it, and the
    /// service continues with `Range` and `If-Range`: only the rest is fetched.
    @Test func aCutTransferGoesOnFromItsResumeData() async throws {
        try await Self.with(2) { bed, service, specs in
            try await service.fault("cut", "s-1")
            let app = try service.launch(specs.map(\.name))
            let stats = try await service.settled()
            try await service.installed(specs.map(\.name))
            app.killNow()
            _ = app.wait()
            try await Self.checkInvariants(service, stats, names: specs.map(\.name), in: bed)
            let requests = bed.nginx.requests().filter { $0.uri == "/slow/s-1/s-1.zip" }
            let size = try #require(
                try FileManager.default.attributesOfItem(
                    atPath: bed.nginx.root.appendingPathComponent("s-1/s-1.zip").path)[.size] as? Int)
            let resumed = try #require(requests.first { $0.range != nil }, "a request with Range: \(requests)")
            #expect(resumed.status == 206)
            let offset = try #require(resumed.range.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) })
            #expect(offset >= 65_536 && offset < size, "\(requests)")
            #expect(resumed.bytesSent == size - offset, "only the rest was fetched: \(requests)")
            #expect(Self.wholeFetches(of: "s-1", in: bed) == 0)
        }
    }

    /// A force-quit: iOS cancels every transfer and relaunches nothing; when the user opens the
    /// app again it learns why they ended and starts them again.
    @Test func aForceQuitCancelsEverythingRelaunchesNothingAndTheNextOpenStartsAgain() async throws {
        try await Self.with(3) { bed, service, specs in
            // Held: the force-quit comes before any transfer could finish, however loaded the
            // machine (under CI's load a launch's transfers once finished first).
            for spec in specs { try await service.fault("hold", spec.name) }
            let app = try service.launch(specs.map(\.name))
            _ = try await service.call("forcequit")
            _ = app.wait()
            try await Task.sleep(nanoseconds: 2_000_000_000)
            var stats = try await service.call("stats")
            #expect(stats["wakes"] as? Int == 0, "nothing relaunched after a force-quit: \(stats)")
            #expect((stats["live"] as? [String])?.isEmpty == true, "every task cancelled: \(stats)")
            #expect(service.installCounts.isEmpty)

            _ = try await service.call("release")
            _ = try service.open()
            stats = try await service.settled()
            try await Self.checkInvariants(service, stats, names: specs.map(\.name), in: bed)
        }
    }
}
