import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandAria2
@testable import NewsstandReader

/// What outlives what: the daemon outlives the engine object and the process that started
/// it, and a daemon killed itself comes back from its session file and continues with `Range`.
@Suite("aria2 recovery", .timeLimit(.minutes(2)), .tags(.needsServer))
struct Aria2RecoveryTests {
    /// The probe executable built beside the tests.
    static var probe: String {
        URL(fileURLWithPath: Shell.newsstand).deletingLastPathComponent().appendingPathComponent("Aria2Probe").path
    }

    @Test func aDroppedEngineLeavesTheDownloadRunningAndANewOneReportsItFinished() async throws {
        try await Aria2Bed.with { bed in
            let bundle = try bed.bundle("r-1", bytes: 300_000, location: "slow/")
            let id = TransferID(name: "r-1", generation: 4)
            var first: Aria2Engine? = bed.engine()
            try await first?.start(TransferJob(id: id, url: bundle.url, expectedSize: Int64(bundle.size), intent: .user))
            first?.attach(RecordingSink(downloads: bed.downloads))
            first = nil
            let daemon = try await bed.onlyDaemon()

            let second = bed.engine()
            let report = try await second.report()
            guard isRunningOrFinished(report[id]) else {
                Issue.record("the new engine does not see the download running: \(report)")
                return
            }
            try await eventually("aria2 finishes", reportOf: second) {
                if case .finished = $0[id] { true } else { false }
            }
            guard case .finished(let file, let status) = try await second.report()[id] else { throw TestFailure("unfinished") }
            #expect(status == 200)
            #expect(file.path == bed.folder.path + "/files/r-1#4")
            #expect(try SHA256.hex(ofFileAt: file) == bundle.sha256)
            #expect(Aria2Platform.isRunning(daemon), "the daemon was never restarted")
            let sink = RecordingSink(downloads: bed.downloads)
            second.attach(sink)
            try await eventually("the file is handed over") { sink.finished.count == 1 }
            #expect(try SHA256.hex(ofFileAt: try #require(sink.finished.first).file) == bundle.sha256)
            try await eventually("the idle daemon exits") { bed.daemons().isEmpty }
        }
    }

    @Test func aKilledProcessLeavesTheDownloadRunning() async throws {
        try await Aria2Bed.with { bed in
            let bundle = try bed.bundle("r-2", bytes: 300_000, location: "slow/")
            let child = try BackgroundProcess(
                Self.probe, [bed.folder.path, bundle.url.absoluteString, "r-2#1", String(getpid())])
            defer { child.killNow() }
            try await eventually("the child handed the job over") { child.output.contains("started") }
            let daemon = try await bed.onlyDaemon()
            // The whole process group, as a terminal's Ctrl-C or a crash of the app would.
            let group = getpgid(child.processIdentifier)
            try #require(group > 1 && group != getpgrp())
            kill(-group, SIGKILL)
            _ = await BlockingWork.run { child.wait() }
            #expect(Aria2Platform.isRunning(daemon))

            let engine = bed.engine()
            let sink = RecordingSink(downloads: bed.downloads)
            engine.attach(sink)
            try await eventually("the file is handed over") { sink.finished.count == 1 }
            #expect(sink.finished.first?.id == TransferID(name: "r-2", generation: 1))
            #expect(try SHA256.hex(ofFileAt: try #require(sink.finished.first).file) == bundle.sha256)
            #expect(bed.nginx.requests(for: "/slow/r-2.zip").count == 1, "one request: the download never stopped")
        }
    }

    @Test func aKilledDaemonComesBackFromItsSessionAndContinuesWithRange() async throws {
        try await Aria2Bed.with { bed in
            let bundle = try bed.bundle("r-3", bytes: Aria2Bed.slowBytes, location: "slow/")
            let id = TransferID(name: "r-3", generation: 2)
            let engine = bed.engine()
            try await engine.start(TransferJob(id: id, url: bundle.url, expectedSize: Int64(bundle.size), intent: .user))
            let daemon = try await bed.onlyDaemon()
            // Past two control-file saves, so that the session and the control file hold it.
            try await eventually("bytes arrive") { (fileSize(bed, "r-3#2") ?? 0) > 250_000 }
            // aria2 saves its control file every second by writing a new one and renaming it: a
            // file saved after this moment records at least the bytes on disk now. (Killing on the
            // byte count alone made the check below depend on how late the save ran under load.)
            let seen = Date().timeIntervalSince1970 + 0.05
            try await eventually("aria2 saved its control file since") {
                ((try? FileStatus.of(controlFile(bed, "r-3#2")))?.modified ?? 0) > seen
            }
            Aria2Bed.killAndReap(daemon)
            let kept = try #require(fileSize(bed, "r-3#2"))

            let next = bed.engine()
            let report = try await next.report()
            guard isRunningOrFinished(report[id]) else {
                Issue.record("the download did not come back from the session: \(report)")
                return
            }
            let restarted = try await bed.onlyDaemon()
            #expect(restarted != daemon)
            let sink = RecordingSink(downloads: bed.downloads)
            next.attach(sink)
            try await eventually("the file is handed over") { sink.finished.count == 1 }
            #expect(try SHA256.hex(ofFileAt: try #require(sink.finished.first).file) == bundle.sha256)
            // The restart asked for the rest only: from what aria2's control file had recorded
            // (saved every second), never from zero. (aria2 opens a restart with a plain GET it
            // cuts after the head, to learn the size: that request sends next to nothing.)
            let requests = bed.nginx.requests(for: "/slow/r-3.zip", atLeast: 3)
            let resumed = try #require(requests.first { $0.range != nil })
            let start = try #require(Int(resumed.range?.dropFirst("bytes=".count).prefix { $0 != "-" } ?? ""))
            #expect(resumed.status == 206)
            #expect(start > 200_000 && start <= Int(kept))
            #expect(resumed.bytesSent == bundle.size - start)
            #expect(requests.filter { $0.range == nil }.dropFirst().allSatisfy { $0.bytesSent < 100_000 })
        }
    }

    @Test func twoEnginesStartingAtOnceShareOneDaemon() async throws {
        try await Aria2Bed.with { bed in
            let bundles = try (1...4).map { try bed.bundle("t-\($0)", bytes: 200_000, location: "slow/") }
            let engines = [bed.engine(), bed.engine()]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, bundle) in bundles.enumerated() {
                    let engine = engines[index % 2]
                    let job = TransferJob(
                        id: TransferID(name: "t-\(index + 1)", generation: 1), url: bundle.url, expectedSize: nil, intent: .user)
                    group.addTask { try await engine.start(job) }
                }
                try await group.waitForAll()
            }
            #expect(bed.daemons().count == 1)
            #expect(try await engines[0].report().count == 4)
            for index in 1...4 { await engines[0].cancel(TransferID(name: "t-\(index)", generation: 1), keepingData: false) }
        }
    }

    @Test func aDownloadHandedOverIsNeverHandedOverAgainWhenASessionBringsItBack() async throws {
        try await Aria2Bed.with { bed in
            let bundle = try bed.bundle("r-5", bytes: 50_000)
            let id = TransferID(name: "r-5", generation: 1)
            let engine = bed.engine()
            try await engine.start(TransferJob(id: id, url: bundle.url, expectedSize: Int64(bundle.size), intent: .user))
            let sink = RecordingSink(downloads: bed.downloads)
            engine.attach(sink)
            try await eventually("the file is handed over") { sink.finished.count == 1 }
            try await eventually("the idle daemon exits") { bed.daemons().isEmpty }
            await engine.detach()
            // A daemon killed within a second of the hand-over had not saved its session since:
            // the session still lists the download, and a restarted daemon fetches it again.
            let session = bed.folder.appendingPathComponent("session")
            try Data("\(bundle.url.absoluteString)\t\n gid=\(Aria2Key.gid(of: id))\n out=r-5#1\n".utf8).write(to: session)

            let next = bed.engine()
            #expect(try await next.report()[id] == nil)
            let again = RecordingSink(downloads: bed.downloads)
            next.attach(again)
            try await eventually("the brought-back download is stopped") { bed.daemons().isEmpty }
            #expect(again.finished.isEmpty, "handed over twice")
            #expect(bed.files().isEmpty, "left behind: \(bed.files())")
        }
    }
}
