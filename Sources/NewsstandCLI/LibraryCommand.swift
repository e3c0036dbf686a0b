import Foundation
import NewsstandCurl
import NewsstandReader

/// `newsstand library`: a device's issue library in a terminal: refresh from a catalog, list,
/// download (with resume), remove.
enum LibraryCommand: Command {
    /// What `library` does to the folder.
    enum Action: String, ChoiceArgument {
        case refresh, list, download, update, resume, remove, cover, cancel
    }

    struct Options: CommandOptions {
        var folder = ""
        var action = Action.list
        /// The catalog URL (refresh) or an issue's name.
        var operand: String?
        var retina = false
        var latest = false
        var all = false
        var background = false
        /// download, update, resume: the program that signs a paid issue's URLs.
        var accessCommand: String?
        var format = OutputFormat.text
        /// How long a write waits while another process writes to the folder.
        var wait = LibraryCommand.defaultWait
        /// The reader library's limits: its defaults, and what the options change. Its requests
        /// run on libcurl (URLSession on Linux has no back-pressure).
        var configuration = LibraryConfiguration.onCurl

        static var arguments: [Argument<Self>] {
            [
                .operand(\.folder, "folder", .folder, help: "the library's folder (created when missing)"),
                .operand(\.action, "action", help: "what to do"),
                .operand(
                    \.operand, "operand", .text,
                    help: "refresh: the catalog URL; download, update, remove, cover and cancel: an issue's name"),
                .flag(\.retina, "--retina", help: "use the @2x covers and bundles (fixed when the folder is first used)"),
                .flag(\.latest, "--latest", help: "download the newest issue"),
                .flag(
                    \.all, "--all", help: "download every issue that is not downloaded yet; update: every issue with an update"),
                .flag(
                    \.background, "--background",
                    help:
                        "download: hand the downloads to the background engine (aria2) and exit at once; they go on after newsstand exits"
                ),
                .value(
                    \.accessCommand, "--access-command", .text, placeholder: "CMD",
                    help:
                        "download, update, resume: run CMD <name> <url> for a paid issue; it prints the signed URL (non-zero exit: not entitled)"
                ),
                .value(\.format, "--format", help: "text (default) or json"),
                .value(
                    \.configuration.coversFetchedOnRefresh, "--covers", .wholeNumber(unit: "covers", range: 0...Int64(Int32.max)),
                    placeholder: "N",
                    help: "refresh: fetch the covers of the newest N issues only (default 20); cover fetches any other"),
                .value(
                    \.wait, "--wait", .seconds(allowsZero: true),
                    help: "how long a write waits while another process writes to the folder (default 10; 0: fail at once)"),
                .value(
                    \.configuration.requestTimeout, "--timeout", .seconds(allowsZero: false),
                    help: "deadline of one catalog or cover request (default 300)"),
                .value(
                    \.configuration.stallTimeout, "--stall-timeout", .seconds(allowsZero: false),
                    help: "window of the minimum rate; also the connect timeout (default 30)"),
                .value(
                    \.configuration.minimumSpeed, "--min-speed", .wholeNumber(unit: "bytes", range: 0...Int64.max),
                    placeholder: "BYTES",
                    help: "bytes per second a transfer must average over that window (default 1024)"),
                .value(
                    \.configuration.maxCatalogBytes, "--max-catalog-size", .wholeNumber(unit: "bytes", range: 1...Int64.max),
                    placeholder: "BYTES", help: "largest catalog accepted, decoded (default 134217728, 128 MiB)"),
                .value(
                    \.configuration.maxCoverBytes, "--max-cover-size", .wholeNumber(unit: "bytes", range: 1...Int64.max),
                    placeholder: "BYTES", help: "largest cover kept, decoded (default 16777216, 16 MiB)"),
            ]
        }
    }

    static let declaration = CommandDeclaration(
        name: "library", summary: "keep a shelf of issues like a reader app: refresh, list, download, update, remove",
        arguments: Options.arguments,
        forms: [
            "<folder> refresh <catalog-url> [--retina]",
            "<folder> list",
            "<folder> download <name> | --latest | --all [--background] [--access-command CMD]",
            "<folder> update <name> | --all [--access-command CMD]",
            "<folder> resume [--access-command CMD]",
            "<folder> remove <name>",
            "<folder> cover <name>",
            "<folder> cancel <name>",
        ],
        description: [
            "Manages an issue library in <folder> (created when missing) the way a reader app does: refresh fetches issues.plist with a conditional GET, download streams a bundle into a .part file (resumed with Range after an interruption), verifies its size and SHA-256 and unpacks it safely; update brings a downloaded issue with an update to the catalog's content, fetching only the files that changed (HTTP Range requests, checked against the bundle's index) when it can, the whole bundle otherwise; resume continues downloads that were interrupted.",
            "download --background hands the downloads to an aria2c daemon (Debian package aria2) kept in <folder>/Engines/aria2 and exits at once: they go on after newsstand exits or is killed, and every later library command on the folder adopts what finished (verifies and unpacks it, and says so on standard error), starts again what the daemon lost, and stops the daemon once it is idle; list shows the transfers still under way; cancel stops one (what it got is kept for the next download).",
            "A paid issue (the catalog's Access is paid) is fetched only through --access-command CMD: for its bundle, and its index and ranges in an update, newsstand runs CMD <name> <url> (through /bin/sh, with NEWSSTAND_ISSUE, NEWSSTAND_PRODUCT_ID, NEWSSTAND_URL, NEWSSTAND_RESOURCE and NEWSSTAND_RENEWAL in its environment; 30 s, 64 KiB of output) and fetches the URL on its first line instead; a non-zero exit means not entitled (its standard error's first line is the reason), and a 401 or 403 from the server runs it once more and the download continues with Range. Without it a paid issue fails with \"not entitled\" and nothing changes.",
            "Several processes can use one folder at once: each write holds the folder's lock for its moment only, and waits for another's (--wait) before it fails with \"library ... is in use\"; a second download of an issue another process is downloading waits for that one and finds the issue available.",
        ],
        exitStatuses: [(0, "success"), (1, "failure (one line on standard error)"), (2, "usage error")])

    /// Default of `--wait`: long enough for another command's refresh, list or remove to end.
    static let defaultWait: TimeInterval = 10

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        var options = options
        if let command = options.accessCommand {
            guard [.download, .update, .resume].contains(options.action) else {
                throw UsageError("\(Options.name(\.accessCommand)) goes with download, update and resume only")
            }
            guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("\(Options.name(\.accessCommand)) needs a command")
            }
            options.configuration.accessProvider = CommandAccessProvider(command: command)
        }
        let folder = URL(fileURLWithPath: options.folder)
        let operand = options.operand
        let session = LibrarySession(
            console: context.console, json: options.format == .json, configuration: options.configuration, wait: options.wait)
        let (latest, all) = (Options.name(\.latest), Options.name(\.all))
        if options.background, options.action != .download {
            throw UsageError("\(Options.name(\.background)) goes with download only")
        }
        switch options.action {
        case .refresh:
            guard let operand else { throw UsageError("refresh needs one <catalog-url>") }
            guard let url = URL(string: operand), url.scheme != nil else {
                throw UsageError(
                    "'\(operand)' is not a URL: refresh reads the catalog as readers get it, at its published URL (BaseURL + issues.plist, such as http://localhost:8080/aurora/issues.plist); publish the built folder with 'newsstand publish' first"
                )
            }
            return try session.refresh(folder: folder, url: url, scale: options.retina ? .retina : .normal)
        case .list:
            guard operand == nil else { throw UsageError("list takes no operands") }
            return try session.list(folder: folder)
        case .download:
            let selection: LibrarySession.Selection
            switch (operand, options.latest, options.all) {
            case (let name?, false, false): selection = .named(name)
            case (nil, true, false): selection = .latest
            case (nil, false, true): selection = .all
            default: throw UsageError("download needs exactly one of <name>, \(latest) or \(all)")
            }
            return try options.background
                ? session.downloadInBackground(folder: folder, selection) : session.download(folder: folder, selection)
        case .update:
            switch (operand, options.latest, options.all) {
            case (let name?, false, false): return try session.update(folder: folder, names: [name])
            case (nil, false, true): return try session.update(folder: folder, names: nil)
            default: throw UsageError("update needs exactly one of <name> or \(all)")
            }
        case .resume:
            guard operand == nil else { throw UsageError("resume takes no operands") }
            return try session.download(folder: folder, .pending)
        case .remove:
            guard let operand else { throw UsageError("remove needs one <name>") }
            return try session.remove(folder: folder, name: operand)
        case .cover:
            guard let operand else { throw UsageError("cover needs one <name>") }
            return try session.cover(folder: folder, name: operand)
        case .cancel:
            guard let operand else { throw UsageError("cancel needs one <name>") }
            return try session.cancel(folder: folder, name: operand)
        }
    }
}
