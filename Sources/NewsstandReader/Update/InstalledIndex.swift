import Foundation
import NewsstandCore

/// The index of the bundle an issue's content was installed from, kept inside the content
/// folder as `.newsstand-index.json`. No bundle may bring it: index names are `SafeRelativePath`s
/// (no hidden components), and the unpacker refuses every name starting with `reservedPrefix`
/// (the index and its temporary `AtomicFile` names), as does `Installer`. Living in the folder,
/// it is swapped in and out with the content by the same rename, so it always describes the
/// files beside it; what it says is still checked (sizes on disk) before a file is trusted.
enum InstalledIndex {
    static let fileName = ".newsstand-index.json"
    /// What every name the library writes in a content folder starts with.
    static let reservedPrefix = ".newsstand"

    /// The index in `content`, or nil when there is none or it is unreadable or refused.
    static func load(from content: OpenFolder, limits: BundleIndexLimits) -> BundleIndex? {
        guard let file = try? content.file(fileName), file.size <= Int64(limits.maximumBytes),
            let data = try? file.readAll(limit: limits.maximumBytes)
        else { return nil }
        return try? BundleIndex.decode(data, limits: limits)
    }

    /// Writes `index` into `folder` (a content folder not yet in place). Not synced on its own,
    /// like the unpacked files beside it: the swap's rename is made durable by syncing the issues
    /// folder (`UpdateAssembler`), and an index lost to a power cut only makes the next update a
    /// whole download (`noInstalledIndex`), never a wrong one. Syncing the file and the folder
    /// here cost more than the rest of a one-page update (70 ms of 110 on this machine).
    static func write(_ index: BundleIndex, into folder: OpenFolder) throws(FileSystemError) {
        let file = try AtomicFile.create(named: fileName, in: folder)
        try file.file.write(index.encoded())
        try file.commit(.bestEffort)
    }
}
