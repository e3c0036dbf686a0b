import Foundation
import NewsstandBuild
import NewsstandCore

/// `newsstand init`: creates a new magazine from the template.
enum InitCommand: Command {
    static let declaration = CommandDeclaration(
        name: "init", summary: "create a new magazine with an example issue",
        operands: [OperandDeclaration("folder", .folder, help: "where to create it (missing or empty)")],
        description: [
            "Creates a magazine in <folder> (which must not exist or be empty): magazine.plist and an example issue with a SimplePage and a PhotoPage and placeholder images in both sizes. Edit magazine.plist's BaseURL, then run 'newsstand validate <folder>'."
        ],
        exitStatuses: [(0, "created"), (1, "the folder is not empty, or writing failed"), (2, "usage error")],
        environment: [("NEWSSTAND_TEMPLATES", "the templates folder (what is copied)")])

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> Int32 {
        let path = arguments.operands[0]
        let destination = URL(fileURLWithPath: path, isDirectory: true)
        let fileManager = FileManager.default
        if let kind = FileStatus.kind(of: destination) {
            let contents = (try? fileManager.contentsOfDirectory(atPath: destination.path)) ?? []
            guard kind == .folder, contents.isEmpty else {
                context.console.err("newsstand init: error: '\(path)' exists and is not an empty folder; nothing was written")
                return ExitStatus.failure
            }
        }
        let template = try Templates.directory(environment: context.environment).appendingPathComponent("new-magazine", isDirectory: true)
        try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try fileManager.contentsOfDirectory(atPath: template.path) {
            try fileManager.copyItem(at: template.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
        context.console.out("created a magazine in \(path)")
        context.console.out(
            "next: set BaseURL in \((path as NSString).appendingPathComponent("magazine.plist")), then run 'newsstand validate \(path)'"
        )
        return ExitStatus.success
    }
}
