import Foundation
import NewsstandCore

/// The short, synchronous step between an engine's "finished" and the library: the finished
/// file may exist only while the engine's callback runs (URLSession deletes it as the callback
/// returns), so this checks the response's status (a 404's error page also arrives as a
/// finished file), moves the file into the library's `Downloads/` under a name that carries its
/// transfer's key (`<name>#<generation>.received`), makes the move durable, and returns.
/// Verifying and unpacking come after, on the library's side, never inside the callback.
///
/// The name is the record: a process killed right after the move leaves a file that the next
/// open finds and adopts for that generation (`RecoveryFacts.receivedFile`), so no database
/// write has to happen inside the callback, where it would race the library's own writes.
struct TransferHandOff: Sendable {
    /// The library's `Downloads/`.
    let downloads: URL

    /// The file name a transfer's finished file takes in `Downloads/`.
    static func receivedName(of id: TransferID) -> String { "\(id).received" }

    /// The key of a received file's name, or nil when the name is not one.
    static func transfer(ofReceived name: String) -> TransferID? {
        guard name.hasSuffix(".received") else { return nil }
        return TransferID(String(name.dropLast(".received".count)))
    }

    /// Why a finished file was not taken.
    enum Refusal: Error, Equatable {
        /// The response was not a whole body (`status` is not 200).
        case status(Int)
        /// The file could not be moved into the library.
        case file(FileSystemError)

        /// The library's error for `name`'s file from `url`.
        func libraryError(name: String, url: String) -> LibraryError {
            switch self {
            case .status(let status): .downloadHTTPStatus(name: name, url: url, status: status)
            case .file(let error): .fileSystem(path: error.path, reason: error.reason)
            }
        }
    }

    /// Takes `file`, the whole body of `id`'s response with `status` (nil: the engine cannot
    /// say, and completes only on success), into `Downloads/`. Returns the received file's name;
    /// also when another engine attached to the same transfers (another process's, or this
    /// one's poll a moment before) took the file first.
    func take(_ file: URL, of id: TransferID, status: Int?) -> Result<String, Refusal> {
        if let status, status != 200 { return .failure(.status(status)) }
        let name = Self.receivedName(of: id)
        do {
            let target = try OpenFolder.open(downloads)
            let source = try OpenFolder.open(file.deletingLastPathComponent())
            do {
                try source.rename(file.lastPathComponent, to: name, in: target)
            } catch  where error.code == EXDEV {
                try copy(file, named: name, into: target)
            }
            // The engine's copy may be gone the moment this returns: the move must survive a power cut.
            try target.file(name).synchronize()
            try target.synchronize()
            return .success(name)
        } catch {
            if let taken = alreadyTaken(id) { return .success(taken) }
            return .failure(.file(error))
        }
    }

    /// The received file of `id`, when it is in `Downloads/`.
    func alreadyTaken(_ id: TransferID) -> String? { present(Self.receivedName(of: id)) }

    /// `name`, when a file of that name is in `Downloads/`.
    func present(_ name: String) -> String? {
        (try? OpenFolder.open(downloads).kind(of: name)) == .regularFile ? name : nil
    }

    /// A copy for a file on another file system (the system's temporary folder may be one).
    private func copy(_ file: URL, named name: String, into folder: OpenFolder) throws(FileSystemError) {
        let copy = try AtomicFile.create(named: name, in: folder)
        try FileCopy.copy(try OpenFile.open(file), to: copy.file)
        try copy.commit(.durable)
    }
}
