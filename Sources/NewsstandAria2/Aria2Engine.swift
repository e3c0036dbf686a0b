import Foundation
import NewsstandCore
import NewsstandReader

/// Background downloads on Linux: an aria2c daemon (Debian package `aria2`) that the engine
/// starts when a job is handed to it and that goes on downloading after the app quits, crashes
/// or is killed; a relaunched app's engine reconnects to it, or starts it again from its
/// session file when it was killed too. Its folder (inside the library's, one per library)
/// holds everything: the daemon's settings and secret (mode 0600), its session, the downloads.
///
/// Keys: every download's GID is derived from its `TransferID`, and its file is named
/// `name#generation`, so `report()` maps aria2's downloads back to keys in a process that lost
/// every in-memory map; anything that does not read back as a key of this engine is ignored,
/// and every file handed over is one named in the engine's folder (never a link, never `../`).
///
/// While a sink is attached, the engine asks the daemon for news every `pollInterval` and
/// delivers progress, hand-overs (`finished` with status 200: aria2 completes a download only
/// after a 2xx answer) and failures (what aria2 said, `Aria2ErrorCode`: a 404 is not
/// resumable, network trouble is); once it has nothing left to run, the daemon is stopped.
/// Every call to the daemon has a deadline and a size cap (`Aria2Configuration`).
public final class Aria2Engine: TransferEngine {
    /// Runs outside the process.
    public let kind = TransferEngineKind.background
    /// True: aria2 lists a finished download until the library took its file.
    public let reportsFinishedTransfers = true
    /// The engine's folder.
    public let folder: URL

    private let transfers: Aria2Transfers
    private let lane = SerialLane()
    /// Raised by every `attach` and `detach`: a poller runs while the value it started with is
    /// current.
    private let polling = Locked(0)
    private let pollInterval: TimeInterval

    /// An engine keeping its daemon and downloads in `folder` (created when missing; the
    /// library gives each library one, `Downloads/aria2/` for instance).
    public init(folder: URL, configuration: Aria2Configuration = Aria2Configuration()) {
        self.folder = folder
        transfers = Aria2Transfers(daemon: Aria2Daemon(folder: folder, configuration: configuration))
        pollInterval = max(0.05, configuration.pollInterval)
    }

    /// The engine of `library`: its folder is `aria2/` in the library's `enginesFolder`.
    public convenience init(in library: IssueLibrary, configuration: Aria2Configuration = Aria2Configuration()) {
        self.init(folder: library.enginesFolder.appendingPathComponent("aria2", isDirectory: true), configuration: configuration)
    }

    deinit { polling.withLock { $0 += 1 } }

    /// Connects `sink` and starts asking the daemon for news: what it did meanwhile comes first,
    /// then `deliveredAllEvents`.
    public func attach(_ sink: any TransferEventSink) {
        transfers.attach(sink)
        let round = polling.withLock { round -> Int in
            round += 1
            return round
        }
        // Holds the engine only while it polls: dropping it ends the loop.
        BlockingWork.start { [weak self] in
            while let interval = self?.poll(round) { Thread.sleep(forTimeInterval: interval) }
        }
    }

    /// One round of polling; nil when a newer `attach` or a `detach` has ended this poller.
    private func poll(_ round: Int) -> TimeInterval? {
        guard polling.current == round else { return nil }
        let transfers = transfers
        lane.runAndWait { transfers.poll() }
        return pollInterval
    }

    /// Stops delivering events, once a poll under way has ended; the daemon goes on.
    public func detach() async {
        polling.withLock { $0 += 1 }
        let transfers = transfers
        await lane.run { transfers.attach(nil) }
    }

    /// Hands `job` to the daemon, starting it when none runs.
    public func start(_ job: TransferJob) async throws(TransferFailure) {
        let transfers = transfers
        do throws(Aria2Error) {
            try await lane.run { () throws(Aria2Error) in try transfers.start(job) }
        } catch {
            throw error.transferFailure
        }
    }

    /// Stops `id` (aria2's `forceRemove`); its bytes stay for a later generation of the issue
    /// from the same URL when `keepingData`.
    public func cancel(_ id: TransferID, keepingData: Bool) async {
        let transfers = transfers
        await lane.run { transfers.cancel(id, keepingData: keepingData) }
    }

    /// What the daemon and the engine's folder hold: running, finished and not handed over,
    /// failed. A daemon killed with work left is started again first.
    public func report() async throws(TransferFailure) -> [TransferID: TransferReport] {
        let transfers = transfers
        do throws(Aria2Error) {
            return try await lane.run { () throws(Aria2Error) in try transfers.report() }
        } catch {
            throw error.transferFailure
        }
    }

    /// Shuts the daemon down when it runs nothing (SIGTERM: it saves its session; SIGKILL after
    /// the grace period); returns whether no daemon runs now. Finished files stay for `report()`.
    public func stopIfIdle() async throws(TransferFailure) -> Bool {
        let transfers = transfers
        do throws(Aria2Error) {
            return try await lane.run { () throws(Aria2Error) in try transfers.stopIfIdle() }
        } catch {
            throw error.transferFailure
        }
    }

    /// The daemon's process id, when one runs for this folder.
    public func daemonProcess() async -> Int32? {
        let daemon = transfers.daemon
        return await BlockingWork.run { daemon.runningProcess() }
    }
}
