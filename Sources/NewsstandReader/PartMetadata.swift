import Foundation

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

    func save(for part: URL) throws {
        let target = Self.location(for: part)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).tmp")
        try AtomicFile.write(try JSONEncoder().encode(self), to: temporary)
        try AtomicFile.move(temporary, to: target)
    }

    /// Deletes a partial download and its metadata.
    static func discard(part: URL) {
        try? FileManager.default.removeItem(at: part)
        try? FileManager.default.removeItem(at: location(for: part))
    }
}
