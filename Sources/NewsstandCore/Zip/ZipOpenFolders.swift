/// The folders of the path the writer is in, kept open: the next entry reopens only the
/// components where its path leaves the last one's, rather than every folder from the top (which
/// made unpacking quadratic in a path's depth). At most one descriptor per component of one path
/// is open (`ZipEntryPath` caps the depth), however many folders the archive has.
struct ZipOpenFolders {
    private let root: OpenFolder
    /// The open folders below `root`, outermost first, with their names.
    private var chain: [(name: String, folder: OpenFolder)] = []

    init(root: OpenFolder) { self.root = root }

    /// The folder at `components` below the root (the root for none), opening what is not
    /// open yet; a link on the way is refused, not followed.
    mutating func folder(at components: ArraySlice<String>) throws(FileSystemError) -> OpenFolder {
        var kept = 0
        for (index, name) in components.enumerated() {
            guard index < chain.count, chain[index].name == name else { break }
            kept += 1
        }
        chain.removeLast(chain.count - kept)
        for name in components.dropFirst(kept) {
            let parent = chain.last?.folder ?? root
            chain.append((name, try parent.folder(name)))
        }
        return chain.last?.folder ?? root
    }
}
