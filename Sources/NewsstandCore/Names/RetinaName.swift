/// The `@2x` naming rule: the retina name of a file inserts `@2x` before its extension
/// (`f2.png` → `f2@2x.png`, `f2.zip` → `f2@2x.zip`). Applies to file names and to URLs
/// (only the last path component changes; a query or fragment is kept).
public enum RetinaName {
    /// The `@2x` form of a file name or URL string.
    public static func of(_ name: String) -> String {
        var path = Substring(name)
        var suffix = Substring("")
        // A plain file name has neither `?` nor `#`: looked for in the bytes (both are ASCII)
        // before Foundation's `contains`, which was a tenth of a no-change build (every
        // recorded image's name goes through here).
        if name.utf8.contains(where: { $0 == 0x3F || $0 == 0x23 }), let cut = name.firstIndex(where: { $0 == "?" || $0 == "#" }),
            name.contains("://")
        {
            path = name[..<cut]
            suffix = name[cut...]
        }
        // `/` and `.` looked for in the bytes (both ASCII): walking the name's characters
        // backwards was a tenth of a no-change build (every recorded image name comes here).
        let bytes = path.utf8
        let lastSlash = bytes.lastIndex(of: 0x2F)
        let fileStart = lastSlash.map { bytes.index(after: $0) } ?? bytes.startIndex
        let file = bytes[fileStart...]
        if let dot = file.lastIndex(of: 0x2E), dot != file.startIndex {
            return String(path[..<dot]) + "@2x" + String(path[dot...]) + suffix
        }
        return String(path) + "@2x" + suffix
    }

    /// Whether `name` is already a `@2x` name (`1-0@2x.png`).
    public static func isRetina(_ name: String) -> Bool {
        normalName(of: name) != nil
    }

    /// The normal name a `@2x` name belongs to, or nil when `name` is not a `@2x` name.
    public static func normalName(of name: String) -> String? {
        let base: Substring
        let ext: Substring
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            base = name[..<dot]
            ext = name[dot...]
        } else {
            base = Substring(name)
            ext = ""
        }
        guard base.hasSuffix("@2x"), base.count > 3 else { return nil }
        return String(base.dropLast(3)) + ext
    }
}
