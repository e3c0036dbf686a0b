import Foundation
import NewsstandCore
import NewsstandTestSupport

@testable import NewsstandAria2
@testable import NewsstandReader

/// One aria2 test's world: a real nginx serving bundles, an engine folder, and engines whose
/// daemons are tied to this test process (`--stop-with-process`), so none outlives the run even
/// when it is killed. `close()` kills every daemon of the folder, stops nginx and removes the files.
final class Aria2Bed: Sendable {
    let nginx: Nginx
    let root: URL
    /// The engine's folder.
    let folder: URL
    /// Where the sink moves handed-over files (the library's `Downloads/`).
    let downloads: URL

    init() throws {
        nginx = try Nginx()
        root = try Shell.temporaryFolder("aria2")
        folder = root.appendingPathComponent("library/Downloads/aria2")
        downloads = root.appendingPathComponent("library/Downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
    }

    /// Runs `body` with a fresh bed and always cleans up, daemons first.
    static func with<T>(_ body: (Aria2Bed) async throws -> T) async throws -> T {
        let bed = try Aria2Bed()
        defer { bed.close() }
        return try await body(bed)
    }

    func close() {
        for pid in daemons() { Self.killAndReap(pid) }
        nginx.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// A bundle that takes half a minute through `slow/` (100 KB/s without `Range`): a test that
    /// needs a download still running when it acts (cancels, kills) acts after its first bytes,
    /// with the rest as the margin a loaded machine needs. What follows with `Range` is fast.
    static let slowBytes = 3_000_000

    /// Settings for tests: short waits, and the daemon dies with this process.
    var configuration: Aria2Configuration {
        var configuration = Aria2Configuration()
        configuration.stopWithProcess = getpid()
        configuration.pollInterval = 0.1
        configuration.retryWait = 0
        configuration.maxTries = 1
        // The suite shares two cores with everything else: a daemon may take long to listen.
        configuration.startTimeout = 30
        return configuration
    }

    func engine(_ configure: (inout Aria2Configuration) -> Void = { _ in }) -> Aria2Engine {
        var configuration = configuration
        configure(&configuration)
        return Aria2Engine(folder: folder, configuration: configuration)
    }

    /// A bundle of about `bytes` bytes under nginx's root; its URL through `location` ("" or
    /// "slow/": 100 KB/s without `Range`, full speed with it), its size and its bytes' digest.
    func bundle(_ name: String, bytes: Int = 20_000, location: String = "") throws -> (url: URL, size: Int, sha256: String) {
        let file = nginx.root.appendingPathComponent("\(name).zip")
        try ZipFixture.make(
            at: file, entries: [.random("1-0.png", count: bytes, seed: name.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xffff)])
        let data = try Data(contentsOf: file)
        return (nginx.baseURL.appendingPathComponent(location + "\(name).zip"), data.count, SHA256.hex(of: data))
    }

    /// Every live aria2c started for this bed's folder.
    func daemons() -> [Int32] {
        Aria2Platform.processes(withArgument: "--conf-path=" + folder.appendingPathComponent(Aria2Settings.fileName).path)
            .filter(Aria2Platform.isRunning)
    }

    /// The daemon's pid, waiting until exactly one runs.
    func onlyDaemon() async throws -> Int32 {
        try await eventually("one daemon runs") { self.daemons().count == 1 }
        guard let pid = daemons().first else { throw TestFailure("the daemon exited") }
        return pid
    }

    /// Kills `pid` at once and reaps it when it is this process's child.
    static func killAndReap(_ pid: Int32) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        for _ in 0..<250 where Aria2Platform.isRunning(pid) {
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(20_000)
        }
        _ = waitpid(pid, &status, WNOHANG)
    }

    /// The files in the engine's download folder.
    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("files").path)) ?? []).sorted()
    }
}

/// Waits (up to `timeout` seconds) until `condition` holds, checking every 50 ms off the pool.
/// Generous: on a loaded machine starting a process takes seconds; a hang still fails.
func eventually(_ what: String, timeout: TimeInterval = 60, _ condition: @escaping @Sendable () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !(await BlockingWork.run(condition)) {
        guard Date() < deadline else { throw TestFailure("timed out waiting until \(what)") }
        try await Task.sleep(nanoseconds: 50_000_000)
    }
}

/// Waits (up to `timeout` seconds) until `engine`'s report satisfies `condition`.
func eventually(
    _ what: String, timeout: TimeInterval = 60, reportOf engine: Aria2Engine,
    _ condition: ([TransferID: TransferReport]) -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition(try await engine.report()) {
        guard Date() < deadline else { throw TestFailure("timed out waiting until \(what)") }
        try await Task.sleep(nanoseconds: 50_000_000)
    }
}

/// Whether a report says the download goes on or is done: a resumed download goes at full
/// speed (nginx's `/slow/` is slow only without `Range`), so it may be either by the time it is
/// asked.
func isRunningOrFinished(_ report: TransferReport?) -> Bool {
    switch report {
    case .running, .finished: true
    case .failed, nil: false
    }
}

/// A sink that does what the library's hand-off does, and records every event: a finished
/// file is moved into `downloads` during the call (it may vanish afterwards).
final class RecordingSink: TransferEventSink {
    struct Handed: Equatable, Sendable {
        var id: TransferID
        var status: Int?
        var file: URL
    }

    private let downloads: URL
    private let events = Locked<
        (progress: [TransferID: [DownloadProgress]], finished: [Handed], failed: [TransferID: TransferFailure], allDelivered: Int)
    >(
        ([:], [], [:], 0))

    init(downloads: URL) { self.downloads = downloads }

    func progressed(_ id: TransferID, _ progress: DownloadProgress) {
        events.withLock { $0.progress[id, default: []].append(progress) }
    }

    func finished(_ id: TransferID, status: Int?, file: URL) {
        let target = downloads.appendingPathComponent("\(id.name).zip")
        try? FileManager.default.removeItem(at: target)
        let moved = rename(file.path, target.path) == 0
        events.withLock { $0.finished.append(Handed(id: id, status: status, file: moved ? target : file)) }
    }

    func failed(_ id: TransferID, _ failure: TransferFailure, resumeData: Data?) {
        events.withLock { $0.failed[id] = failure }
    }

    func deliveredAllEvents(whenRecorded recorded: @escaping @Sendable () -> Void) {
        events.withLock { $0.allDelivered += 1 }
        recorded()
    }

    var finished: [Handed] { events.current.finished }
    var failed: [TransferID: TransferFailure] { events.current.failed }
    var allDelivered: Int { events.current.allDelivered }
    func progress(of id: TransferID) -> [DownloadProgress] { events.current.progress[id] ?? [] }
}
