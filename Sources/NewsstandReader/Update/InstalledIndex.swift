import Foundation
import NewsstandCore

/// The index of the bundle an issue's content was installed from, kept inside the content
/// folder as `.newsstand-index.json`. No bundle may bring it: index names are `SafeRelativePath`s
/// (no hidden components), and the unpacker refuses every name starting with `reservedPrefix`
/// (the index and its temporary `AtomicFile` names), as does `Installer`. Living in the folder,
/// it is swapped in and out with the content by the same rename, so it describes the files
/// beside it; but it is trusted only when it describes the bundle the record says is
/// installed (`installedSHA256`): a file of that name that came in a bundle cannot, as it would
/// have to hold the SHA-256 of the very bundle holding it. Even then, what it says is checked
/// (sizes on disk) before a file is kept. It never decides which version is installed: the
/// record does (`ContentSwap`).
enum InstalledIndex {
    static let fileName = ".newsstand-index.json"
    /// What every name the library writes in a content folder starts with.
    static let reservedPrefix = ".newsstand"

    /// The index in `content` when it describes the bundle with SHA-256 `sha256`; nil when there
    /// is none, it is unreadable or refused, or it describes another bundle.
    static func load(from content: OpenFolder, describing sha256: String, limits: BundleIndexLimits) -> BundleIndex? {
        guard let file = try? content.file(fileName), file.size <= Int64(limits.maximumBytes),
            let data = try? file.readAll(limit: limits.maximumBytes),
            let index = try? BundleIndex.decode(data, limits: limits), index.bundleSHA256 == sha256.lowercased()
        else { return nil }
        return index
    }

    /// Writes `index` into `folder` (a content folder not yet in place). Not synced on its own,
    /// like the unpacked files beside it: the staged folder's name is made durable by syncing the
    /// issues folder (`ContentSwap.stage`), and an index lost to a power cut only makes the next
    /// update a whole download (`noInstalledIndex`), never a wrong one. Syncing the file and the folder
    /// here cost more than the rest of a one-page update (70 ms of 110 on this machine).
    static func write(_ index: BundleIndex, into folder: OpenFolder) throws(FileSystemError) {
        try AtomicFile.write(index.encoded(), named: fileName, in: folder, .bestEffort)
    }
}
