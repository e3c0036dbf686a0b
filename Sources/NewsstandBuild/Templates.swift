import Foundation

/// Finds the `templates/` folder: the built-in page-class schema and what `newsstand init` copies.
///
/// Looked up, in order: `$NEWSSTAND_TEMPLATES`; `<prefix>/share/newsstand/templates` beside an
/// installed binary (`make install`); a `templates/` folder in a parent of the executable (a
/// build in the source tree).
public enum Templates {
    /// Errors finding templates.
    public struct NotFound: Error, CustomStringConvertible {
        public var description: String {
            "cannot find the templates folder; set NEWSSTAND_TEMPLATES or reinstall with 'make install'"
        }
    }

    /// The templates folder.
    public static func directory() throws(NotFound) -> URL {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["NEWSSTAND_TEMPLATES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates: [URL] = []
        if let bundled = Bundle.main.executableURL?.resolvingSymlinksInPath() { candidates.append(bundled) }
        candidates.append(executable)
        for start in candidates {
            var folder = start.deletingLastPathComponent()
            for _ in 0..<6 {
                for candidate in [
                    folder.appendingPathComponent("share/newsstand/templates"),
                    folder.appendingPathComponent("templates"),
                ] where fileManager.fileExists(atPath: candidate.appendingPathComponent("page-classes.plist").path) {
                    return candidate
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw NotFound()
    }

    /// The built-in page-class schema file.
    public static func builtInSchema() throws(NotFound) -> URL {
        try directory().appendingPathComponent("page-classes.plist")
    }
}
