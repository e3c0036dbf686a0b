/// Why the library's state file (`library.sqlite`, or a `library.json` being migrated) cannot
/// be used. The file is left as it is: nothing is written to it or anywhere else.
public enum StateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// It is a symbolic link, a folder or another kind of entry, not a regular file (also for
    /// its `-wal`, `-shm` and `-journal` companions).
    case notARegularFile(path: String, kind: String)
    /// It is a SQLite database, but not a library's (another application's, or empty).
    case notALibrary(path: String)
    /// A newer version of the library wrote it (`found`); this one reads up to `supported`.
    case newerSchema(path: String, found: Int64, supported: Int64)
    /// SQLite cannot read it: damaged, or not a database at all.
    case unreadable(path: String, reason: SQLiteFailure)
    /// An issue's row holds a value the library would never write (an unsafe issue or file
    /// name, a malformed URL, an unknown status, an oversized text). In `library.sqlite` the row
    /// is left out and the rest of the library opens (`IssueLibrary.stateProblems`); in a
    /// `library.json` being migrated it refuses the migration.
    case badRow(path: String, name: String, reason: String)
    /// The reading position of `issue` is not two whole numbers ≥ 0; it is left out.
    case badReadingPosition(path: String, issue: String, reason: String)
    /// A setting's row holds a value the library would never write; it is left out, except the
    /// scale, without which the library cannot open.
    case badSetting(path: String, key: String, reason: String)
    /// It was written by an older version that the app has not opened since (`found`): the
    /// read-only `LibraryReader` cannot migrate it; `IssueLibrary` does on its next open.
    case olderSchema(path: String, found: Int64, needed: Int64)
    /// `library.sqlite` and its `-wal` together are larger than `StateStore.maxStateBytes`.
    case tooLarge(path: String, limit: Int64)
    /// More issues than a library holds (`StateStore.maxIssues`).
    case tooManyIssues(path: String, limit: Int)
    /// `library.json` (an older library's state) is larger than `StateStore.maxLegacyStateBytes`,
    /// or not the JSON an older library wrote.
    case legacyUnreadable(path: String, reason: String)

    /// Why the state file cannot be used, for messages.
    public var description: String {
        switch self {
        case .notARegularFile(let path, let kind): "'\(path)' is \(kind), not a regular file"
        case .notALibrary(let path): "'\(path)' is not a Newsstand library database"
        case .newerSchema(let path, let found, let supported):
            "'\(path)' was written by a newer version (schema \(found); this version reads up to \(supported))"
        case .unreadable(let path, let reason): "'\(path)' cannot be read: \(reason)"
        case .badRow(let path, let name, let reason): "'\(path)': issue '\(name)': \(reason)"
        case .badReadingPosition(let path, let issue, let reason): "'\(path)': the reading position of '\(issue)': \(reason)"
        case .badSetting(let path, let key, let reason): "'\(path)': setting '\(key)': \(reason)"
        case .olderSchema(let path, let found, let needed):
            "'\(path)' has schema \(found); the app must open it once to bring it to \(needed)"
        case .tooLarge(let path, let limit): "'\(path)' (with its -wal) is larger than \(limit) bytes"
        case .tooManyIssues(let path, let limit): "'\(path)' holds more than \(limit) issues"
        case .legacyUnreadable(let path, let reason): "'\(path)' cannot be migrated: \(reason)"
        }
    }
}

extension LibraryError {
    /// What reading the state at `path` threw, as the library's error: a `LibraryError` as it
    /// is, anything else the file being unreadable.
    static func readingState(at path: String, _ error: any Error) -> LibraryError {
        switch error {
        case let error as LibraryError: error
        case let error as SQLiteFailure: .stateUnusable(.unreadable(path: path, reason: error))
        default: .stateUnusable(.unreadable(path: path, reason: SQLiteFailure(code: 0, message: "\(error)")))
        }
    }
}
