import Foundation

/// Everything the library persists. The actor keeps it in memory and `StateStore` writes what
/// changed since the last save (`ChangeTracked` knows which rows), so a change costs the same
/// whether the library has 10 issues or 100,000.
struct LibraryState: Sendable {
    var scale: LibraryScale
    var catalogURL: URL?
    /// Validators of the last catalog response, for a conditional GET.
    var catalogETag: String?
    var catalogLastModified: String?
    var currentlyReading: String?
    /// Where the reader left each issue.
    var readingPositions = ChangeTracked<ReadingPosition>()
    var issues = ChangeTracked<IssueRecord>()

    init(scale: LibraryScale) { self.scale = scale }

    /// The library-wide values, saved as one small row set whenever anything is saved.
    var settings: Settings {
        Settings(
            catalogURL: catalogURL, catalogETag: catalogETag, catalogLastModified: catalogLastModified,
            currentlyReading: currentlyReading)
    }

    struct Settings: Equatable, Sendable {
        var catalogURL: URL?
        var catalogETag: String?
        var catalogLastModified: String?
        var currentlyReading: String?
    }

    /// Whether anything changed since the last save (or load).
    var hasChanges: Bool { !issues.changed.isEmpty || !readingPositions.changed.isEmpty }

    /// Forgets what changed, once it is saved.
    mutating func markSaved() {
        issues.markSaved()
        readingPositions.markSaved()
    }
}

/// Values by name that remember which names changed since `markSaved()`: what a save writes
/// (a name set to nil is deleted).
struct ChangeTracked<Value: Equatable & Sendable>: Sendable, Sequence {
    private var storage: [String: Value] = [:]
    /// Names set or removed since the last save.
    private(set) var changed: Set<String> = []

    init() {}

    /// Values as loaded from the database: nothing to save.
    init(loaded: [String: Value]) { storage = loaded }

    subscript(name: String) -> Value? {
        get { storage[name] }
        set {
            guard storage[name] != newValue else { return }
            storage[name] = newValue
            changed.insert(name)
        }
    }

    var values: Dictionary<String, Value>.Values { storage.values }
    var keys: Dictionary<String, Value>.Keys { storage.keys }
    var count: Int { storage.count }

    func makeIterator() -> Dictionary<String, Value>.Iterator { storage.makeIterator() }

    mutating func markSaved() { changed = [] }
}
