import Foundation
import NewsstandCore
import NewsstandReader

/// What the engine knows of a job beyond its key, kept beside its file (`<key>.json`), written
/// before aria2 is given the job: the catalog's URL (a later generation continues this one's
/// bytes only from the same one; never a paid issue's signed link, which is new at every
/// signing and a secret) and the size the catalog states (a body growing past it is stopped, by
/// whichever process looks next). Its presence is what makes a key's files the engine's own:
/// nothing without a record is ever handed over or deleted. Read as input from outside.
struct Aria2JobRecord: Codable, Equatable, Sendable {
    var url: String
    var expectedSize: Int64?
    /// Set when the download was cancelled with its data kept: the bytes wait for a later
    /// generation from the same URL and are never handed over under this key.
    var kept: Bool?

    var isKept: Bool { kept == true }

    /// The most a record may hold: a URL of `Aria2Key.maxURLBytes` and a number.
    static let maxBytes = Aria2Key.maxURLBytes + 256

    /// The record of `id` in `folder`; nil when there is none or it is not one (a link, too
    /// large, not the JSON written, a URL aria2 would not be given).
    static func read(for id: TransferID, in folder: OpenFolder) -> Aria2JobRecord? {
        guard let file = try? folder.file(Aria2Key.recordFileName(of: id)), let data = try? file.readAll(limit: maxBytes),
            let record = try? JSONDecoder().decode(Aria2JobRecord.self, from: data),
            let url = URL(string: record.url), (try? Aria2Key.checkedURL(url)) == record.url,
            (record.expectedSize ?? 0) >= 0
        else { return nil }
        return record
    }

    /// Writes the record of `id` into `folder`.
    func write(for id: TransferID, in folder: OpenFolder) throws(FileSystemError) {
        // A URL and a number always encode.
        guard let data = try? JSONEncoder().encode(self) else { return }
        // Durable: it is what makes the download's file ours after a power cut.
        try AtomicFile.write(data, named: Aria2Key.recordFileName(of: id), in: folder, .durable, permissions: 0o600)
    }
}
