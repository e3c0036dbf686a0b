import Foundation
import NewsstandCore

/// The magazine-wide build index, `<output>/.newsstand/build-index`: every issue's manifest in
/// a compact binary form, under the identity (device, inode, size, times to the nanosecond) of
/// the `manifest.json` it was read from, and the digests of the catalogs last written. A build
/// then takes an unchanged issue's manifest from the index after one `stat` instead of reading
/// and decoding it (`JSONDecoder` was a quarter of a no-change build), and leaves `issues.plist`
/// alone when no entry changed and the file still holds what was written.
///
/// The manifests stay the records; the index only remembers what they said. It is trusted
/// entry by entry, only while the manifest file has the recorded identity (a replaced or
/// rewritten manifest has another inode or `ctime`, which nobody can set back), and only
/// manifests whose last change was over a second old when read are remembered (a write in the
/// same clock tick would leave the identity as it was). The whole index is distrusted, and
/// every manifest read, when it is a link, larger than `maximumBytes`, of another format
/// version or tool version, or fails its XXH3 checksum (edited or cut short).
///
/// Each entry also remembers the identity each of the issue's bundle indexes had when its
/// bytes were last found to be the manifest's (`verifiedIdentity`), under the same rule (only
/// settled identities): a no-change build then checks an index with the `stat` it makes
/// anyway instead of reading and hashing it, and an index edited since (another `ctime`) is
/// read and hashed again.
///
/// Format (version 6, which added the verified identities of the bundle indexes; version 5 the issue's `Language`; version 4 the manifest's `epub` and `epubKey`; version 3 the issue's
/// `Access`; version 2 the manifest's `optimized` and the validation's `derived`):
/// the line `newsstand build index`, varint version, the tool version,
/// catalog records, then entries sorted by issue name (name, identity, length, manifest in
/// `ManifestCodec`'s form, the count of verified files, each its name and identity); last, 32
/// hex digits of XXH3-128 over everything before them.
public final class BuildIndex: Sendable {
    /// The folder in the output that holds the index.
    public static let folderName = ".newsstand"
    /// The index's file name in that folder.
    public static let fileName = "build-index"
    /// The largest index read: about 6 KB per issue of 30 pages (a 10,000-issue magazine's is
    /// about 60 MB); a larger one is not used (every manifest is read instead).
    public static let maximumBytes = 128 << 20
    static let version: UInt64 = 6
    static let magic = Array("newsstand build index\n".utf8)

    /// A catalog file as this build wrote (or found) it: the digest of the entries it was
    /// written from, its size and the XXH3 of its bytes, and the key of the manifests the
    /// entries were made from (`CatalogSources`; empty when one was not settled).
    struct CatalogRecord: Equatable, Sendable {
        var file: String
        var digest: String
        var size: Int64
        var xxh3: String
        var sources: String = ""
    }

    private let stored: [UInt8]
    private let storedEntries: [String: StoredEntry]
    private let storedCatalog: [String: CatalogRecord]
    /// What the next index holds, filled by this run's jobs.
    private let fresh = Locked(Fresh())

    /// An entry of the index read: its manifest's identity, where its bytes are in `stored`,
    /// and the identities its outputs had when their bytes were verified.
    private struct StoredEntry {
        var identity: FileIdentity
        var range: Range<Int>
        var verified: [String: FileIdentity]
    }

    private struct Fresh {
        /// Entries carried over from the index read (a range of `stored`, not a copy) or
        /// remembered by this run.
        var entries: [String: FreshEntry] = [:]
        var catalog: [String: CatalogRecord] = [:]
        /// The issues whose manifests were taken from the index read.
        var hits: Set<String> = []
        /// Whether this run verified an output the index read did not have as verified.
        var verifiedMore = false
    }

    private struct FreshEntry {
        var identity: FileIdentity
        var bytes: EntryBytes
        var verified: [String: FileIdentity] = [:]
        /// The manifest as this run decoded it from the index (validation does), without its
        /// inputs: the catalog takes it instead of decoding the bytes a second time (that was
        /// 9% of a build with one issue changed among 500).
        var decoded: BuildManifest? = nil
    }

    private enum EntryBytes {
        case stored(Range<Int>)
        case own([UInt8])
    }
    /// The time now, in seconds since 1970 (tests move it on, rather than wait a second).
    private let clock: @Sendable () -> Double

    /// The issues whose manifests were taken from the index read (not from what this run
    /// remembered itself) so far.
    public var issuesFromIndex: Set<String> { fresh.current.hits }

    private init(
        stored: [UInt8], entries: [String: StoredEntry], catalog: [String: CatalogRecord],
        clock: @escaping @Sendable () -> Double
    ) {
        self.stored = stored
        storedEntries = entries
        storedCatalog = catalog
        self.clock = clock
    }

    /// The wall clock, in seconds since 1970.
    public static let systemClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    /// An index that remembers nothing yet (a first build, or `--force`).
    public static func empty(clock: @escaping @Sendable () -> Double = systemClock) -> BuildIndex {
        BuildIndex(stored: [], entries: [:], catalog: [:], clock: clock)
    }

    /// Reads the index in the output folder `output`. An index that is missing or was made by
    /// another version of newsstand gives an empty one; one that cannot be trusted gives an
    /// empty one and the reason, to be printed as a warning.
    public static func load(output: URL, clock: @escaping @Sendable () -> Double = systemClock) -> (
        index: BuildIndex, problem: String?
    ) {
        let path = output.appendingPathComponent(folderName).appendingPathComponent(fileName).path
        let data: Data?
        do throws(FileSystemError) {
            data = try OpenFolder.open(output).folder(folderName).file(fileName).readAll(limit: maximumBytes)
        } catch .missing {
            return (empty(clock: clock), nil)
        } catch {
            return (
                empty(clock: clock), "build index \(path) is not used (\(error.reason)); every issue's manifest is read instead"
            )
        }
        guard let data else {
            return (
                empty(clock: clock),
                "build index \(path) is not used (larger than \(maximumBytes >> 20) MB); every issue's manifest is read instead"
            )
        }
        switch parse(Array(data), clock: clock) {
        case .success(let index): return (index, nil)
        case .failure(.otherToolVersion): return (empty(clock: clock), nil)
        case .failure(let problem):
            return (empty(clock: clock), "build index \(path) is not used (\(problem)); every issue's manifest is read instead")
        }
    }

    /// Why an index is not used.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case notAnIndex
        case otherVersion(UInt64)
        case otherToolVersion
        case checksum
        case malformed

        var description: String {
            switch self {
            case .notAnIndex: "it is not a build index"
            case .otherVersion(let version): "its format is version \(version), not \(BuildIndex.version)"
            case .otherToolVersion: "it was made by another version of newsstand"
            case .checksum: "its checksum does not match: it was edited or cut short"
            case .malformed: "it is malformed"
            }
        }
    }

    static func parse(_ bytes: [UInt8], clock: @escaping @Sendable () -> Double = systemClock) -> Result<BuildIndex, Problem> {
        guard bytes.count >= magic.count + 32, bytes.starts(with: magic) else { return .failure(.notAnIndex) }
        let bodyEnd = bytes.count - 32
        let hasher = XXH3()
        bytes.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<bodyEnd])) }
        guard Array(hasher.finalizeHex().utf8) == Array(bytes[bodyEnd...]) else {
            // The version is said when it can be read: an index of a later format is not "edited".
            return .failure(versionProblem(bytes) ?? .checksum)
        }
        return bytes.withUnsafeBytes { raw in
            do throws(RecordReader.Malformed) {
                var input = RecordReader(UnsafeRawBufferPointer(rebasing: raw[..<bodyEnd]), offset: magic.count)
                let version = try input.unsigned()
                guard version == Self.version else { return .failure(.otherVersion(version)) }
                guard try input.string() == ToolVersion.current else { return .failure(.otherToolVersion) }
                var catalog: [String: CatalogRecord] = [:]
                for _ in 0..<(try input.count()) {
                    let record = CatalogRecord(
                        file: try input.string(), digest: try input.string(), size: try input.signed(), xxh3: try input.string(),
                        sources: try input.string())
                    guard catalog.updateValue(record, forKey: record.file) == nil else { return .failure(.malformed) }
                }
                var entries: [String: StoredEntry] = [:]
                for _ in 0..<(try input.count()) {
                    let name = try input.string()
                    let identity = try readIdentity(&input)
                    let range = try input.skip(try input.count())
                    var verified: [String: FileIdentity] = [:]
                    for _ in 0..<(try input.count()) {
                        let file = try input.string()
                        guard verified.updateValue(try readIdentity(&input), forKey: file) == nil else {
                            return .failure(.malformed)
                        }
                    }
                    let entry = StoredEntry(identity: identity, range: range, verified: verified)
                    guard entries.updateValue(entry, forKey: name) == nil else { return .failure(.malformed) }
                }
                guard input.isAtEnd else { return .failure(.malformed) }
                return .success(BuildIndex(stored: bytes, entries: entries, catalog: catalog, clock: clock))
            } catch {
                return .failure(.malformed)
            }
        }
    }

    private static func readIdentity(_ input: inout RecordReader) throws(RecordReader.Malformed) -> FileIdentity {
        FileIdentity(
            device: try input.unsigned(), inode: try input.unsigned(), size: try input.signed(),
            modifiedSeconds: try input.signed(), modifiedNanoseconds: try input.signed(), changedSeconds: try input.signed(),
            changedNanoseconds: try input.signed())
    }

    private static func writeIdentity(_ identity: FileIdentity, to out: inout RecordWriter) {
        out.unsigned(identity.device)
        out.unsigned(identity.inode)
        out.signed(identity.size)
        out.signed(identity.modifiedSeconds)
        out.signed(identity.modifiedNanoseconds)
        out.signed(identity.changedSeconds)
        out.signed(identity.changedNanoseconds)
    }

    private static func versionProblem(_ bytes: [UInt8]) -> Problem? {
        let version: UInt64? = bytes.withUnsafeBytes { raw in
            var reader = RecordReader(raw, offset: magic.count)
            return try? reader.unsigned()
        }
        guard let version, version != Self.version else { return nil }
        return .otherVersion(version)
    }

    // MARK: Manifests

    /// The manifest in the open issue output folder (`.newsstand/manifest.json`, no link
    /// followed): from the index while the file has the recorded identity, else read from the
    /// file (with `BuildManifest`'s checks) and remembered. Nil when there is none.
    func manifest(in issueOutput: OpenFolder, name: String) throws(BuildRecordError) -> BuildManifest? {
        let path = issueOutput.path(of: "\(BuildManifest.folderName)/\(BuildManifest.fileName)")
        let records: OpenFolder
        do {
            records = try issueOutput.folder(BuildManifest.folderName)
        } catch .missing {
            return nil
        } catch {
            throw .unreadable(error)
        }
        if let identity = FileIdentity.of(BuildManifest.fileName, in: records),
            let known = remembered(name, identity: identity, path: path, omittingInputs: false)
        {
            return known
        }
        let file: OpenFile
        do {
            file = try records.file(BuildManifest.fileName)
        } catch .missing {
            return nil
        } catch {
            throw .unreadable(error)
        }
        let manifest = try BuildManifest.decode(file, path: path)
        remember(manifest, as: name, identity: FileIdentity.of(file))
        return manifest
    }

    /// The manifest of the issue output folder at `issueOutput` (links followed: the catalog
    /// reads gathered outputs), as `BuildManifest.load(in:omittingInputs:)` reads it; from the
    /// index while the file has the recorded identity (`identity`, when the caller has just
    /// taken it). Read from the file, it is remembered unless `remembering` is false (an issue
    /// this build wrote: its manifest is a second old at most, and is remembered by the next build).
    func manifest(
        at issueOutput: URL, name: String, omittingInputs: Bool, remembering: Bool, identity known: FileIdentity? = nil
    ) throws(BuildRecordError) -> BuildManifest? {
        let folder = issueOutput.path
        let path = (folder.hasSuffix("/") ? folder : folder + "/") + BuildManifest.folderName + "/" + BuildManifest.fileName
        if let identity = known ?? FileIdentity.of(path: path),
            let known = remembered(name, identity: identity, path: path, omittingInputs: omittingInputs)
        {
            return known
        }
        let url = BuildManifest.url(in: issueOutput)
        let file: OpenFile
        do {
            file = try OpenFile.open(url)
        } catch .missing {
            return nil
        } catch {
            throw .unreadable(error)
        }
        guard remembering, let identity = FileIdentity.of(file), identity.isSettled(at: clock()) else {
            return try BuildManifest.decode(file, path: url.path, omittingInputs: omittingInputs)
        }
        let manifest = try BuildManifest.decode(file, path: url.path)
        remember(manifest, as: name, identity: identity)
        return manifest
    }

    /// The manifest remembered for `name` under `identity`, carried into the next index; nil
    /// when there is none, or it does not decode or pass the name checks (then the file is read).
    private func remembered(_ name: String, identity: FileIdentity, path: String, omittingInputs: Bool) -> BuildManifest? {
        let known = fresh.withLock { $0.entries[name] }
        let manifest: BuildManifest?
        if let known {
            guard known.identity == identity else { return nil }
            if omittingInputs, let decoded = known.decoded { return decoded }
            manifest = withBytes(known.bytes) { try? ManifestCodec.decode($0, omittingInputs: omittingInputs) }
        } else {
            guard let entry = storedEntries[name], entry.identity == identity else { return nil }
            manifest = stored.withUnsafeBytes { raw in
                try? ManifestCodec.decode(UnsafeRawBufferPointer(rebasing: raw[entry.range]), omittingInputs: omittingInputs)
            }
            guard var manifest, (try? BuildManifest.checkNames(of: manifest, path: path)) != nil else { return nil }
            let full = manifest
            manifest.inputs = []
            fresh.withLock { [manifest] fresh in
                fresh.entries[name] = FreshEntry(
                    identity: identity, bytes: .stored(entry.range), verified: entry.verified, decoded: manifest)
                fresh.hits.insert(name)
            }
            return omittingInputs ? manifest : full
        }
        guard let manifest, (try? BuildManifest.checkNames(of: manifest, path: path)) != nil else { return nil }
        return manifest
    }

    /// Remembers a manifest read from a file of `identity`, if its last change is settled.
    private func remember(_ manifest: BuildManifest, as name: String, identity: FileIdentity?) {
        guard let identity, identity.isSettled(at: clock()) else { return }
        let bytes = ManifestCodec.encode(manifest)
        fresh.withLock { $0.entries[name] = FreshEntry(identity: identity, bytes: .own(bytes)) }
    }

    // MARK: Verified outputs

    /// The identity the output `file` of issue `name` had when its bytes were last found to be
    /// what the issue's manifest (as this index remembers it) records; nil when there is none.
    /// Valid only after the manifest was taken from the index (`manifest(in:name:)`).
    func verifiedIdentity(of file: String, issue name: String) -> FileIdentity? {
        fresh.withLock { $0.entries[name]?.verified[file] }
    }

    /// Remembers that `file` of issue `name`, with `identity`, holds the bytes the manifest
    /// records: when the identity is settled, as for manifests (a write in the same tick could
    /// leave it as it was), and the manifest is remembered.
    func recordVerified(_ file: String, identity: FileIdentity, issue name: String) {
        guard identity.isSettled(at: clock()) else { return }
        fresh.withLock { fresh in
            guard fresh.entries[name] != nil, fresh.entries[name]?.verified[file] != identity else { return }
            fresh.entries[name]?.verified[file] = identity
            fresh.verifiedMore = true
        }
    }

    private func withBytes<T>(_ bytes: EntryBytes, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        switch bytes {
        case .stored(let range): stored.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        case .own(let own): own.withUnsafeBytes(body)
        }
    }

    // MARK: Catalogs

    /// The record of the catalog file `file` in the index read.
    func catalogRecord(_ file: String) -> CatalogRecord? { storedCatalog[file] }

    /// Carries the entry of issue `name` into the next index without decoding it, when its
    /// manifest still has the recorded identity (the catalogs were found unchanged without
    /// reading the manifests: `CatalogSources`). A later build decodes and checks it as any.
    func carry(_ name: String, identity: FileIdentity) {
        guard let entry = storedEntries[name], entry.identity == identity else { return }
        fresh.withLock { fresh in
            guard fresh.entries[name] == nil else { return }
            fresh.entries[name] = FreshEntry(identity: identity, bytes: .stored(entry.range), verified: entry.verified)
            fresh.hits.insert(name)
        }
    }

    /// Whether `identity` is settled now (`FileIdentity.isSettled`), by this index's clock.
    func isSettled(_ identity: FileIdentity) -> Bool { identity.isSettled(at: clock()) }

    /// Keeps the record of a catalog file as written (or found unchanged) by this build.
    func record(_ catalog: CatalogRecord) {
        fresh.withLock { $0.catalog[catalog.file] = catalog }
    }

    // MARK: Writing

    /// The index of what this build read, remembered and wrote (manifests it did not look at,
    /// of issues that left the magazine, are dropped), handed to `write` in pieces: one entry
    /// at a time, so that writing it needs no second copy of it in memory.
    func encode(into write: (UnsafeRawBufferPointer) throws(FileSystemError) -> Void) throws(FileSystemError) {
        let (entries, catalog) = fresh.withLock { ($0.entries, $0.catalog) }
        let hasher = XXH3()
        func emit(_ bytes: UnsafeRawBufferPointer, hashing: Bool = true) throws(FileSystemError) {
            if hashing { hasher.update(bytes) }
            try write(bytes)
        }
        // `withUnsafeBytes` rethrows untyped errors: the error is carried out as a value.
        func emit(_ array: [UInt8], hashing: Bool = true) throws(FileSystemError) {
            let failure: FileSystemError? = array.withUnsafeBytes { bytes in
                do throws(FileSystemError) {
                    try emit(bytes, hashing: hashing)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }
        var head = RecordWriter()
        head.raw(Self.magic)
        head.unsigned(Self.version)
        head.string(ToolVersion.current)
        head.count(catalog.count)
        for record in catalog.values.sorted(by: { $0.file < $1.file }) {
            head.string(record.file)
            head.string(record.digest)
            head.signed(record.size)
            head.string(record.xxh3)
            head.string(record.sources)
        }
        head.count(entries.count)
        try emit(head.bytes)
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            var out = RecordWriter()
            out.string(name)
            Self.writeIdentity(entry.identity, to: &out)
            var tail = RecordWriter()
            tail.count(entry.verified.count)
            for (file, identity) in entry.verified.sorted(by: { $0.key < $1.key }) {
                tail.string(file)
                Self.writeIdentity(identity, to: &tail)
            }
            let failure: FileSystemError? = withBytes(entry.bytes) { bytes in
                do throws(FileSystemError) {
                    out.count(bytes.count)
                    try emit(out.bytes)
                    try emit(bytes)
                    try emit(tail.bytes)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }
        try emit(Array(hasher.finalizeHex().utf8), hashing: false)
    }

    /// The whole index as bytes (tests).
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        try? encode { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Whether the index to write is the one read: every entry read was used as it was, none
    /// added or dropped, and the catalogs' records are the same.
    private var isUnchanged: Bool {
        fresh.withLock { fresh in
            !stored.isEmpty && !fresh.verifiedMore && fresh.hits.count == storedEntries.count
                && fresh.entries.count == storedEntries.count && fresh.catalog == storedCatalog
                && fresh.entries.allSatisfy { storedEntries[$0.key]?.identity == $0.value.identity }
        }
    }

    /// Writes the index into the output folder (`.newsstand/build-index`, atomically; a link
    /// at `.newsstand` is refused), unless it would be the index read, and that is still in
    /// place. Best effort: an index lost to a power cut only makes the next build read every
    /// manifest. `encode` hands over three small pieces per entry: they are gathered into
    /// writes of `bufferSize` bytes, not one system call each (about 1,500 for 500 issues).
    public func write(in output: OpenFolder, bufferSize: Int = 256 << 10) throws(FileSystemError) {
        if isUnchanged, let file = try? output.folder(Self.folderName).file(Self.fileName), file.size == Int64(stored.count) {
            return
        }
        let pending = try AtomicFile.create(named: Self.fileName, in: try output.makeFolder(Self.folderName))
        do {
            var buffer: [UInt8] = []
            buffer.reserveCapacity(bufferSize)
            try encode { bytes throws(FileSystemError) in
                if buffer.count + bytes.count > bufferSize, !buffer.isEmpty {
                    try pending.file.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
                if bytes.count >= bufferSize { try pending.file.write(bytes) } else { buffer.append(contentsOf: bytes) }
            }
            try pending.file.write(buffer)
        } catch {
            pending.discard()
            throw error
        }
        try pending.commit(.bestEffort)
    }
}
