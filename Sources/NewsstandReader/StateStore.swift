import Foundation

/// Reads and writes `library.json`. Writes go to a temporary file in the same folder that is
/// flushed and renamed over the old one, so a crash leaves either the old or the new state.
enum StateStore {
    static func load(from url: URL) throws(LibraryError) -> LibraryState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let data = try Data(contentsOf: url)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            return try decoder.decode(LibraryState.self, from: data)
        } catch {
            throw .cannotOpen(path: url.path, reason: "unreadable state file: \(error)")
        }
    }

    static func save(_ state: LibraryState, to url: URL) throws(LibraryError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        do {
            let data = try encoder.encode(state)
            try AtomicFile.write(data, to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .cannotSave(path: url.path, reason: "\(error)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .cannotSave(path: url.path, reason: reason)
        }
    }
}
