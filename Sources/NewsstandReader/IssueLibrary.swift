import Foundation
import NewsstandCore

/// The shelf of issues on this device (after `NKLibrary`): one folder holding the persisted
/// state, partial downloads, unpacked issues and cached covers.
///
/// Every change is saved at once (temporary file + rename), so reopening the folder after a
/// crash shows the same issues and statuses; leftovers of an interrupted unpack are removed
/// on open, and downloads that were under way continue with `resumePendingDownloads()`.
///
/// One writer per folder: an open library holds an advisory lock on the folder until `close()`
/// (or its end), and a second one, in this process or another, is refused with
/// `LibraryError.libraryInUse` (after `LibraryConfiguration.lockTimeout`).
public actor IssueLibrary {
    /// The library's folder.
    public nonisolated let folder: URL
    /// The scale fixed when the folder was first used.
    public nonisolated let scale: LibraryScale
    /// How the library downloads and keeps issues.
    public nonisolated let configuration: LibraryConfiguration

    let layout: LibraryLayout
    /// One writer per folder (`library.lock`): held from opening until `close()` or the end.
    let lock: FileLock
    var isClosed = false
    var state: LibraryState
    /// Writes `state`'s changes to `library.sqlite`.
    let store: StateStore
    let catalogClient: CatalogClient
    let slots: DownloadSlots
    /// Cover requests at once, from refresh and `cover(of:)` together.
    let coverSlots: DownloadSlots
    /// Covers being fetched for `cover(of:)`: a second caller joins the first fetch.
    var coverFetches: [String: Task<Result<URL, LibraryError>, Never>] = [:]
    var running: [String: Task<Result<Issue, LibraryError>, Never>] = [:]
    var progressHandlers: [String: [@Sendable (DownloadProgress) -> Void]] = [:]
    var suspending: Set<String> = []
    /// How the last update of each issue went (`update(_:)` returns it).
    var updateResults: [String: UpdateResult] = [:]
    var observers: [UUID: AsyncStream<LibraryEvent>.Continuation] = [:]

    /// Opens the library in `folder`, creating it when needed. Opening writes nothing unless
    /// the folder is new or needed repair after a crash, so it works on a full disk.
    /// - Parameters:
    ///   - scale: used only when the folder is new; an existing library keeps its own scale.
    ///   - configuration: download, unpack and storage settings.
    /// - Throws: `LibraryError.libraryInUse` when another process or instance has the folder open.
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
        let held: FileLock?
        do {
            held = try FileLock.acquire(layout.lockFile.lastPathComponent, in: opened, timeout: configuration.lockTimeout)
        } catch {
            throw .cannotOpen(path: layout.folder.path, reason: "cannot lock it: \(error.reason)")
        }
        guard let held else { throw .libraryInUse(path: layout.folder.path) }
        lock = held
        let (store, loaded) = try StateStore.open(in: opened, scale: scale)
        var state = loaded
        Self.recover(&state, in: layout)
        if state.hasChanges {
            // A repair is redone on every open until it is saved, so a full disk must not keep
            // the library from opening.
            do throws(LibraryError) {
                try store.save(&state)
            } catch {
                configuration.log?("newsstand-reader: repaired state not saved: \(error)")
            }
        }
        self.store = store
        self.folder = layout.folder
        self.scale = state.scale
        self.configuration = configuration
        self.layout = layout
        self.state = state
        catalogClient = CatalogClient(configuration: configuration)
        slots = DownloadSlots(limit: configuration.maxConcurrentDownloads)
        coverSlots = DownloadSlots(limit: configuration.maxConcurrentCoverRequests)
    }

    /// Brings the files and the state back in line after a crash: removes interrupted unpacks,
    /// brings a cut swap to the version the saved record names (`ContentSwap.settle`), marks
    /// issues whose content folder is gone as not downloaded, drops orphaned `.part` files.
    private static func recover(_ state: inout LibraryState, in layout: LibraryLayout) {
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
            guard var record = state.issues[name] else { continue }
            switch record.status {
            case .available where issues?.kind(of: name) != .folder:
                record.status = .none
                record.installedSHA256 = nil
                record.installedContentURL = nil
                record.installedScale = nil
            case .downloading:
                let onDisk = FileStatus.size(of: layout.part(of: name, scale: state.scale)) ?? 0
                record.status = .downloading(
                    DownloadProgress(bytesReceived: onDisk, bytesExpected: record.contentSize.map(Int64.init)))
            default:
                break
            }
            state.issues[name] = record
        }
        let parts = Set(state.issues.keys.map { LibraryLayout.partFileName(of: $0, scale: state.scale) })
        let downloads = try? OpenFolder.open(layout.downloads)
        for entry in (try? downloads?.entries()) ?? [] {
            guard let item = entry.name else { continue }
            let part = item.hasSuffix(".part.json") ? String(item.dropLast(5)) : item
            if !parts.contains(part) { try? downloads?.removeTree(item) }
        }
    }

    // MARK: - The shelf

    /// Every issue, newest first.
    public var issues: [Issue] {
        newestFirst().compactMap { state.issues[$0]?.issue(in: layout) }
    }

    /// Every issue's name, newest first. Sorts (date, name) pairs, not records: a record is
    /// two dozen references, and moving 10,000 of them about in a sort was most of `list`.
    func newestFirst() -> [String] {
        IssueOrder.sorted(state.issues.values.map { (date: $0.date, name: $0.name) }) { $0 }.map(\.name)
    }

    /// The issue with this name, if the library has it.
    public func issue(named name: String) -> Issue? {
        state.issues[name]?.issue(in: layout)
    }

    /// The catalog the library was last refreshed from.
    public var catalogURL: URL? { state.catalogURL }

    /// The issue the reader has open (persisted); the storage policy never removes it.
    public var currentlyReadingIssue: Issue? {
        state.currentlyReading.flatMap { issue(named: $0) }
    }

    /// Sets (or clears, with nil) the issue being read.
    public func setCurrentlyReadingIssue(_ name: String?) throws(LibraryError) {
        try checkOpen()
        if let name, state.issues[name] == nil { throw .unknownIssue(name: name) }
        state.currentlyReading = name
        try save()
    }

    /// Issues whose download was under way (the equivalent of `downloadingAssets`).
    public var pendingDownloads: [String] {
        issues.filter { if case .downloading = $0.status { true } else { false } }.map(\.name)
    }

    // MARK: - Events

    /// A stream of progress and status changes, for an app's UI. Each call makes a new stream.
    public func events() -> AsyncStream<LibraryEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LibraryEvent.self, bufferingPolicy: .bufferingNewest(512))
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeObserver(id) } }
        return stream
    }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    func emit(_ event: LibraryEvent) {
        for continuation in observers.values { continuation.yield(event) }
    }

    /// Stops running downloads (they stay pending, as with `suspendDownloads()`) and releases
    /// the folder's lock, so that another process or `IssueLibrary` can open it. Every later
    /// change is refused with `LibraryError.libraryClosed`; reading stays possible.
    public func close() async {
        isClosed = true
        await suspendDownloads()
        // The database before the lock: the next holder of the folder finds it closed.
        store.close()
        lock.release()
    }

    // MARK: - Persistence

    /// Refuses a change once `close()` was called.
    func checkOpen() throws(LibraryError) {
        if isClosed { throw .libraryClosed(path: folder.path) }
    }

    func save() throws(LibraryError) {
        // Without the lock another writer may own the folder: never write then.
        guard !lock.isReleased else { throw .libraryClosed(path: folder.path) }
        try store.save(&state)
    }

    func log(_ message: @autoclosure () -> String) {
        configuration.log?("newsstand-reader: \(message())")
    }
}
