import Foundation
import NewsstandCore
import NewsstandBuild

/// Any remote the `rclone` program reaches (S3 and compatible stores, GCS, Azure, SFTP, …),
/// given as `<remote>:<path>`. We run rclone rather than write object-store clients.
public struct RcloneDestination: PublishDestination {
    /// `<remote>:<path>`.
    public var remote: String
    public var timeouts: PublishTimeouts
    /// Never the values of a connection string's parameters (`:s3,secret_access_key=…:`).
    public var description: String { "rclone:" + Self.redacted(remote: remote) }
    /// Object stores have no atomic rename (rclone copies then deletes): catalogs moved into
    /// place are read back to verify.
    public var supportsAtomicMove: Bool { false }

    public init(remote: String, timeouts: PublishTimeouts = PublishTimeouts()) {
        self.remote = remote
        self.timeouts = timeouts
    }

    func target(_ path: String) -> String {
        remote.hasSuffix(":") || remote.hasSuffix("/") ? remote + path : remote + "/" + path
    }

    public func read(_ path: String, limit: Int64) async throws(PublishError) -> Data? {
        let listing = try await run(["lsf", target(path)], step: "read", path: path, allowFailure: true)
        guard listing.status == 0, !listing.output.isEmpty else { return nil }
        return try await run(["cat", target(path)], step: "read", path: path, outputLimit: limit).output
    }

    public func upload(_ source: UploadSource, to path: String) async throws(PublishError) {
        // rclone reads the file by its path: check it here first (no links on the way, the size
        // and SHA-256 the manifest promises), so that what rclone sends is what was built.
        try await PublishFiles.offload { () throws(PublishError) in
            let file = try source.open(step: "upload")
            let hasher = SHA256()
            let size: Int64
            do throws(FileSystemError) {
                size = try FileCopy.copy(file, to: nil, limit: source.size) { hasher.update($0) }
            } catch {
                throw .fileSystem("upload", error)
            }
            if let mismatch = source.mismatch(sent: size, sha256: hasher.finalizeHex(), step: "upload") { throw mismatch }
        }
        _ = try await run(["copyto", source.displayPath, target(path)], step: "upload", path: path, isUpload: true)
    }

    public func move(_ source: String, to destination: String) async throws(PublishError) {
        _ = try await run(["moveto", target(source), target(destination)], step: "move", path: destination)
    }

    public func copy(_ source: String, to destination: String) async throws(PublishError) -> Bool {
        let listing = try await run(["lsf", target(source)], step: "copy", path: source, allowFailure: true)
        guard listing.status == 0, !listing.output.isEmpty else { return false }
        _ = try await run(["copyto", target(source), target(destination)], step: "copy", path: destination)
        return true
    }

    public func delete(_ path: String) async throws(PublishError) {
        let result = try await run(["deletefile", target(path)], step: "delete", path: path, allowFailure: true)
        if result.status != 0, !result.error.contains("not found"), !result.error.contains("doesn't exist") {
            throw PublishError(step: "delete", target: display(path), reason: .rclone(status: result.status, message: result.error))
        }
    }

    /// `<remote>:<path>` for messages: the values of a connection string's parameters
    /// (`:s3,access_key_id=…,secret_access_key=…:bucket`) replaced by `***`.
    static func redacted(remote: String) -> String {
        guard let backendEnd = backendEnd(of: remote) else { return remote }
        let backend = remote[..<backendEnd]
        let parts = backend.split(separator: ",", omittingEmptySubsequences: false).enumerated().map { index, part in
            guard index > 0, let equals = part.firstIndex(of: "=") else { return String(part) }
            return part[..<equals] + "=***"
        }
        return parts.joined(separator: ",") + remote[backendEnd...]
    }

    /// The values of a connection string's parameters, to cut out of rclone's messages.
    static func secrets(of remote: String) -> [String] {
        guard let backendEnd = backendEnd(of: remote) else { return [] }
        return remote[..<backendEnd].split(separator: ",").dropFirst().compactMap { part in
            guard let equals = part.firstIndex(of: "=") else { return nil }
            let value = part[part.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            return value.count >= 3 ? value : nil
        }
    }

    /// Where the remote's name and parameters end: the first `:` after the leading one of an
    /// on-the-fly remote, outside quotes.
    private static func backendEnd(of remote: String) -> String.Index? {
        var index = remote.hasPrefix(":") ? remote.index(after: remote.startIndex) : remote.startIndex
        var quote: Character?
        while index < remote.endIndex {
            let character = remote[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == ":" {
                return index
            }
            index = remote.index(after: index)
        }
        return nil
    }

    private func display(_ path: String) -> String { "rclone:" + Self.redacted(remote: target(path)) }

    private func scrub(_ message: String) -> String {
        Self.secrets(of: remote).reduce(Redacted.message(message)) { text, secret in
            text.replacingOccurrences(of: secret, with: "***")
        }
    }

    private func run(
        _ arguments: [String], step: String, path: String, allowFailure: Bool = false, outputLimit: Int64 = 1 << 20,
        isUpload: Bool = false
    ) async throws(PublishError) -> (status: Int32, output: Data, error: String) {
        let flags = ["--contimeout", "\(timeouts.connect)s", "--timeout", "\(timeouts.stall)s", "--low-level-retries", "3"]
        let deadline: Int? = isUpload ? nil : timeouts.request
        let result = await BlockingWork.run { RcloneRun.run(flags + arguments, outputLimit: outputLimit, deadline: deadline) }
        switch result {
        case .failure(.cannotStart(let reason)):
            throw PublishError(step: step, target: display(path), reason: .cannotRun(program: "rclone", reason: reason))
        case .failure(.tooLarge):
            throw PublishError(step: step, target: display(path), reason: .tooLarge(limit: outputLimit))
        case .failure(.timedOut):
            throw PublishError(step: step, target: display(path), reason: .timedOut(.request, seconds: Double(timeouts.request)))
        case .success(let (status, output, error)):
            let message = scrub(error)
            if status != 0, !allowFailure {
                throw PublishError(step: step, target: display(path), reason: .rclone(status: status, message: message))
            }
            return (status, output, message)
        }
    }
}

/// One run of rclone, its output capped and its time bounded.
enum RcloneRun {
    enum Failure: Error {
        case cannotStart(String)
        case tooLarge
        case timedOut
    }

    static func run(_ arguments: [String], outputLimit: Int64, deadline: Int?) -> Result<(Int32, Data, String), Failure> {
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
        do { try process.run() } catch { return .failure(.cannotStart(error.localizedDescription)) }
        let timer = Watchdog(process: process, seconds: deadline)
        let errorReader = PipeReader(error, limit: 1 << 16)
        var data = Data()
        var tooLarge = false
        while let chunk = try? output.fileHandleForReading.read(upToCount: 1 << 16), !chunk.isEmpty {
            if Int64(data.count + chunk.count) > outputLimit {
                tooLarge = true
                process.terminate()
                break
            }
            data.append(chunk)
        }
        let message = String(decoding: errorReader.wait(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        exited.wait()
        timer.cancel()
        if tooLarge { return .failure(.tooLarge) }
        if timer.fired { return .failure(.timedOut) }
        return .success((process.terminationStatus, data, message))
    }
}

/// Terminates a process that runs past its deadline.
final class Watchdog {
    private let firedFlag = Locked(false)
    private let item: DispatchWorkItem?

    init(process: Process, seconds: Int?) {
        guard let seconds else {
            item = nil
            return
        }
        let fired = firedFlag
        let target = UncheckedProcess(process)
        let work = DispatchWorkItem {
            fired.withLock { $0 = true }
            if target.process.isRunning { target.process.terminate() }
        }
        item = work
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds), execute: work)
    }

    /// Whether the deadline passed and the process was told to stop.
    var fired: Bool { firedFlag.current }
    func cancel() { item?.cancel() }
}

/// A process handed to the watchdog's thread (`terminate` may be called from any thread).
private struct UncheckedProcess: @unchecked Sendable {  // safe: terminate may be called from any thread
    let process: Process
    init(_ process: Process) { self.process = process }
}

/// Reads a pipe to its end on a thread of its own (not a Dispatch worker, held for as long as
/// rclone runs), keeping at most `limit` bytes, so that a program
/// writing to two pipes never blocks on the one not being read.
final class PipeReader: Sendable {
    private let data = Locked(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe, limit: Int = .max) {
        BlockingWork.start {
            while let chunk = try? pipe.fileHandleForReading.read(upToCount: 1 << 16), !chunk.isEmpty {
                self.data.withLock { data in
                    if data.count < limit { data.append(chunk.prefix(limit - data.count)) }
                }
            }
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data.current
    }
}
