import Foundation
import NewsstandCore

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

    /// The templates folder (`environment`: where `NEWSSTAND_TEMPLATES` is looked up).
    public static func directory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NotFound) -> URL {
        if let path = environment["NEWSSTAND_TEMPLATES"], !path.isEmpty {
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
                ] where FileStatus.kind(of: candidate.appendingPathComponent("page-classes.plist")) != nil {
                    return candidate
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw NotFound()
    }

    /// The built-in page-class schema file.
    public static func builtInSchema(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NotFound) -> URL {
        try directory(environment: environment).appendingPathComponent("page-classes.plist")
    }
}
