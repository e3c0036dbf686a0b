/// The checked, normalised path of an archive entry: relative, without `.`/`..` components.
struct ZipEntryPath: Equatable, Sendable {
    /// What the unpacker does with an entry whose path is structurally safe.
    enum Disposition: Equatable, Sendable {
        /// Write it.
        case write
        /// Leave it out: macOS's metadata (`__MACOSX/`, `.DS_Store`), never part of an issue.
        case skip
        /// Refuse the archive: the bundle rules refuse this name.
        case refuse(SafeRelativePath.Problem)
    }

    /// The folder macOS's zip (and Finder's "Compress") adds at the root for resource forks.
    static let macOSMetadataFolder = "__MACOSX"
    /// The file Finder leaves in every folder it has shown.
    static let finderFile = ".DS_Store"

    /// The path's components, none empty, `.` or `..`.
    let components: [String]
    /// Whether the entry names a folder (trailing `/`).
    let isFolder: Bool

    /// Checks a raw entry path; nil when it is empty, absolute, or has a `..` component.
    init?(_ raw: String) {
        guard !raw.isEmpty, !raw.contains("\0") else { return nil }
        // Archivers on Windows write `\` between folders (the format says `/`). libarchive, which
        // read bundles before, read it as `/`, and so does this: `assets\1-0.png` unpacks into
        // `assets/`, and `..\x` climbs.
        let parts = raw.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
        guard let first = parts.first, !first.isEmpty else { return nil }
        // A Windows drive letter (`C:`) is as absolute as a leading slash.
        if first.count == 2, first.hasSuffix(":") { return nil }
        var kept: [String] = []
        for part in parts where !part.isEmpty && part != "." {
            if part == ".." { return nil }
            kept.append(String(part))
        }
        guard !kept.isEmpty else { return nil }
        components = kept
        isFolder = raw.hasSuffix("/") || raw.hasSuffix("\\")
    }

    /// The path relative to the destination.
    var relativePath: String { components.joined(separator: "/") }

    /// What to do with the entry: the build's own rule for every path in a bundle
    /// (`SafeRelativePath`: at most 16 components and 1,024 bytes, no hidden names, no `:`, no
    /// control or invisible formatting characters), so that the reader installs nothing the
    /// build would refuse, and no path implies more folders than that. macOS's metadata, which
    /// Finder adds to a bundle zipped by hand, is left out rather than refused. Judged on the
    /// components' count before the text, so a path thousands of folders deep costs no more
    /// than a short one.
    var disposition: Disposition {
        if components.first == Self.macOSMetadataFolder || (!isFolder && components.last == Self.finderFile) {
            return .skip
        }
        if components.count > SafeRelativePath.maxComponents { return .refuse(.tooLong) }
        if let problem = SafeRelativePath.problem(in: relativePath) { return .refuse(problem) }
        return .write
    }
}
