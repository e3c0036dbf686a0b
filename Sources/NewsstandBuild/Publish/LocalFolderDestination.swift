import Foundation

/// A local folder: a web server's document root or a mounted volume. Every file is copied
/// under a temporary name and renamed into place, so readers never see half a file.
public struct LocalFolderDestination: PublishDestination {
    public var root: URL
    public var description: String { root.path }
    public var supportsAtomicMove: Bool { true }

    public init(root: URL) { self.root = root }

    public func read(_ path: String) async throws(PublishError) -> Data? {
        let url = root.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do { return try Data(contentsOf: url) } catch {
            throw PublishError(step: "read", target: url.path, reason: "\(error.localizedDescription)")
        }
    }

    public func upload(_ file: URL, to path: String) async throws(PublishError) {
        let destination = root.appendingPathComponent(path)
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: file, to: temporary)
            guard rename(temporary.path, destination.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw PublishError(step: "upload", target: destination.path, reason: error.localizedDescription)
        }
    }

    public func move(_ source: String, to destination: String) async throws(PublishError) {
        let from = root.appendingPathComponent(source)
        let to = root.appendingPathComponent(destination)
        guard rename(from.path, to.path) == 0 else {
            throw PublishError(step: "move", target: to.path, reason: String(cString: strerror(errno)))
        }
    }

    public func delete(_ path: String) async throws(PublishError) {
        let url = root.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do { try FileManager.default.removeItem(at: url) } catch {
            throw PublishError(step: "delete", target: url.path, reason: error.localizedDescription)
        }
    }
}
