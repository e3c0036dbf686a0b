import Foundation
import NewsstandCore

/// Verifies a downloaded bundle and unpacks it into a temporary folder beside the issue's
/// content, staged to replace it (`ContentSwap.stage`): the caller records it and swaps it in,
/// so the content folder is the old version or the complete new one, never half of either.
struct Installer: Sendable {
    let name: String
    let part: URL
    let layout: LibraryLayout
    let limits: ZipExtractionLimits
    let hasher: any ContentHasher
    let unpacker: any BundleUnpacker
    /// The bundle's verified index, kept in the content (`InstalledIndex`) when it describes
    /// this bundle and the bundle's root is the issue (the index's names are then the files').
    var index: BundleIndex?

    /// Returns the bundle's digest once its content is staged (as `ContentSwap.stagedName`).
    /// Blocking (hashing and unpacking a bundle take seconds): run it with `BlockingWork`.
    /// `stop` is asked at each safe point (before hashing, after it, after unpacking): when it
    /// says so, the install ends `cancelled` with nothing staged and the bundle left in place.
    func install(
        expectedSize: Int?, expectedSHA256: String?, stop: @Sendable () -> Bool = { false }
    ) -> Result<String, LibraryError> {
        let sha256: String
        if stop() { return .failure(.cancelled(name: name)) }
        do {
            sha256 = try verify(expectedSize: expectedSize, expectedSHA256: expectedSHA256)
        } catch {
            return .failure(error)
        }
        if stop() { return .failure(.cancelled(name: name)) }
        let unpacked = layout.temporaryContent(of: name)
        do {
            try unpacker.unpack(part, into: unpacked, limits: limits)
        } catch {
            return .failure(.unpackFailed(name: name, reason: error))
        }
        if stop() {
            if let issues = try? OpenFolder.open(layout.issues) { try? issues.removeTree(unpacked.lastPathComponent) }
            return .failure(.cancelled(name: name))
        }
        let issues: OpenFolder
        do {
            issues = try OpenFolder.open(layout.issues)
        } catch {
            return .failure(.fileSystem(path: error.path, reason: error.reason))
        }
        // Whatever fails from here removes the folder that holds the issue so far.
        var temporary = unpacked
        do throws(FileSystemError) {
            temporary = try issueRoot(of: unpacked, in: issues)
            // Whatever unpacker the app configured, a bundle may not bring the library's own records
            // (a forged index would make a later update trust files it does not describe).
            if let planted = plantedRecord(in: temporary, of: issues) {
                try? issues.removeTree(temporary.lastPathComponent)
                return .failure(.unpackFailed(name: name, reason: .reservedName(archive: part.path, entry: planted)))
            }
            if let index, index.bundleSHA256 == sha256, temporary == unpacked {
                try InstalledIndex.write(index, into: try issues.folder(temporary.lastPathComponent))
            }
            try ContentSwap.stage(temporary.lastPathComponent, as: name, sha256: sha256, in: issues, layout: layout)
        } catch {
            try? issues.removeTree(temporary.lastPathComponent)
            return .failure(.fileSystem(path: error.path, reason: error.reason))
        }
        return .success(sha256)
    }

    /// The folder that holds the issue: the unpacked one, or, for a bundle zipped with its
    /// enclosing folder, that folder lifted out beside it (a temporary name of its own) and the
    /// rest (`__MACOSX/`) deleted. Everything was unpacked under the same safety rules either way.
    private func issueRoot(of unpacked: URL, in issues: OpenFolder) throws(FileSystemError) -> URL {
        let folder = try issues.folder(unpacked.lastPathComponent)
        guard let inner = try BundleShape.normalize(folder) else { return unpacked }
        let lifted = layout.temporaryContent(of: name)
        try folder.rename(inner, to: lifted.lastPathComponent, in: issues)
        try issues.removeTree(unpacked.lastPathComponent)
        return lifted
    }

    /// The first name at the content's root that the library reserves, if any.
    private func plantedRecord(in content: URL, of issues: OpenFolder) -> String? {
        guard let folder = try? issues.folder(content.lastPathComponent), let entries = try? folder.entries() else {
            return nil
        }
        return entries.compactMap(\.name).first { $0.hasPrefix(InstalledIndex.reservedPrefix) }
    }

    private func verify(expectedSize: Int?, expectedSHA256: String?) throws(LibraryError) -> String {
        let size = FileStatus.size(of: part) ?? 0
        if let expectedSize, Int64(expectedSize) != size {
            throw .verificationFailed(
                name: name, path: part.path, reason: "size is \(size) bytes, the catalog says \(expectedSize)")
        }
        let sha256: String
        do {
            sha256 = try hasher.digest(ofFileAt: part)
        } catch {
            throw .fileSystem(path: error.path, reason: error.reason)
        }
        if let expectedSHA256, expectedSHA256.lowercased() != sha256 {
            throw .verificationFailed(
                name: name, path: part.path, reason: "SHA-256 is \(sha256), the catalog says \(expectedSHA256)")
        }
        return sha256
    }
}
