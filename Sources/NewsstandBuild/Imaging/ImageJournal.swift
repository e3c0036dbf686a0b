import Foundation
import NewsstandCore

/// The image cache's journal, `.newsstand/images.journal`: one JSON line per image finished,
/// appended the moment it is made, so that a build stopped part-way (Ctrl-C, a kill, an image
/// that fails) keeps what it finished. The list (`images.json`) is written only at the end of
/// each stage: rewriting it after every image would cost the square of an issue's images.
///
/// The next build replays the journal over the list (`ImageCache.open`), then writes the list
/// and removes the journal. The journal comes from outside like every record: it is read
/// within `maximumBytes`, a line that does not decode (the last one of a killed build may be
/// cut) is skipped, and a line can only finish an entry the list holds as pending under the
/// same file name: it never names a file of its own.
final class ImageJournal: Sendable {
    static let fileName = "images.journal"
    static let maximumBytes = 8 << 20

    /// `<output>/<name>/.newsstand`.
    private let records: OpenFolder
    /// Opened at the first line; lines come from the build's worker threads.
    private let file = Locked<WritableFile?>(nil)

    init(records: OpenFolder) { self.records = records }

    /// Appends a finished entry: one `write` of one line.
    func append(_ entry: ImageCacheEntry) throws(FileSystemError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Plain values always encode.
        var line = (try? encoder.encode(entry)) ?? Data()
        line.append(0x0A)
        let records = self.records
        try file.withLock { (file: inout WritableFile?) throws(FileSystemError) in
            if file == nil { file = try records.openForWriting(Self.fileName, at: 0) }
            try file?.write(line)
        }
    }

    /// Closes the journal and removes it: the list now holds what it said.
    func finish() {
        file.withLock { file in
            try? file?.close()
            file = nil
        }
        Self.remove(in: records)
    }

    /// The finished entries the journal in `records` holds, in the order they were made; none
    /// when there is no journal, or it is a link or larger than `maximumBytes`.
    static func read(in records: OpenFolder) -> [ImageCacheEntry] {
        guard let data = try? records.file(fileName).readAll(limit: maximumBytes) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { line in
            guard let entry = try? decoder.decode(ImageCacheEntry.self, from: Data(line)), entry.isDone else { return nil }
            return entry
        }
    }

    /// Whether `records` holds a journal (of any kind: a link there is removed, never read).
    static func exists(in records: OpenFolder) -> Bool { records.kind(of: fileName) != nil }

    /// Removes the journal (a regular file or a link; never through a link).
    static func remove(in records: OpenFolder) {
        try? records.removeFile(fileName)
    }
}
