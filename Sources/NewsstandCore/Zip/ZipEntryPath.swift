/// The checked, normalised path of an archive entry: relative, without `.`/`..` components.
struct ZipEntryPath: Equatable, Sendable {
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
}
