import Foundation

/// The output folder and the magazine must not overlap: an output that is the magazine, lies
/// inside it or contains it is refused before anything is written. `build` removes what it
/// wrote before, `preview` and `catalog` overwrite their files, and `--output <magazine>/issues`
/// once cost a magazine its `issue.plist`, `pages.plist` and `assets/`. Both paths are compared
/// as real paths, links resolved, so an output reached through a link counts too.
public enum OutputFolderRule {
    /// How the output overlaps the magazine.
    public struct Overlap: Error, Sendable, Equatable, CustomStringConvertible {
        /// The output folder and the magazine folder, as given.
        public var output: String
        public var magazine: String
        /// "is", "is inside" or "contains".
        public var relation: String

        public var description: String {
            "the output folder '\(output)' overlaps the magazine '\(magazine)': it \(relation) the magazine; choose an output folder outside it"
        }
    }

    /// Throws when `output` is the magazine, is inside it or contains it.
    public static func check(output: URL, magazine: URL) throws(Overlap) {
        try check(outputPath: output.path, magazinePath: magazine.path)
    }

    /// Throws when the folder at `outputPath` is the magazine, is inside it or contains it;
    /// the error names both paths as given (relative paths are taken from the current folder).
    public static func check(outputPath: String, magazinePath: String) throws(Overlap) {
        let out = RealPath.resolve(outputPath)
        let mag = RealPath.resolve(magazinePath)
        let relation: String
        if out == mag {
            relation = "is"
        } else if RealPath.isInside(out, mag) {
            relation = "is inside"
        } else if RealPath.isInside(mag, out) {
            relation = "contains"
        } else {
            return
        }
        throw Overlap(output: outputPath, magazine: magazinePath, relation: relation)
    }
}

/// Real paths for comparing folders, also for paths whose last parts do not exist yet.
enum RealPath {
    /// `path` made absolute with every link resolved; parts that do not exist yet are taken
    /// as written (they cannot be links), `.` and `..` applied to the real path before them.
    static func resolve(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var current = "/"
        var exists = true
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            switch part {
            case ".":
                continue
            case "..":
                current = (current as NSString).deletingLastPathComponent
                if current.isEmpty { current = "/" }
                exists = true
            default:
                let next = current == "/" ? "/" + part : current + "/" + part
                if exists, let real = realpathString(next) {
                    current = real
                } else {
                    exists = false
                    current = next
                }
            }
        }
        return current
    }

    /// Whether `path` lies strictly inside `folder` (both real and absolute).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" ? path != "/" : path.hasPrefix(folder + "/")
    }

    private static func realpathString(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
