import Foundation
import NewsstandReader

/// `newsstand library`: a device's issue library in a terminal: refresh from a catalog, list,
/// download (with resume), remove.
enum LibraryCommand: Command {
    static let declaration = CommandDeclaration(
        name: "library", summary: "keep a shelf of issues like a reader app: refresh, list, download, update, remove",
        operands: [
            OperandDeclaration("folder", .folder, help: "the library's folder (created when missing)"),
            OperandDeclaration("action", .choice(["refresh", "list", "download", "update", "resume", "remove", "cover"]), help: "what to do"),
            OperandDeclaration(
                "operand", .text, help: "refresh: the catalog URL; download, update, remove and cover: an issue's name", isRequired: false),
        ],
        options: [
            .flag("--retina", help: "use the @2x covers and bundles (fixed when the folder is first used)"),
            .flag("--latest", help: "download the newest issue"),
            .flag("--all", help: "download every issue that is not downloaded yet; update: every issue with an update"),
            .value("--format", .choice(["text", "json"]), help: "text (default) or json"),
            .value(
                "--covers", .wholeNumber(unit: "covers", range: 0...Int64(Int32.max)), placeholder: "N",
                help: "refresh: fetch the covers of the newest N issues only (default 20); cover fetches any other"),
            .value(
                "--wait", .seconds(allowsZero: true),
                help: "how long a write waits while another process writes to the folder (default 10; 0: fail at once)"),
            .value("--timeout", .seconds(allowsZero: false), help: "deadline of one catalog or cover request (default 300)"),
            .value(
                "--stall-timeout", .seconds(allowsZero: false),
                help: "window of the minimum rate; also the connect timeout (default 30)"),
            .value(
                "--min-speed", .wholeNumber(unit: "bytes", range: 0...Int64.max), placeholder: "BYTES",
                help: "bytes per second a transfer must average over that window (default 1024)"),
            .value(
                "--max-catalog-size", .wholeNumber(unit: "bytes", range: 1...Int64.max), placeholder: "BYTES",
                help: "largest catalog accepted, decoded (default 134217728, 128 MiB)"),
            .value(
                "--max-cover-size", .wholeNumber(unit: "bytes", range: 1...Int64.max), placeholder: "BYTES",
                help: "largest cover kept, decoded (default 16777216, 16 MiB)"),
        ],
        forms: [
            "<folder> refresh <catalog-url> [--retina]",
            "<folder> list",
            "<folder> download <name> | --latest | --all",
            "<folder> update <name> | --all",
            "<folder> resume",
            "<folder> remove <name>",
            "<folder> cover <name>",
        ],
        description: [
            "Manages an issue library in <folder> (created when missing) the way a reader app does: refresh fetches issues.plist with a conditional GET, download streams a bundle into a .part file (resumed with Range after an interruption), verifies its size and SHA-256 and unpacks it safely; update brings a downloaded issue with an update to the catalog's content, fetching only the files that changed (HTTP Range requests, checked against the bundle's index) when it can, the whole bundle otherwise; resume continues downloads that were interrupted.",
            "Several processes can use one folder at once: each write holds the folder's lock for its moment only, and waits for another's (--wait) before it fails with \"library ... is in use\"; a second download of an issue another process is downloading waits for that one and finds the issue available.",
        ],
        exitStatuses: [(0, "success"), (1, "failure (one line on standard error)"), (2, "usage error")])

    /// Default of `--wait`: long enough for another command's refresh, list or remove to end.
    static let defaultWait: TimeInterval = 10

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> Int32 {
        let positionals = arguments.operands
        let json = arguments.value("--format") == "json"
        let folder = URL(fileURLWithPath: positionals[0])
        let action = positionals[1]
        let operands = Array(positionals.dropFirst(2))
        let session = LibrarySession(
            console: context.console, json: json, configuration: configuration(arguments),
            wait: arguments.seconds("--wait") ?? defaultWait)
        switch action {
        case "refresh":
            guard operands.count == 1, let url = URL(string: operands[0]), url.scheme != nil else {
                throw UsageError("refresh needs one <catalog-url>")
            }
            let scale: LibraryScale = arguments.has("--retina") ? .retina : .normal
            return try session.refresh(folder: folder, url: url, scale: scale)
        case "list":
            guard operands.isEmpty else { throw UsageError("list takes no operands") }
            return try session.list(folder: folder)
        case "download":
            let selection: LibrarySession.Selection
            switch (operands.count, arguments.has("--latest"), arguments.has("--all")) {
            case (1, false, false): selection = .named(operands[0])
            case (0, true, false): selection = .latest
            case (0, false, true): selection = .all
            default: throw UsageError("download needs exactly one of <name>, --latest or --all")
            }
            return try session.download(folder: folder, selection)
        case "update":
            switch (operands.count, arguments.has("--latest"), arguments.has("--all")) {
            case (1, false, false): return try session.update(folder: folder, names: operands)
            case (0, false, true): return try session.update(folder: folder, names: nil)
            default: throw UsageError("update needs exactly one of <name> or --all")
            }
        case "resume":
            guard operands.isEmpty else { throw UsageError("resume takes no operands") }
            return try session.download(folder: folder, .pending)
        case "remove":
            guard operands.count == 1 else { throw UsageError("remove needs one <name>") }
            return try session.remove(folder: folder, name: operands[0])
        case "cover":
            guard operands.count == 1 else { throw UsageError("cover needs one <name>") }
            return try session.cover(folder: folder, name: operands[0])
        default:
            throw UsageError("unknown action '\(action)' (refresh, list, download, update, resume, remove, cover)")
        }
    }

    /// The reader library's settings from the options (its defaults otherwise).
    private static func configuration(_ arguments: ParsedArguments) -> LibraryConfiguration {
        var configuration = LibraryConfiguration()
        if let value = arguments.seconds("--timeout") { configuration.requestTimeout = value }
        if let value = arguments.seconds("--stall-timeout") { configuration.stallTimeout = value }
        if let value = arguments.number("--min-speed") { configuration.minimumSpeed = value }
        if let value = arguments.number("--max-catalog-size") { configuration.maxCatalogBytes = value }
        if let value = arguments.number("--max-cover-size") { configuration.maxCoverBytes = value }
        if let value = arguments.number("--covers") { configuration.coversFetchedOnRefresh = Int(value) }
        return configuration
    }
}
