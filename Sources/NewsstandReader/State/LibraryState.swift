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
    /// Each value boxed: the dictionary's buckets then hold a reference, not a record of three
    /// hundred bytes. A dictionary keeps about 2.6 buckets per value after growing, so inline
    /// records made 100,000 issues take 90 MB of mostly empty buckets.
    private var storage: [String: Boxed<Value>] = [:]
    /// Names set or removed since the last save.
    private(set) var changed: Set<String> = []

    init() {}

    /// Values as loaded from the database: nothing to save.
    init(loaded: [String: Value]) { storage = loaded.mapValues(Boxed.init) }

    /// Sets a value as loaded from the database: nothing to save.
    mutating func setLoaded(_ value: Value, for name: String) { storage[name] = Boxed(value) }

    subscript(name: String) -> Value? {
        get { storage[name]?.value }
        set {
            guard storage[name]?.value != newValue else { return }
            storage[name] = newValue.map(Boxed.init)
            changed.insert(name)
        }
    }

    var values: LazyMapSequence<Dictionary<String, Boxed<Value>>.Values, Value> { storage.values.lazy.map(\.value) }
    var keys: Dictionary<String, Boxed<Value>>.Keys { storage.keys }
    var count: Int { storage.count }

    func makeIterator() -> LazyMapSequence<[String: Boxed<Value>], (key: String, value: Value)>.Iterator {
        storage.lazy.map { (key: $0.key, value: $0.value.value) }.makeIterator()
    }

    mutating func markSaved() { changed = [] }

    /// Makes room for `count` values, so that a refresh adding 100,000 issues does not hold the
    /// old and the new storage at once each time the dictionary grows.
    mutating func reserveCapacity(_ count: Int) {
        storage.reserveCapacity(count)
        changed.reserveCapacity(count)
    }
}

/// A value kept on the heap (see `ChangeTracked`).
final class Boxed<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
