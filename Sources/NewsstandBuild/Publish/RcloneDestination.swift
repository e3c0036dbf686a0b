import Foundation

/// Any remote the `rclone` program reaches (S3 and compatible stores, GCS, Azure, SFTP, …),
/// given as `<remote>:<path>`. We run rclone rather than write object-store clients.
public struct RcloneDestination: PublishDestination {
    /// `<remote>:<path>`.
    public var remote: String
    public var description: String { "rclone:\(remote)" }
    /// Object stores have no atomic rename (rclone copies then deletes): catalogs are uploaded
    /// last under their real names and read back to verify.
    public var supportsAtomicMove: Bool { false }

    public init(remote: String) { self.remote = remote }

    func target(_ path: String) -> String {
        remote.hasSuffix(":") || remote.hasSuffix("/") ? remote + path : remote + "/" + path
    }

    public func read(_ path: String) async throws(PublishError) -> Data? {
        let listing = try run(["lsf", target(path)], step: "read", path: path, allowFailure: true)
        guard listing.status == 0, !listing.output.isEmpty else { return nil }
        return try run(["cat", target(path)], step: "read", path: path).output
    }

    public func upload(_ file: URL, to path: String) async throws(PublishError) {
        _ = try run(["copyto", file.path, target(path)], step: "upload", path: path)
    }

    public func move(_ source: String, to destination: String) async throws(PublishError) {
        _ = try run(["moveto", target(source), target(destination)], step: "move", path: destination)
    }

    public func delete(_ path: String) async throws(PublishError) {
        let result = try run(["deletefile", target(path)], step: "delete", path: path, allowFailure: true)
        if result.status != 0, !result.error.contains("not found"), !result.error.contains("doesn't exist") {
            throw PublishError(step: "delete", target: target(path), reason: result.error)
        }
    }

    private func run(_ arguments: [String], step: String, path: String, allowFailure: Bool = false) throws(PublishError)
        -> (status: Int32, output: Data, error: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["rclone"] + arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        // Waiting on the termination handler, not `waitUntilExit()`, which spins a core on Linux.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch {
            throw PublishError(step: step, target: target(path), reason: "cannot run rclone: \(error.localizedDescription)")
        }
        let errorReader = PipeReader(error)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errorReader.wait(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        exited.wait()
        if process.terminationStatus != 0, !allowFailure {
            let reason = process.terminationStatus == 127 ? "rclone is not installed" : message
            throw PublishError(step: step, target: target(path), reason: reason)
        }
        return (process.terminationStatus, data, message)
    }
}

/// Reads a pipe to its end on another thread, so that a program writing to two pipes never
/// blocks on the one not being read.
final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        DispatchQueue.global().async {
            self.data = pipe.fileHandleForReading.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
