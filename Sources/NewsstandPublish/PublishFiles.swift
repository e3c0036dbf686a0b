import Foundation
import NewsstandBuild
import NewsstandCore

/// The file operations publish runs on the built folder and a local destination, with their
/// failures as publish reports them (`PublishError.Reason.fileSystem`, at the step they
/// happened in).
enum PublishFiles {
    /// Runs file work (copies of whole bundles, renames, hashing) on a thread of its own: a
    /// destination's async methods must not block the cooperative pool.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () throws(PublishError) -> T) async throws(PublishError) -> T {
        try await BlockingWork.run { Result { () throws(PublishError) -> T in try work() } }.get()
    }

    /// Opens the folder at `url` (links in the path the user gave are followed).
    static func open(_ url: URL, create: Bool, step: String) throws(PublishError) -> OpenFolder {
        do {
            return try OpenFolder.open(url, create: create)
        } catch {
            throw .fileSystem(step, error)
        }
    }

    /// What is at `relative` below `folder`, links not followed; nil when nothing is.
    static func status(at relative: String, in folder: OpenFolder, step: String) throws(PublishError) -> FileStatus? {
        do {
            return try folder.status(at: relative)
        } catch {
            throw .fileSystem(step, error)
        }
    }

    /// The regular file at `relative` below `folder`; nil when there is none.
    static func file(at relative: String, in folder: OpenFolder, step: String) throws(PublishError) -> OpenFile? {
        do {
            return try folder.file(at: relative)
        } catch {
            throw .fileSystem(step, error)
        }
    }

    /// The whole regular file at `relative`, at most `limit` bytes (else an error); nil when
    /// there is none. The limit holds for what is read, not only for what `stat` announced.
    static func read(_ relative: String, in folder: OpenFolder, limit: Int64, step: String) throws(PublishError) -> Data? {
        guard let file = try file(at: relative, in: folder, step: step) else { return nil }
        let data: Data?
        do {
            data = try file.readAll(limit: Int(limit))
        } catch {
            throw .fileSystem(step, error)
        }
        guard let data else { throw PublishError(step: step, target: file.path, reason: .tooLarge(limit: limit)) }
        return data
    }
}
