import Foundation
import NewsstandCore

/// The shelf of issues on this device (after `NKLibrary`): one folder holding the persisted
/// state, partial downloads, unpacked issues and cached covers.
///
/// Every change is committed at once (`library.sqlite`, off the actor: a commit runs on a thread
/// of its own), so reopening the folder after a crash shows the same issues and statuses;
/// leftovers of an interrupted unpack are removed on open, and downloads that were under way
/// continue with `resumePendingDownloads()`.
///
/// **Several processes**: no lock is held while nothing is being written. Each commit takes the
/// folder's writer lock (`library.lock`) for its transaction only (waiting up to
/// `LibraryConfiguration.lockTimeout`, then `LibraryError.libraryInUse`), and merges what other
/// writers committed meanwhile (their rows, with this library's unsaved changes on top). An
/// issue's files are worked on by one owner at a time (its claim, held while its download,
/// update or removal runs): a second download of the same issue, in this process or another,
/// waits for the first and finds it done. An app extension reads the shelf with a
/// `LibraryReader`, which never writes.
public actor IssueLibrary {
    /// The library's folder.
    public nonisolated let folder: URL
    /// The scale fixed when the folder was first used.
    public nonisolated let scale: LibraryScale
    /// How the library downloads and keeps issues.
    public nonisolated let configuration: LibraryConfiguration
    /// Where a background engine keeps files of its own, each in a folder of its name
    /// (`Engines/aria2/`): beside `Downloads/`, on the same file system, never swept by the library.
    public nonisolated var enginesFolder: URL { layout.engines }

    nonisolated let layout: LibraryLayout
    var isClosed = false
    /// Set once `close()` closed the database: nothing is committed after it.
    var isStoreClosed = false
    var state: LibraryState
    /// Rows of `library.sqlite` the last read left out (values the library never writes).
    public internal(set) var stateProblems: [StateError]
    /// Writes `state`'s changes to `library.sqlite`, one commit at a time, off the actor.
    let store: StateStore
    let commits = CommitQueue()
    /// One owner at a time per issue's files, across processes.
    let claims: IssueClaims
    let catalogClient: CatalogClient
    let slots: DownloadSlots
    /// Cover requests at once, from refresh and `cover(of:)` together.
    let coverSlots: DownloadSlots
    /// Covers being fetched for `cover(of:)`: a second caller joins the first fetch.
    var coverFetches: [String: Task<Result<URL, LibraryError>, Never>] = [:]
    /// The in-process download of each issue under way here: its task, its callers' progress
    /// handlers, its policy (not state: it ends with the task).
    var running: [String: InProcessDownload] = [:]
    /// This library's other work on each issue (claimants, a removal, an install; not state).
    var work: [String: IssueWork] = [:]
    var observers: [UUID: AsyncStream<LibraryEvent>.Continuation] = [:]
    /// Followers of the shelf (`shelfUpdates()`).
    var shelfFollowers: [ShelfUpdates] = []
    /// A `Foundation.Progress` per running download under one over all of them.
    nonisolated let progressTree = DownloadProgressTree()
    /// The engine of background downloads (`useBackgroundEngine(_:)`), when one is in use.
    var backgroundEngine: (any TransferEngine)?
    /// The same engine for the system's calls, which come on its thread, not the actor.
    nonisolated let backgroundEngineForSystem = Locked<(any TransferEngine)?>(nil)
    /// Calls to the engine under way (a start, a cancel), by a counter.
    var engineCalls: [Int: Task<Void, Never>] = [:]
    var engineCallCount = 0
    /// How many times the engine said it had delivered every event of a relaunch (not state: it
    /// ends a reconcile's wait for late events, `waitForEvents`).
    var engineDeliveries = 0

    /// Opens the library in `folder`, creating it when needed. Opening writes nothing unless
    /// the folder is new or needed repair after a crash, so it works on a full disk. It blocks
    /// the calling thread while it reads the state (and while another process commits).
    /// - Parameters:
    ///   - folder: the library's folder (in an app, inside its App Group container).
    ///   - scale: used only when the folder is new; an existing library keeps its own scale.
    ///   - configuration: download, unpack and storage settings.
    /// - Throws: `LibraryError.libraryInUse` when another writer holds the folder's lock for
    ///   longer than `LibraryConfiguration.lockTimeout`; `stateUnusable` for a state file that is
    ///   not a library's.
    public init(
        folder: URL, scale: LibraryScale = .normal, configuration: LibraryConfiguration = LibraryConfiguration()
    ) throws(LibraryError) {
        let layout = LibraryLayout(folder: folder.standardizedFileURL)
        let opened: OpenFolder
        do {
            try layout.createFolders()
            opened = try OpenFolder.open(layout.folder)
        } catch {
            throw .cannotOpen(path: folder.path, reason: error.reason)
        }
        layout.prepareStorage(configuration)
        let lock = WriterLock(folder: opened, timeout: configuration.lockTimeout)
        let openFlags = configuration.fileProtection.sqliteOpenFlags
        // Opening's repair holds the writer lock, and runs only while nobody works on an issue's
        // files: another process's unpack or download must not be taken for a crash's leftover.
        let (store, claims, state, problems) = try lock.hold { () throws(LibraryError) in
            let (store, loaded) = try StateStore.open(in: opened, scale: scale, lock: lock, openFlags: openFlags)
            let claims = IssueClaims(store: store, log: configuration.log, clock: configuration.clock)
            var state = loaded.state
            var problems = loaded.problems
            guard try !claims.anyHeldHoldingLock() else { return (store, claims, state, problems) }
            Self.recover(&state, in: layout, folder: opened)
            let batch = state.pendingChanges
            guard !batch.isEmpty else { return (store, claims, state, problems) }
            // A repair is redone on every open until it is committed, so a full disk must not
            // keep the library from opening.
            do {
                let outcome = try store.commitHoldingLock(batch)
                state.markCommitted(batch, revised: outcome.revised)
                if let stored = outcome.stored {
                    state.merge(stored.state)
                    problems = stored.problems
                }
            } catch {
                configuration.log(.error, "repaired state not saved: \(error)")
            }
            return (store, claims, state, problems)
        }
        for problem in problems { configuration.log(.error, "a row of the state is left out: \(problem)") }
        self.store = store
        self.claims = claims
        self.folder = layout.folder
        self.scale = state.scale
        self.configuration = configuration
        self.layout = layout
        self.state = state
        stateProblems = problems
        catalogClient = CatalogClient(configuration: configuration)
        slots = DownloadSlots(limit: configuration.maxConcurrentDownloads)
        coverSlots = DownloadSlots(limit: configuration.maxConcurrentCoverRequests)
    }

    /// Brings the files and the state back in line after a crash: removes interrupted unpacks,
    /// brings a cut swap to the version the saved record names (`ContentSwap.settle`), marks
    /// issues whose content folder is gone as not downloaded, drops orphaned `.part` files.
    private static func recover(_ state: inout LibraryState, in layout: LibraryLayout, folder: OpenFolder) {
        // The claims' files of schema 4 (flocks on `Claims/<name>`): claims are rows now.
        if folder.kind(of: "Claims") == .folder { try? folder.removeTree("Claims") }
        let issues = try? OpenFolder.open(layout.issues)
        for entry in (try? issues?.entries()) ?? [] {
            guard let item = entry.name, item.hasPrefix(LibraryLayout.temporaryPrefix) else { continue }
            try? issues?.removeTree(item)
        }
        if let issues {
            for name in ContentSwap.pending(in: issues) {
                let record = state.issues[name]
                let recorded = record?.status == .available ? record?.installedSHA256 : nil
                try? ContentSwap.settle(name, recorded: recorded, in: issues, layout: layout)
            }
        }
        // Only downloaded and downloading issues can need a repair: the rest are not touched
        // (copying every record of a large shelf was a visible part of opening it).
        let candidates = state.issues.values.filter { $0.status != .none }.map(\.name)
        for name in candidates {
            let part = layout.part(of: name, scale: state.scale)
            state.repair(name, hasContent: issues?.kind(of: name) == .folder) { FileStatus.size(of: part) ?? 0 }
        }
        // An in-process transfer under way belonged to a process that is gone: it stays pending
        // (`resumePendingDownloads()`), unless its install was committed just before the end
        // was (the record names its bundle as installed), or its issue went back to none.
        for (name, row) in state.transfers where row.isActive && row.engine == .inProcess {
            guard let record = state.issues[name] else { continue }
            guard record.hasInstalled(row) || record.status == .none else { continue }
            var ended = row
            ended.stage = .ended
            state.transfers[name] = ended
        }
        // Received files of a transfer the state still has under way are the next open's to
        // install (`reconcileTransfers`); any other is a leftover.
        var received = Set<String>()
        for (name, transfer) in state.transfers where transfer.isActive && state.issues[name] != nil {
            received.insert(TransferHandOff.receivedName(of: transfer.id))
            // An earlier generation's file the transfer took as its own (`IssueLifecycle.receive`).
            if let file = transfer.receivedFile { received.insert(file) }
        }
        let parts = Set(state.issues.keys.map { LibraryLayout.partFileName(of: $0, scale: state.scale) }).union(received)
        let downloads = try? OpenFolder.open(layout.downloads)
        for entry in (try? downloads?.entries()) ?? [] {
            guard let item = entry.name else { continue }
            // A `.part` file's metadata and a streamed download's staging (`StreamStaging`) go with it.
            let part =
                item.hasSuffix(".part.json")
                ? String(item.dropLast(5)) : item.hasSuffix(".part.stream") ? String(item.dropLast(7)) : item
            if !parts.contains(part) { try? downloads?.removeTree(item) }
        }
    }

    // MARK: - The shelf

    /// Every issue, newest first.
    public var issues: [Issue] {
        state.newestFirst().compactMap { state.issues[$0].map(shelfIssue) }
    }

    /// The issue with this name, if the library has it.
    public func issue(named name: String) -> Issue? {
        state.issues[name].map(shelfIssue)
    }

    /// The issue as the shelf shows it: its record, and downloading from the moment a download was
    /// asked (before the download has its claim and has committed the status, which it does first).
    func shelfIssue(_ record: IssueRecord) -> Issue {
        var issue = record.issue(in: layout)
        if record.status == .none, let progress = running[record.name]?.starting { issue.status = .downloading(progress) }
        return issue
    }

    /// The catalog the library was last refreshed from.
    public var catalogURL: URL? { state.catalogURL }

    /// The issue the reader has open (persisted); the storage policy never removes it.
    public var currentlyReadingIssue: Issue? {
        state.currentlyReading.flatMap { issue(named: $0) }
    }

    /// Sets (or clears, with nil) the issue being read. The commit runs off the actor; when it
    /// fails the change stays and goes with the next commit.
    public func setCurrentlyReadingIssue(_ name: String?) async throws(LibraryError) {
        try checkOpen()
        if let name, state.issues[name] == nil { throw .unknownIssue(name: name) }
        state.currentlyReading = name
        try await save()
    }

    /// Issues whose download was under way (the equivalent of `downloadingAssets`).
    public var pendingDownloads: [String] {
        issues.filter { if case .downloading = $0.status { true } else { false } }.map(\.name)
    }

    /// Stops running downloads (they stay pending, as with `suspendDownloads()`, and give their
    /// claims up), waits for the commits under way and closes the database. Every later change is
    /// refused with `LibraryError.libraryClosed`; reading stays possible.
    public func close() async {
        isClosed = true
        await suspendDownloads()
        // Jobs handed over reach the engine before the library goes (a command exits right after);
        // then a closed library records nothing more (`take` drops the engine's events, and what
        // the engine hands over meanwhile stays in Downloads/ for the next open). The events'
        // consumer keeps running: a relaunch's "delivered all events" still gets its answer at
        // once instead of after `LibraryTransferSink.recordDeadline`.
        await settleEngineCalls()
        await waitForInstalls()
        await backgroundEngine?.detach()
        await commits.drain()
        isStoreClosed = true
        let claims = claims
        await BlockingWork.run { claims.close() }
        store.close()
        for follower in shelfFollowers { follower.finish() }
        shelfFollowers = []
    }

    /// Refuses a change once `close()` was called.
    func checkOpen() throws(LibraryError) {
        if isClosed { throw .libraryClosed(path: folder.path) }
    }

    /// Logs at `level` (`LibraryConfiguration.log`; URL secrets are cut out there).
    func log(_ level: LibraryLog.Level, _ message: @autoclosure () -> String) {
        configuration.log(level, message())
    }

    /// Counts one more (or, with -1, one less) piece of this library's work on `name`'s claim.
    func countClaimant(_ name: String, _ change: Int) {
        work[name, default: IssueWork()].claimants += change
    }

    /// How many pieces of this library's work hold, or are taking, `name`'s claim.
    func claimants(of name: String) -> Int { work[name]?.claimants ?? 0 }

    /// The install of `name`'s received file under way, if any.
    func installTask(of name: String) -> Task<Void, Never>? { work[name]?.install }

    /// How many times this library installed each issue from a background transfer.
    var backgroundInstalls: [String: Int] { work.compactMapValues { $0.backgroundInstalls > 0 ? $0.backgroundInstalls : nil } }

    /// Logs at the info level.
    func log(_ message: @autoclosure () -> String) {
        configuration.log(.info, message())
    }
}
