import Foundation
import NewsstandCore

/// Builds the new version of an issue's content beside the old one and stages it to replace it
/// (`ContentSwap.stage`): kept files hard-linked (copied where links are not possible) from the
/// installed version, fetched entries read from the spool of fetched ranges and checked against
/// the index, the new index written beside them. The old version is untouched and readable
/// until the caller records the new one and swaps it in (`ContentSwap.settle`).
struct UpdateAssembler: Sendable {
    /// Why assembling failed.
    enum Failure: Error, Sendable, Equatable {
        /// A fetched entry is not what the index says (its record, size or SHA-256).
        case mismatch(String)
        /// A file operation failed.
        case file(FileSystemError)
    }

    let name: String
    let layout: LibraryLayout
    let plan: UpdatePlan
    let index: BundleIndex
    let spool: URL

    /// Assembles and stages the new version (as `ContentSwap.stagedName` of the index's bundle).
    /// Blocking: run it with `BlockingWork`.
    func run() -> Result<Void, Failure> {
        let issues: OpenFolder
        do {
            issues = try OpenFolder.open(layout.issues)
        } catch {
            return .failure(.file(error))
        }
        let temporary = layout.temporaryContent(of: name).lastPathComponent
        do throws(Failure) {
            try assemble(into: temporary, in: issues)
            try Self.onFiles { () throws(FileSystemError) in
                try ContentSwap.stage(temporary, as: name, sha256: index.bundleSHA256, in: issues, layout: layout)
            }
        } catch {
            try? issues.removeTree(temporary)
            return .failure(error)
        }
        return .success(())
    }

    /// Runs file operations; their failure is `.file`.
    private static func onFiles<T>(_ body: () throws(FileSystemError) -> T) throws(Failure) -> T {
        do {
            return try body()
        } catch {
            throw .file(error)
        }
    }

    private func assemble(into temporary: String, in issues: OpenFolder) throws(Failure) {
        let folder = try Self.onFiles { () throws(FileSystemError) in try issues.makeFolder(temporary) }
        // An update that only drops entries or repacks the same files fetches nothing: no spool.
        if !plan.fetched.isEmpty { try extractFetched(into: folder) }
        try Self.onFiles { () throws(FileSystemError) in
            for entry in plan.kept {
                guard try issues.duplicate(at: "\(name)/\(entry.name)", to: "\(temporary)/\(entry.name)") else {
                    throw FileSystemError.missing(path: issues.path(at: "\(name)/\(entry.name)"))
                }
            }
            try InstalledIndex.write(index, into: folder)
        }
    }

    /// Writes every fetched entry from the spool into the new folder.
    private func extractFetched(into folder: OpenFolder) throws(Failure) {
        let spoolFile = try Self.onFiles { () throws(FileSystemError) in try OpenFile.open(spool) }
        // Where each range starts in the spool: the ranges were fetched in order, back to back.
        var starts: [Int64] = []
        var offset: Int64 = 0
        for range in plan.ranges {
            starts.append(offset)
            offset += Int64(range.count)
        }
        guard spoolFile.size == offset else {
            throw .mismatch("the fetched ranges hold \(spoolFile.size) bytes, \(offset) were asked")
        }
        var rangeIndex = 0
        for entry in plan.fetched {
            while rangeIndex < plan.ranges.count, plan.ranges[rangeIndex].upperBound < entry.recordRange.upperBound {
                rangeIndex += 1
            }
            guard rangeIndex < plan.ranges.count, plan.ranges[rangeIndex].lowerBound <= entry.headerOffset else {
                throw .mismatch("'\(entry.name)' is in no fetched range")
            }
            let at = starts[rangeIndex] + entry.headerOffset - plan.ranges[rangeIndex].lowerBound
            try extract(entry, from: spoolFile, at: at, into: folder)
        }
    }

    /// Writes one fetched entry into the new folder, checked against the index as it streams.
    private func extract(_ entry: BundleIndex.Entry, from spool: OpenFile, at offset: Int64, into folder: OpenFolder)
        throws(Failure)
    {
        let target = try Self.onFiles { () throws(FileSystemError) in
            guard let (parent, file) = try folder.parent(of: entry.name, create: true) else {
                throw FileSystemError.missing(path: folder.path(at: entry.name))
            }
            return try parent.createFile(file)
        }
        defer { try? target.close() }
        let digest = SHA256()
        var size: Int64 = 0
        var writeFailure: FileSystemError?
        do throws(ZipExtractionError) {
            try ZipLocalRecord.read(entry, at: offset, in: spool) { (bytes: UnsafeRawBufferPointer) throws(ZipExtractionError) in
                do throws(FileSystemError) {
                    try target.write(bytes)
                } catch {
                    writeFailure = error
                    throw .writeFailed(path: error.path, reason: error.reason)
                }
                digest.update(bytes)
                size += Int64(bytes.count)
            }
        } catch {
            if let writeFailure { throw .file(writeFailure) }
            throw .mismatch("\(error)")
        }
        guard size == entry.size else { throw .mismatch("'\(entry.name)' has \(size) bytes, the index says \(entry.size)") }
        let sha256 = digest.finalizeHex()
        guard sha256 == entry.sha256 else {
            throw .mismatch("'\(entry.name)' has SHA-256 \(sha256), the index says \(entry.sha256)")
        }
    }
}
