import Foundation
import NewsstandCore

/// A read-only view of a library's shelf, for an app extension (a widget, a notification service
/// extension, an App Intent) beside the app whose `IssueLibrary` writes the same folder (an App
/// Group container). It opens `library.sqlite` read-only for each call and closes it again: it
/// never writes the state, takes no lock of the library's and holds nothing between calls, so
/// neither the app nor the extension is suspended holding a lock on the other's account. Each call
/// sees what the writer has committed up to then.
///
/// Every call reads on a thread of its own. Rows the library would never write are left out and
/// reported (`LibrarySnapshot.problems`), as `IssueLibrary` does.
public final class LibraryReader: Sendable {
    /// The library's folder.
    public let folder: URL
    private let layout: LibraryLayout

    /// A reader of the library in `folder`.
    /// - Throws: `cannotOpen` when the folder has no library (the app has not opened it yet);
    ///   `stateUnusable` when its state is not a library's, is a link, or was written by a newer
    ///   version, or an older one the app has not opened since.
    public init(folder: URL) throws(LibraryError) {
        layout = LibraryLayout(folder: folder.standardizedFileURL)
        self.folder = layout.folder
        _ = try Self.read(layout) { _ in () }
    }

    /// The whole shelf as committed now: the issues newest first, the reading positions and the
    /// issue being read.
    public func snapshot() async throws(LibraryError) -> LibrarySnapshot {
        try await reading { database, layout in
            let loaded = try StateRows.readTables(database)
            let state = loaded.state
            return LibrarySnapshot(
                issues: state.newestFirst().compactMap { state.issues[$0]?.issue(in: layout) },
                readingPositions: Dictionary(uniqueKeysWithValues: state.readingPositions.map { ($0.key, $0.value) }),
                currentlyReading: state.currentlyReading.flatMap { state.issues[$0] == nil ? nil : $0 },
                problems: loaded.problems)
        }
    }

    /// Every issue, newest first.
    public func issues() async throws(LibraryError) -> [Issue] {
        try await snapshot().issues
    }

    /// The issue with this name, if the library has it (a row it would never write reads as none).
    public func issue(named name: String) async throws(LibraryError) -> Issue? {
        try await reading { try Self.record(named: name, in: $0)?.issue(in: $1) }
    }

    /// Where the reader left an issue, if anywhere.
    public func readingPosition(of name: String) async throws(LibraryError) -> ReadingPosition? {
        try await reading { database, _ in
            let rows = try database.prepare(StateSchema.selectPosition)
            try rows.bind([.text(name)])
            guard try rows.step() else { return nil }
            return try? StateRows.position(from: rows).1
        }
    }

    /// The issue the app has open, if any.
    public func currentlyReadingIssue() async throws(LibraryError) -> Issue? {
        try await reading { database, layout in
            guard let name = try Self.setting(LibraryState.Setting.currentlyReading, in: database) else { return nil }
            return try Self.record(named: name, in: database)?.issue(in: layout)
        }
    }

    /// The content of an available issue, for the scale it was installed at; read and decoded on
    /// a thread of its own.
    public func content(of name: String, registry: PageRegistry = .standard) async throws(ContentError) -> IssueContent {
        let record: IssueRecord?
        do {
            record = try await reading { database, _ in try Self.record(named: name, in: database) }
        } catch {
            throw .notAvailable(issue: name)
        }
        guard let record, record.status == .available else { throw .notAvailable(issue: name) }
        var scale = record.installedScale
        if scale == nil {
            // Content installed before the installed scale was recorded: the library's scale.
            scale = try? await reading { database, _ in
                try Self.setting(LibraryState.Setting.scale, in: database).flatMap(LibraryScale.init(rawValue:))
            }
        }
        return try await IssueContent.read(layout.content(of: record.name), scale: scale ?? .normal, registry: registry)
    }

    /// `body` on the state in one read transaction (`read`), on a thread of its own.
    private func reading<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteDatabase, LibraryLayout) throws -> T
    ) async throws(LibraryError) -> T {
        let layout = layout
        return try await BlockingWork.run {
            Result { () throws(LibraryError) in try Self.read(layout) { try body($0, layout) } }
        }.get()
    }

    /// A setting's value (a row the library would never write reads as none).
    private static func setting(_ key: String, in database: SQLiteDatabase) throws -> String? {
        var problems: [StateError] = []
        return try StateRows.readSettings(database, problems: &problems)[key]
    }

    /// The issue's row, when it is one the library would write.
    private static func record(named name: String, in database: SQLiteDatabase) throws -> IssueRecord? {
        let rows = try database.prepare(StateSchema.selectIssue)
        try rows.bind([.text(name)])
        guard try rows.step() else { return nil }
        return try? IssueRow.record(from: rows)
    }

    /// Opens the state read-only, checks it is a library's of this schema, runs `body` in one read
    /// transaction and closes it. Blocking.
    private static func read<Result>(_ layout: LibraryLayout, _ body: (SQLiteDatabase) throws -> Result) throws(LibraryError)
        -> Result
    {
        let folder: OpenFolder
        do {
            folder = try OpenFolder.open(layout.folder)
        } catch {
            throw .cannotOpen(path: layout.folder.path, reason: error.reason)
        }
        guard folder.kind(of: StateStore.fileName) != nil else {
            throw .cannotOpen(path: layout.folder.path, reason: "it holds no library yet (no \(StateStore.fileName))")
        }
        try StateFiles.checkRegularFiles(in: folder)
        guard let real = realpath(folder.path, nil) else {
            throw .cannotOpen(path: folder.path, reason: String(cString: strerror(errno)))
        }
        let path = String(cString: real) + "/" + StateStore.fileName
        free(real)
        try StateFiles.checkSize(in: folder, path: path)
        do {
            let database = try SQLiteDatabase(path: path, access: .readOnly)
            defer { database.close() }
            try StateFiles.checkSchema(of: database, migrating: false)
            return try database.reading { try body(database) }
        } catch {
            throw .readingState(at: path, error)
        }
    }
}

/// The shelf as a `LibraryReader` read it, in one read transaction.
public struct LibrarySnapshot: Sendable, Equatable {
    /// Every issue, newest first.
    public var issues: [Issue]
    /// Where the reader left each issue.
    public var readingPositions: [String: ReadingPosition]
    /// The issue the app has open, if any.
    public var currentlyReading: String?
    /// Rows left out: values the library would never write.
    public var problems: [StateError]
}
