/// The checked, normalised path of an archive entry: relative, without `.`/`..` components.
struct ZipEntryPath: Equatable, Sendable {
    /// The path's components, none empty, `.` or `..`.
    let components: [String]
    /// Whether the entry names a folder (trailing `/`).
    let isFolder: Bool

    /// Checks a raw entry path; nil when it is empty, absolute, or has a `..` component.
    init?(_ raw: String) {
        guard !raw.isEmpty, !raw.hasPrefix("/"), !raw.hasPrefix("\\"), !raw.contains("\0") else { return nil }
        // A Windows drive letter (`C:`) is as absolute as a leading slash.
        let first = raw.split(separator: "/", omittingEmptySubsequences: false).first ?? ""
        if first.count == 2, first.hasSuffix(":") { return nil }
        var parts: [String] = []
        for part in raw.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            // Backslashes are separators for archivers on Windows: judge `..\x` as `..`.
            if part == ".." || part.split(separator: "\\").contains("..") { return nil }
            parts.append(String(part))
        }
        guard !parts.isEmpty else { return nil }
        components = parts
        isFolder = raw.hasSuffix("/")
    }

    /// The path relative to the destination.
    var relativePath: String { components.joined(separator: "/") }
}
