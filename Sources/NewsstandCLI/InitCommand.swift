import Foundation
import NewsstandBuild

/// `newsstand init`: creates a new magazine from the template.
enum InitCommand: Command {
    static let name = "init"
    static let summary = "create a new magazine with an example issue"
    static let help = """
        Usage: newsstand init <folder>

        Creates a magazine in <folder> (which must not exist or be empty): magazine.plist and an
        example issue with a SimplePage and a PhotoPage and placeholder images in both sizes.
        Edit magazine.plist's BaseURL, then run 'newsstand validate <folder>'.
        """
    static let spec = OptionSpec()

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError("expected one <folder>")
        }
        let destination = URL(fileURLWithPath: path, isDirectory: true)
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            let contents = (try? fileManager.contentsOfDirectory(atPath: destination.path)) ?? []
            guard isDirectory.boolValue, contents.isEmpty else {
                console.err("newsstand init: error: '\(path)' exists and is not an empty folder; nothing was written")
                return ExitStatus.failure
            }
        }
        let template = try Templates.directory().appendingPathComponent("new-magazine", isDirectory: true)
        try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try fileManager.contentsOfDirectory(atPath: template.path) {
            try fileManager.copyItem(at: template.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
        console.out("created a magazine in \(path)")
        console.out(
            "next: set BaseURL in \((path as NSString).appendingPathComponent("magazine.plist")), then run 'newsstand validate \(path)'"
        )
        return ExitStatus.success
    }
}
