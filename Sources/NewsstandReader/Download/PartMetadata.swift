import Foundation
import NewsstandCore

/// What a `.part` file was downloaded from, kept beside it (`<name>.zip.part.json`) so that a
/// resume after a crash can send `If-Range` and knows when the file is already complete.
struct PartMetadata: Codable, Equatable, Sendable {
    /// The bundle URL the bytes came from.
    var url: URL
    /// The strong `ETag` (or `Last-Modified`) of the response, for `If-Range`.
    var validator: String?
    /// The full size of the file on the server, when the response said.
    var expectedLength: Int64?

    static func location(for part: URL) -> URL {
        part.deletingLastPathComponent().appendingPathComponent(part.lastPathComponent + ".json")
    }

    static func load(for part: URL) -> PartMetadata? {
        guard let data = try? Data(contentsOf: location(for: part)) else { return nil }
        return try? JSONDecoder().decode(PartMetadata.self, from: data)
    }

    func save(for part: URL) throws(FileSystemError) {
        // Three plain values always encode; were it ever to fail, the download would only lose its resume.
        guard let data = try? JSONEncoder().encode(self) else { return }
        // Durable: after a power cut, a resume must find what the .part file's bytes came from.
        try AtomicFile.write(data, to: Self.location(for: part), .durable)
    }

    /// Deletes a partial download and its metadata (only files: never through a link).
    static func discard(part: URL) {
        guard let folder = try? OpenFolder.open(part.deletingLastPathComponent()) else { return }
        try? folder.removeRegularFile(part.lastPathComponent)
        try? folder.removeRegularFile(location(for: part).lastPathComponent)
    }
}
