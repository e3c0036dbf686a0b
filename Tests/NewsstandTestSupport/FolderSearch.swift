import Foundation

/// The files under a folder that hold given bytes, as `grep -r -l` lists them: regular files
/// only, found without following links, in this process (so a test of the fast tier can look
/// for a secret that must never reach an output).
public enum FolderSearch {
    /// The paths (relative to `folder`, sorted) of the regular files whose bytes contain `needle`.
    public static func files(under folder: URL, containing needle: String) -> [String] {
        var found: [String] = []
        walk(folder.path, relative: "", needle: Data(needle.utf8), into: &found)
        return found.sorted()
    }

    private static func walk(_ path: String, relative: String, needle: Data, into found: inout [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names {
            let full = path + "/" + name
            let key = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(full, relative: key, needle: needle, into: &found)
            case S_IFREG:
                let data = (try? Data(contentsOf: URL(fileURLWithPath: full))) ?? Data()
                if data.range(of: needle) != nil { found.append(key) }
            default: continue
            }
        }
    }
}
