import Foundation
import NewsstandCore

/// Reads and writes `library.json`. Writes go to a temporary file in the same folder that is
/// flushed and renamed over the old one, so a crash leaves either the old or the new state.
enum StateStore {
    static func load(from url: URL) throws(LibraryError) -> LibraryState? {
        guard FileStatus.kind(of: url) != nil else { return nil }
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
        let data: Data
        do {
            data = try encoder.encode(state)
        } catch {
            throw .cannotSave(path: url.path, reason: "\(error)")
        }
        do {
            // Durable: the state is the shelf; a power cut must not lose it or leave it empty.
            try AtomicFile.write(data, to: url, .durable)
        } catch {
            throw .cannotSave(path: url.path, reason: error.reason)
        }
    }
}
