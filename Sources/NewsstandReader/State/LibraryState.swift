import Foundation
import NewsstandCore

/// Everything the library persists. The actor keeps it in memory and `StateStore` writes what
/// changed since the last commit (`ChangeTracked` knows which rows), so a change costs the same
/// whether the library has 10 issues or 100,000. Four tables of rows keyed by name: issues,
/// reading positions, transfers and settings (the scale, the catalog's URL and validators, the issue being
/// read), so that a merge with another writer's commits works the same way for all of them.
struct LibraryState: Sendable {
    var scale: LibraryScale
    /// Where the reader left each issue.
    var readingPositions = ChangeTracked<ReadingPosition>()
    var issues = ChangeTracked<IssueRecord>()
    /// Transfers handed to an engine, by issue (`TransferRecord`).
    var transfers = ChangeTracked<TransferRecord>()
    /// Library-wide values by key (`Setting`).
    var settings = ChangeTracked<String>()

    init(scale: LibraryScale) {
        self.scale = scale
        settings[Setting.scale] = scale.rawValue
    }

    /// The keys of the settings table.
    enum Setting {
        static let scale = "scale"
        static let catalogURL = "catalogURL"
        static let catalogETag = "catalogETag"
        static let catalogLastModified = "catalogLastModified"
        static let currentlyReading = "currentlyReading"
    }

    var catalogURL: URL? {
        get { settings[Setting.catalogURL].flatMap { URL(string: $0) } }
        set { settings[Setting.catalogURL] = newValue?.absoluteString }
    }
    /// Validators of the last catalog response, for a conditional GET.
    var catalogETag: String? {
        get { settings[Setting.catalogETag] }
        set { settings[Setting.catalogETag] = newValue }
    }
    var catalogLastModified: String? {
        get { settings[Setting.catalogLastModified] }
        set { settings[Setting.catalogLastModified] = newValue }
    }
    var currentlyReading: String? {
        get { settings[Setting.currentlyReading] }
        set { settings[Setting.currentlyReading] = newValue }
    }

    /// Each issue's revision, as the database held it when last read or written (`ClaimlessWrite`):
    /// not a change of this library's, never saved from here.
    var revisions: [String: Int64] = [:]
    /// The issues whose pending changes were made without their claim (`ClaimlessWrite`).
    private(set) var claimless: [String: ClaimlessWrite] = [:]

    /// Makes `change` to `name`'s record and transfer row as a write made without the issue's
    /// claim (an engine's event): committed only while the issue's revision is the one it was
    /// made from (`ClaimlessWrite`). Joins, unconditionally, a pending change made under the claim.
    mutating func changeWithoutClaim(_ name: String, _ change: (inout LibraryState) -> Void) {
        let earlier = pendingClaimless(name)
        let joinsOwners = earlier == nil && (issues.changed[name] != nil || transfers.changed[name] != nil)
        let basis = earlier.map(\.basis) ?? revisions[name]
        change(&self)
        guard !joinsOwners, issues.changed[name] != nil || transfers.changed[name] != nil else {
            claimless[name] = nil
            return
        }
        claimless[name] = ClaimlessWrite(basis: basis, recordChange: issues.changed[name], rowChange: transfers.changed[name])
    }

    /// `name`'s claimless change, when its pending change is one (nothing changed it since
    /// under the claim).
    private func pendingClaimless(_ name: String) -> ClaimlessWrite? {
        guard let write = claimless[name], write.recordChange == issues.changed[name], write.rowChange == transfers.changed[name]
        else { return nil }
        return write
    }

    /// Every issue's name, newest first. Sorts (date, name) pairs, not records: a record is
    /// two dozen references, and moving 10,000 of them about in a sort was most of `list`.
    func newestFirst() -> [String] {
        IssueOrder.sorted(issues.values.map { (date: $0.date, name: $0.name) }) { $0 }.map(\.name)
    }

    /// Every unsaved change, for one commit: the rows and the change each is at.
    var pendingChanges: StateBatch {
        StateBatch(
            issues: issues.pending, positions: readingPositions.pending, settings: settings.pending, transfers: transfers.pending,
            claimless: claimless.filter { pendingClaimless($0.key) != nil })
    }

    /// Forgets the changes `batch` committed, except those made again since it was taken, and
    /// takes the revisions the commit gave. A claimless change made again is made on top of what
    /// the batch wrote: it is based on the revision the batch gave, if it gave one. A claimless
    /// change the commit dropped is forgotten too: the merge of the commit's rows brings the
    /// other writer's.
    mutating func markCommitted(_ batch: StateBatch, revised: [String: Int64]) {
        issues.markCommitted(batch.issues)
        readingPositions.markCommitted(batch.positions)
        settings.markCommitted(batch.settings)
        transfers.markCommitted(batch.transfers)
        claimless = claimless.filter { pendingClaimless($0.key) != nil }
        for (name, revision) in revised where claimless[name] != nil { claimless[name]?.basis = revision }
        revisions.merge(revised) { $1 }
    }

    /// Takes the rows of `stored` (what the database holds after another writer's commits) and
    /// puts this library's unsaved changes back on top: per row, ours win where we changed it.
    /// A claimless change (`ClaimlessWrite`) whose issue has another revision in `stored` is
    /// dropped: the other writer's rows are taken. Returns the names dropped.
    @discardableResult
    mutating func merge(_ stored: LibraryState) -> [String] {
        var dropped: [String] = []
        for name in claimless.keys.sorted() {
            guard let write = pendingClaimless(name) else {
                claimless[name] = nil
                continue
            }
            guard write.basis != stored.revisions[name] else { continue }
            issues.forgetChange(of: name)
            transfers.forgetChange(of: name)
            claimless[name] = nil
            dropped.append(name)
        }
        issues.replaceKeepingChanges(with: stored.issues)
        readingPositions.replaceKeepingChanges(with: stored.readingPositions)
        settings.replaceKeepingChanges(with: stored.settings)
        transfers.replaceKeepingChanges(with: stored.transfers)
        revisions = stored.revisions
        return dropped
    }

    /// Takes in the rows `batch` wrote, and the revisions it gave, as the database now holds them.
    mutating func takeWritten(_ batch: StateBatch, revised: [String: Int64]) {
        revisions.merge(revised) { $1 }
        issues.takeWritten(batch.issues)
        readingPositions.takeWritten(batch.positions)
        settings.takeWritten(batch.settings)
        transfers.takeWritten(batch.transfers)
    }
}

/// Values by name that remember which names changed, and at which change, since they were last
/// committed: what a commit writes (a name set to nil is deleted). The change number tells a
/// commit's rows from the same rows changed again while it ran: only the ones it wrote are marked
/// committed, and a failed commit marks nothing, so its rows go with the next one.
struct ChangeTracked<Value: Equatable & Sendable>: Sendable, Sequence {
    /// Each value boxed: the dictionary's buckets then hold a reference, not a record of three
    /// hundred bytes. A dictionary keeps about 2.6 buckets per value after growing, so inline
    /// records made 100,000 issues take 90 MB of mostly empty buckets.
    private var storage: [String: Boxed<Value>] = [:]
    /// Names set or removed since their last commit, with the number of their latest change.
    private(set) var changed: [String: UInt64] = [:]
    private var lastChange: UInt64 = 0

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
            lastChange += 1
            changed[name] = lastChange
        }
    }

    var values: LazyMapSequence<Dictionary<String, Boxed<Value>>.Values, Value> { storage.values.lazy.map(\.value) }
    var keys: Dictionary<String, Boxed<Value>>.Keys { storage.keys }
    var count: Int { storage.count }

    func makeIterator() -> LazyMapSequence<[String: Boxed<Value>], (key: String, value: Value)>.Iterator {
        storage.lazy.map { (key: $0.key, value: $0.value.value) }.makeIterator()
    }

    /// The unsaved rows: name, change number, value (nil: delete).
    var pending: [StateBatch.Row<Value>] {
        changed.map { StateBatch.Row(name: $0.key, change: $0.value, value: storage[$0.key]?.value) }
    }

    /// Forgets the changes of `rows` that are still the latest of their name.
    mutating func markCommitted(_ rows: [StateBatch.Row<Value>]) {
        for row in rows where changed[row.name] == row.change { changed[row.name] = nil }
    }

    /// Forgets `name`'s unsaved change: the next merge takes the stored value.
    mutating func forgetChange(of name: String) { changed[name] = nil }

    /// Sets the values of `rows` as the database holds them after writing them: nothing to save.
    mutating func takeWritten(_ rows: [StateBatch.Row<Value>]) {
        for row in rows { storage[row.name] = row.value.map(Boxed.init) }
    }

    /// Takes `stored`'s values, keeping this table's unsaved ones (and deletions) on top.
    mutating func replaceKeepingChanges(with stored: ChangeTracked<Value>) {
        var merged = stored.storage
        for name in changed.keys { merged[name] = storage[name] }
        storage = merged
    }

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
