import Foundation
import NewsstandCore
import NewsstandFormat

/// One result in an issue's image cache: a normal size derived from an `@2x` master, or an
/// image made smaller by `build --optimize`.
struct ImageCacheEntry: Sendable, Codable, Equatable {
    /// XXH3-128 of the operation, its input's XXH3 and the engine's fingerprint (`ImageWork.key`).
    var key: String
    /// The result's file in `.newsstand/images/` (`<key>.<ext>`); nil when optimising kept the
    /// original (nothing smaller was found: remembered so that a rebuild does not try again).
    var file: String?
    /// The temporary name the file is written under, while it is being written.
    var temporary: String?
    /// The file's size and XXH3 once written; nil while it is being written (a pending entry:
    /// its files are ours to remove, and it is never used).
    var size: Int64?
    var xxh3: String?
    /// Bytes `--optimize` saved (0 for a derivation).
    var saved: Int64

    /// A finished entry, usable when its file (if any) still has its recorded size and XXH3.
    var isDone: Bool { file == nil || (size != nil && xxh3 != nil && temporary == nil) }
}

/// The derived and optimised images of one issue's output folder: files in
/// `<output>/<name>/.newsstand/images/`, listed in `.newsstand/images.json`. Every file there
/// is recorded (as pending) before it is written, so only files newsstand wrote are ever
/// removed; a file not listed is left alone. The list is read with the records' rules: at
/// most 8 MiB, names of the form `<32 hex digits>.<png|jpg|jpeg|webp>` (or a temporary name of
/// one); a list that breaks them is not trusted (a warning; nothing it names is used or removed).
///
/// A build stopped part-way leaves two things, both handled when the cache is opened: the
/// images it finished, in the journal (`ImageJournal`), which finish their pending entries;
/// and the temporary files of the images it was making, removed when their name is one of ours
/// (`isCacheName` of what it stands for) and the process its name carries has exited
/// (`AtomicFile.removeAbandonedTemporaries`).
///
/// Used by one thread at a time (the build's preparation steps that change it are serial).
final class ImageCache {
    static let folderName = "images"
    static let indexName = "images.json"
    static let maximumIndexBytes = 8 << 20

    /// `<output>/<name>/.newsstand`.
    let records: OpenFolder
    /// `.newsstand/images`.
    let folder: OpenFolder
    /// Entries by key.
    private(set) var entries: [String: ImageCacheEntry]

    private init(records: OpenFolder, folder: OpenFolder, entries: [String: ImageCacheEntry]) {
        self.records = records
        self.folder = folder
        self.entries = entries
    }

    /// Opens (creating them) the cache folder and its list in an issue's output folder; a list
    /// that cannot be trusted is replaced by an empty one (and said in `warnings`).
    static func open(in issueOutput: OpenFolder, issue: String, warnings: inout [String]) throws(BuildError) -> ImageCache {
        let records: OpenFolder
        let folder: OpenFolder
        do {
            records = try issueOutput.makeFolder(BuildManifest.folderName)
            folder = try records.makeFolder(folderName)
        } catch {
            throw .output(issue: issue, error)
        }
        var entries: [String: ImageCacheEntry] = [:]
        switch readIndex(records) {
        case .success(let list): for entry in list { entries[entry.key] = entry }
        case .failure(let reason):
            warnings.append(
                "issue '\(issue)': \(records.path(of: indexName)) \(reason); it is replaced, and nothing it lists is used or removed"
            )
        }
        removeLeftoverTemporaries(in: folder)
        let cache = ImageCache(records: records, folder: folder, entries: entries)
        if ImageJournal.exists(in: records) {
            cache.replay(ImageJournal.read(in: records))
            try cache.save(issue: issue)
            ImageJournal.remove(in: records)
        }
        return cache
    }

    /// Finishes the pending entries a journal says were made: only an entry the list holds as
    /// pending, with the same file (or none: optimising found nothing smaller).
    private func replay(_ journal: [ImageCacheEntry]) {
        for done in journal {
            guard let pending = entries[done.key], !pending.isDone, done.file == nil || done.file == pending.file else {
                continue
            }
            entries[done.key] = done
        }
    }

    /// Removes, from the cache folder, the temporary files of builds that were stopped while
    /// writing them: regular files named as ours whose process has exited (a running build's,
    /// in this output or another, is left to it).
    private static func removeLeftoverTemporaries(in folder: OpenFolder) {
        AtomicFile.removeAbandonedTemporaries(in: folder, madeFor: isCacheName)
    }

    /// The list's entries, or why they cannot be trusted (an absent list is empty).
    private static func readIndex(_ records: OpenFolder) -> Result<[ImageCacheEntry], IndexProblem> {
        let data: Data?
        do {
            data = try records.file(indexName).readAll(limit: maximumIndexBytes)
        } catch .missing {
            return .success([])
        } catch {
            return .failure(IndexProblem("cannot be read (\(error.reason))"))
        }
        guard let data else { return .failure(IndexProblem("is larger than \(maximumIndexBytes) bytes")) }
        guard let list = try? JSONDecoder().decode(Index.self, from: data) else {
            return .failure(IndexProblem("is not a list of images"))
        }
        for entry in list.entries {
            guard isKey(entry.key), entry.file.map(isCacheName) ?? true, entry.temporary.map(isTemporaryCacheName) ?? true else {
                return .failure(IndexProblem("names a file that is not a cache file"))
            }
        }
        return .success(list.entries)
    }

    private struct IndexProblem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private struct Index: Codable {
        var entries: [ImageCacheEntry]
    }

    /// 32 lowercase hex digits.
    static func isKey(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `<key>.<png|jpg|jpeg|webp>`.
    static func isCacheName(_ name: String) -> Bool {
        guard let dot = name.firstIndex(of: ".") else { return false }
        return isKey(String(name[..<dot])) && ["png", "jpg", "jpeg", "webp"].contains(String(name[name.index(after: dot)...]))
    }

    /// `AtomicFile`'s temporary name of a cache name.
    static func isTemporaryCacheName(_ name: String) -> Bool {
        guard AtomicFile.isTemporaryName(name) else { return false }
        let inner = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        return inner.count == 5 && isCacheName("\(inner[0]).\(inner[1])")
    }

    /// Writes the list as it is now.
    func save(issue: String) throws(BuildError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Plain values always encode.
        let data = (try? encoder.encode(Index(entries: entries.values.sorted { $0.key < $1.key }))) ?? Data()
        do {
            try AtomicFile.write(data, named: Self.indexName, in: records, .bestEffort)
        } catch {
            throw .output(issue: issue, error)
        }
    }

    /// Records that `entry` is about to be written (pending); call `save` before writing it.
    func recordPending(_ entry: ImageCacheEntry) {
        entries[entry.key] = entry
    }

    /// Records a finished entry.
    func recordDone(_ entry: ImageCacheEntry) {
        entries[entry.key] = entry
    }

    /// Removes every entry whose key is not in `keeping`, and its files (regular files only: a
    /// link or folder under a recorded name is left, with a note). Returns the notes.
    func removeAll(besides keeping: Set<String>) -> [String] {
        var notes: [String] = []
        for (key, entry) in entries where !keeping.contains(key) {
            for name in [entry.file, entry.temporary].compactMap({ $0 }) {
                do {
                    try folder.removeRegularFile(name)
                } catch .missing {
                } catch .symbolicLink(let path, _, _) {
                    notes.append("left \(path) in place: it is a symbolic link, not the file newsstand wrote")
                } catch .wrongKind(let path, let kind, _) {
                    notes.append("left \(path) in place: it is \(kind), not the file newsstand wrote")
                } catch {
                    notes.append("cannot remove \(error.path): \(error.reason)")
                }
            }
            entries[key] = nil
        }
        return notes
    }

    /// Whether the entry's file is a regular file in the cache with its recorded size and XXH3
    /// (read without following a link). A file changed, truncated or replaced since is not used.
    static func isIntact(_ entry: ImageCacheEntry, in folder: OpenFolder) -> Bool {
        guard let name = entry.file else { return entry.isDone }
        guard entry.isDone, let size = entry.size, let recorded = entry.xxh3, let file = try? folder.file(name), file.size == size
        else { return false }
        let hasher = XXH3()
        guard (try? FileCopy.copy(file, to: nil, limit: size, observe: { hasher.update($0) })) == size else { return false }
        return hasher.finalizeHex() == recorded
    }

    /// Removes the whole cache of an issue's output folder (the issue left the magazine):
    /// every file its list names, the list, and the folder if that empties it. A list that
    /// cannot be trusted is left, with the files, and said.
    static func removeAll(in issueOutput: OpenFolder) -> [String] {
        guard let records = try? issueOutput.folder(BuildManifest.folderName) else { return [] }
        guard records.kind(of: indexName) != nil || records.kind(of: folderName) != nil else { return [] }
        guard case .success(let list) = readIndex(records) else {
            return ["left \(records.path(of: folderName)) in place: \(records.path(of: indexName)) cannot be trusted"]
        }
        var notes: [String] = []
        if let folder = try? records.folder(folderName) {
            let cache = ImageCache(
                records: records, folder: folder, entries: Dictionary(list.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a }))
            notes = cache.removeAll(besides: [])
        }
        try? records.removeFile(indexName)
        ImageJournal.remove(in: records)
        records.removeFolderIfEmpty(folderName)
        return notes
    }
}
