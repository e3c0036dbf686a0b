import Foundation
import NewsstandReader

/// `newsstand library`: a device's issue library in a terminal: refresh from a catalog, list,
/// download (with resume), remove.
enum LibraryCommand: Command {
    static let name = "library"
    static let summary = "keep a shelf of issues like a reader app: refresh, list, download, remove"
    static let help = """
        Usage: newsstand library <folder> refresh <catalog-url> [--retina]
               newsstand library <folder> list
               newsstand library <folder> download <name> | --latest | --all
               newsstand library <folder> resume
               newsstand library <folder> remove <name>

        Manages an issue library in <folder> (created when missing) the way a reader app does:
        refresh fetches issues.plist with a conditional GET, download streams a bundle into a
        .part file (resumed with Range after an interruption), verifies its size and SHA-256
        and unpacks it safely; resume continues downloads that were interrupted.

        One process at a time uses a folder: another one waits for it (--wait), then fails
        with "library ... is in use".

        Options:
          --retina                 use the @2x covers and bundles (fixed when the folder is first used)
          --latest                 download the newest issue
          --all                    download every issue that is not downloaded yet
          --format FORMAT          text (default) or json
          --wait SECONDS           how long to wait while another process uses the folder (default 10; 0: fail at once)
          --timeout SECONDS        deadline of one catalog or cover request (default 300)
          --stall-timeout SECONDS  window of the minimum rate; also the connect timeout (default 30)
          --min-speed BYTES        bytes per second a transfer must average over that window (default 1024)
          --max-catalog-size BYTES largest catalog accepted, decoded (default 134217728, 128 MiB)
          --max-cover-size BYTES   largest cover kept, decoded (default 16777216, 16 MiB)

        Exit status: 0 success, 1 failure (one line on standard error), 2 usage error.
        """
    static let spec = OptionSpec(
        flags: ["--retina", "--latest", "--all"],
        values: [
            "--format", "--wait", "--timeout", "--stall-timeout", "--min-speed", "--max-catalog-size", "--max-cover-size",
        ])

    /// Default of `--wait`: long enough for another command's refresh, list or remove to end.
    static let defaultWait: TimeInterval = 10

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let positionals = arguments.positionals
        guard positionals.count >= 2 else {
            throw UsageError(
                positionals.isEmpty ? "missing <folder>" : "missing action (refresh, list, download, resume, remove)")
        }
        let json: Bool
        switch arguments.value("--format") ?? "text" {
        case "text": json = false
        case "json": json = true
        case let other: throw UsageError("unknown format '\(other)' (text or json)")
        }
        let folder = URL(fileURLWithPath: positionals[0])
        let action = positionals[1]
        let operands = Array(positionals.dropFirst(2))
        let session = LibrarySession(
            console: console, json: json, configuration: try configuration(arguments),
            wait: try seconds(arguments, "--wait", allowsZero: true) ?? defaultWait)
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
        case "resume":
            guard operands.isEmpty else { throw UsageError("resume takes no operands") }
            return try session.download(folder: folder, .pending)
        case "remove":
            guard operands.count == 1 else { throw UsageError("remove needs one <name>") }
            return try session.remove(folder: folder, name: operands[0])
        default:
            throw UsageError("unknown action '\(action)' (refresh, list, download, resume, remove)")
        }
    }

    /// The reader library's settings from the options (its defaults otherwise).
    private static func configuration(_ arguments: ParsedArguments) throws -> LibraryConfiguration {
        var configuration = LibraryConfiguration()
        if let value = try seconds(arguments, "--timeout", allowsZero: false) { configuration.requestTimeout = value }
        if let value = try seconds(arguments, "--stall-timeout", allowsZero: false) { configuration.stallTimeout = value }
        if let value = try bytes(arguments, "--min-speed", allowsZero: true) { configuration.minimumSpeed = value }
        if let value = try bytes(arguments, "--max-catalog-size", allowsZero: false) { configuration.maxCatalogBytes = value }
        if let value = try bytes(arguments, "--max-cover-size", allowsZero: false) { configuration.maxCoverBytes = value }
        return configuration
    }

    private static func seconds(_ arguments: ParsedArguments, _ name: String, allowsZero: Bool) throws -> TimeInterval? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Double(text), value.isFinite, allowsZero ? value >= 0 : value > 0 else {
            throw UsageError("\(name) needs a number of seconds\(allowsZero ? "" : " above 0"), not '\(text)'")
        }
        return value
    }

    private static func bytes(_ arguments: ParsedArguments, _ name: String, allowsZero: Bool) throws -> Int64? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Int64(text), allowsZero ? value >= 0 : value > 0 else {
            throw UsageError("\(name) needs a whole number of bytes\(allowsZero ? "" : " above 0"), not '\(text)'")
        }
        return value
    }
}
