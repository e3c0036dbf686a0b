import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandAria2
@testable import NewsstandReader

/// The engine's folder is input from outside: a daemon record that is stale, damaged, a link,
/// readable by others, names a port another program holds or a secret the daemon refuses, and
/// downloads the engine did not make. None of it may leak the secret, signal a stranger's
/// process, start a second daemon, or be handed over.
@Suite("aria2 hostile state", .timeLimit(.minutes(2)), .tags(.needsServer))
struct Aria2HostileStateTests {
    static func job(_ name: String, _ url: URL) -> TransferJob {
        TransferJob(id: TransferID(name: name, generation: 1), url: url, expectedSize: nil, intent: .user)
    }

    static func writeRecord(_ text: String, in bed: Aria2Bed, mode: Int = 0o600) throws {
        try FileManager.default.createDirectory(at: bed.folder, withIntermediateDirectories: true)
        let file = bed.folder.appendingPathComponent("daemon.json")
        try? FileManager.default.removeItem(at: file)
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
    }

    /// Starts a job with `bed`'s engine and checks that it runs on exactly one new daemon.
    static func startsCleanly(_ bed: Aria2Bed, _ name: String) async throws {
        let bundle = try bed.bundle(name, bytes: 100_000)
        let engine = bed.engine()
        let sink = RecordingSink(downloads: bed.downloads)
        try await engine.start(job(name, bundle.url))
        #expect(bed.daemons().count == 1)
        engine.attach(sink)
        try await eventually("the file is handed over") { sink.finished.count == 1 }
        #expect(try SHA256.hex(ofFileAt: try #require(sink.finished.first).file) == bundle.sha256)
        // The job's record goes once the hand-over returned, a moment after the sink saw it
        // (CI, loaded, listed the folder in between).
        let record = bed.folder.appendingPathComponent("files/\(name)#1.json").path
        try await eventually("the job's record is removed") { !FileManager.default.fileExists(atPath: record) }
    }

    /// Records that are no record: not JSON, incomplete, a privileged port and pid 1, a short
    /// secret, a megabyte of blanks before the JSON.
    @Test(arguments: ["not json", "port only", "port 80, pid 1", "short secret", "huge"])
    func aDamagedRecordIsNoRecord(_ kind: String) async throws {
        let secret = String(repeating: "a", count: 64)
        let text =
            switch kind {
            case "port only": "{\"port\": 6800}"
            case "port 80, pid 1": "{\"port\": 80, \"secret\": \"\(secret)\", \"pid\": 1}"
            case "short secret": "{\"port\": 6800, \"secret\": \"short\", \"pid\": 4242}"
            case "huge": String(repeating: " ", count: 1 << 20) + "{\"port\": 6800, \"secret\": \"\(secret)\", \"pid\": 4242}"
            default: kind
            }
        try await Aria2Bed.with { bed in
            try Self.writeRecord(text, in: bed)
            try await Self.startsCleanly(bed, "h-1")
        }
    }

    /// A daemon of the folder that nothing tracks any more (issue 35, item 7: after full disks it
    /// stayed up holding an errored job, without `daemon.json`, its session empty) is found and
    /// stopped by the next engine that looks for an idle daemon: it runs with the folder's
    /// settings, so it is ours.
    @Test func anUntrackedDaemonOfTheFolderIsStopped() async throws {
        try await Aria2Bed.with { bed in
            let first = bed.engine()
            let job = Aria2EngineTests.job("gone", 1, bed.nginx.baseURL.appendingPathComponent("gone.zip"))
            try await first.start(job)
            let daemon = try await bed.onlyDaemon()
            try await eventually("aria2 gives up", reportOf: first) {
                if case .failed = $0[job.id] { true } else { false }
            }
            // aria2 does not save a failed download in its session (force-save=false): it is empty.
            try FileManager.default.removeItem(at: bed.folder.appendingPathComponent("daemon.json"))
            try Data().write(to: bed.folder.appendingPathComponent("session"))
            // Another process: it knows nothing of the daemon.
            let next = bed.engine()
            #expect(try await next.stopIfIdle(), "the untracked daemon is stopped")
            #expect(!Aria2Platform.isRunning(daemon))
            #expect(bed.daemons().isEmpty)
        }
    }

    /// A process killed while writing a job's record leaves its temporary file behind: the next
    /// report removes it, and nothing else (a running writer's, another name's, a link).
    @Test func aRecordWriteCutByAKillIsRemovedByTheNextReport() async throws {
        try await Aria2Bed.with { bed in
            let files = bed.folder.appendingPathComponent("files")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            let gone = try TestChild.start("/bin/true", [])
            gone.wait()
            let cut = ".a-1#1.json.\(gone.pid).4443a6d6.tmp"
            let kept = [".a-1#1.json.\(getpid()).1f.tmp", ".notes.txt.\(gone.pid).1f.tmp", ".a-1#01.json.\(gone.pid).1f.tmp"]
            for name in [cut] + kept { try Data("{".utf8).write(to: files.appendingPathComponent(name)) }
            let link = ".b-1#1.json.\(gone.pid).2e.tmp"
            try FileManager.default.createSymbolicLink(
                atPath: files.appendingPathComponent(link).path, withDestinationPath: "/etc/passwd")
            #expect(try await bed.engine().report().isEmpty)
            let left = try FileManager.default.contentsOfDirectory(atPath: files.path).sorted()
            #expect(left == (kept + [link]).sorted())
        }
    }

    /// aria2 saves a control file under `<name>.aria2__temp` and renames it: a daemon killed
    /// mid-save leaves that behind. The next daemon's start removes every key's, and nothing
    /// else (another name, a link); a key's removal removes its own.
    @Test func aControlFileSaveCutByAKillIsRemovedWhenTheNextDaemonStarts() async throws {
        try await Aria2Bed.with { bed in
            let files = bed.folder.appendingPathComponent("files")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            let cut = "a-1#1.aria2__temp"
            let kept = ["notes.aria2__temp", "a-1#01.aria2__temp"]
            for name in [cut] + kept { try Data("x".utf8).write(to: files.appendingPathComponent(name)) }
            let link = "b-1#1.aria2__temp"
            try FileManager.default.createSymbolicLink(
                atPath: files.appendingPathComponent(link).path, withDestinationPath: "/etc/passwd")
            try await Self.startsCleanly(bed, "h-4")
            let left = try FileManager.default.contentsOfDirectory(atPath: files.path).sorted()
            #expect(left == (kept + [link]).sorted())

            let opened = try Aria2Files.open(in: OpenFolder.open(bed.folder))
            let key = TransferID(name: "c-1", generation: 2)
            try Data("x".utf8).write(to: files.appendingPathComponent(Aria2Key.controlSaveName(of: key)))
            try opened.remove(key)
            #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).sorted() == left)
        }
    }

    @Test func aRecordOthersCouldReadIsSpent() async throws {
        try await Aria2Bed.with { bed in
            let engine = bed.engine()
            let bundle = try bed.bundle("h-2", bytes: Aria2Bed.slowBytes, location: "slow/")
            try await engine.start(Self.job("h-2", bundle.url))
            let first = try await bed.onlyDaemon()
            let record = bed.folder.appendingPathComponent("daemon.json")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: record.path)
            // A new process finds a record whose secret may have been read: the daemon is
            // replaced by one with a new secret, and the download goes on in it.
            let next = bed.engine()
            let report = try await next.report()
            guard isRunningOrFinished(report[TransferID(name: "h-2", generation: 1)]) else {
                Issue.record("the download did not go on in the new daemon: \(report)")
                return
            }
            let second = try await bed.onlyDaemon()
            #expect(second != first)
            #expect(!Aria2Platform.isRunning(first))
            let attributes = try FileManager.default.attributesOfItem(atPath: record.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            await next.cancel(TransferID(name: "h-2", generation: 1), keepingData: false)
        }
    }

    @Test func aRecordThatIsALinkIsNeitherReadNorWrittenThrough() async throws {
        try await Aria2Bed.with { bed in
            let outside = bed.root.appendingPathComponent("outside.json")
            let secret = String(repeating: "b", count: 64)
            let original = "{\"port\": \(bed.nginx.port), \"secret\": \"\(secret)\", \"pid\": \(getpid())}"
            try Data(original.utf8).write(to: outside)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: outside.path)
            try FileManager.default.createDirectory(at: bed.folder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: bed.folder.appendingPathComponent("daemon.json").path, withDestinationPath: outside.path)
            try await Self.startsCleanly(bed, "h-3")
            #expect(try String(contentsOf: outside, encoding: .utf8) == original)
            #expect(bed.nginx.requests().allSatisfy { !$0.uri.contains("jsonrpc") }, "nothing was sent to the port it names")
        }
    }

    @Test func aRecordNamingAnotherProgramsPortAndProcessTouchesNeither() async throws {
        try await Aria2Bed.with { bed in
            // nginx holds the port, and its pid stands in the record: a stale record whose port
            // and pid were taken by others since. Neither may get the secret or a signal.
            let nginxPid = try #require(
                Int32(
                    try String(contentsOf: bed.nginx.prefix.appendingPathComponent("nginx.pid"), encoding: .utf8)
                        .trimmingCharacters(in: .whitespacesAndNewlines)))
            try Self.writeRecord(
                "{\"port\": \(bed.nginx.port), \"secret\": \"\(String(repeating: "c", count: 64))\", \"pid\": \(nginxPid)}",
                in: bed)
            try await Self.startsCleanly(bed, "h-4")
            #expect(bed.nginx.requests().allSatisfy { !$0.uri.contains("jsonrpc") }, "nothing was sent to nginx's port")
            #expect(try await bed.engine().stopIfIdle())
            #expect(Aria2Platform.isRunning(nginxPid), "nginx was not signalled")
            #expect(Nginx.canConnect(port: bed.nginx.port))
        }
    }

    @Test func aDaemonThatRefusesTheRecordsSecretIsReplaced() async throws {
        try await Aria2Bed.with { bed in
            let bundle = try bed.bundle("h-5", bytes: Aria2Bed.slowBytes, location: "slow/")
            let engine = bed.engine()
            try await engine.start(Self.job("h-5", bundle.url))
            let first = try await bed.onlyDaemon()
            let folder = try OpenFolder.open(bed.folder)
            var record = try #require(Aria2DaemonRecord.read(in: folder))
            record.secret = Aria2Secret.random()
            try record.write(in: folder)

            let next = bed.engine()
            do {
                _ = try await next.report()
            } catch {
                #expect(!"\(error)".contains(record.secret.hex))
                throw error
            }
            let second = try await bed.onlyDaemon()
            #expect(second != first, "a daemon that cannot be talked to is replaced, never joined by a second one")
            let report = try await next.report()
            guard isRunningOrFinished(report[TransferID(name: "h-5", generation: 1)]) else {
                Issue.record("the download did not go on in the new daemon: \(report)")
                return
            }
            await next.cancel(TransferID(name: "h-5", generation: 1), keepingData: false)
        }
    }

    @Test func downloadsTheEngineDidNotMakeAreNeverHandedOver() async throws {
        try await Aria2Bed.with { bed in
            let bundle = try bed.bundle("h-6", bytes: 20_000)
            let engine = bed.engine()
            try await engine.start(Self.job("h-6", bundle.url))
            let folder = try OpenFolder.open(bed.folder)
            let record = try #require(Aria2DaemonRecord.read(in: folder))
            let client = Aria2Client(
                connection: Aria2Connection(port: record.port, timeout: 5, maxResponseBytes: 1 << 20), secret: record.secret)
            // Someone with the secret adds downloads: a key's name under a GID that is not the
            // key's, a key's GID outside the folder, and a name that is no key.
            let outside = bed.root.appendingPathComponent("elsewhere")
            let key = TransferID(name: "x-1", generation: 1)
            try client.addUri(bundle.url.absoluteString, gid: "00000000000000a1", out: "x-1#1")
            try client.addUri(
                bundle.url.absoluteString, options: ["gid": Aria2Key.gid(of: key), "out": "x-1#1", "dir": outside.path])
            try client.addUri(bundle.url.absoluteString, gid: "00000000000000a2", out: "notes.txt")
            // And a link named as a key, with a record, pointing at a file of the right size.
            try Data(count: bundle.size).write(to: bed.root.appendingPathComponent("secret.bin"))
            let files = bed.folder.appendingPathComponent("files")
            try Aria2JobRecord(url: bundle.url.absoluteString, expectedSize: Int64(bundle.size))
                .write(for: TransferID(name: "x-2", generation: 1), in: try OpenFolder.open(files))
            try FileManager.default.createSymbolicLink(
                atPath: files.appendingPathComponent("x-2#1").path,
                withDestinationPath: bed.root.appendingPathComponent("secret.bin").path)

            let sink = RecordingSink(downloads: bed.downloads)
            engine.attach(sink)
            try await eventually("the engine's own download is handed over") { sink.finished.contains { $0.id.name == "h-6" } }
            try await Task.sleep(nanoseconds: 1_000_000_000)
            #expect(sink.finished.map(\.id) == [TransferID(name: "h-6", generation: 1)])
            #expect(try await engine.report().keys.allSatisfy { $0.name == "h-6" })
            #expect(FileManager.default.fileExists(atPath: bed.root.appendingPathComponent("secret.bin").path))
        }
    }
}
