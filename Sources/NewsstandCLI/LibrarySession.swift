import Foundation
import NewsstandAria2
import NewsstandCore
import NewsstandReader

/// The work behind `newsstand library`: opens the library, runs one action and prints it.
struct LibrarySession: Sendable {
    /// Which issues `download` fetches.
    enum Selection: Sendable {
        case named(String)
        case latest
        case all
        case pending
    }

    let console: Console
    let json: Bool
    let configuration: LibraryConfiguration
    /// How long a write waits while another process writes to the folder.
    let wait: TimeInterval

    /// Opens the library; every write waits up to `wait` seconds for another process's write.
    private func open(_ folder: URL, scale: LibraryScale = .normal) throws -> IssueLibrary {
        var configuration = configuration
        configuration.lockTimeout = wait
        let library: IssueLibrary
        do {
            library = try IssueLibrary(folder: folder, scale: scale, configuration: configuration)
        } catch {
            if case .libraryInUse = error { throw LibraryCLIError.inUse(folder.path, waited: wait) }
            throw error
        }
        try adoptBackgroundTransfers(of: library)
        return library
    }

    /// When downloads were handed to the background engine: attaches to it (starting its
    /// daemon again when it was killed with work left) and reconciles, installing what
    /// finished; says what it did on standard error. Nothing runs for a folder without any.
    private func adoptBackgroundTransfers(of library: IssueLibrary) throws {
        let console = console
        try runBlocking {
            guard await !library.backgroundTransfers.isEmpty else { return }
            let result = await library.useBackgroundEngine(.custom(Aria2Engine(in: library)))
            for name in result.installed { console.err("newsstand library: \(name): installed from the background download") }
            for name in result.received where !result.installed.contains(name) {
                let reason = await library.lastTransferError(of: name).map { PrintableText.escaped($0) } ?? "not installed"
                console.err("newsstand library: \(name): the background download arrived but failed: \(reason)")
            }
            for name in result.restarted { console.err("newsstand library: \(name): background download started again") }
            await library.stopBackgroundEngineIfIdle()
        }
    }

    /// Hands the chosen issues to the background engine and returns once each is saved as queued.
    func downloadInBackground(folder: URL, _ selection: Selection) throws -> Int32 {
        let library = try open(folder)
        let outcomes: [(String, Result<Void, LibraryError>)] = try runBlocking {
            await library.useBackgroundEngine(.custom(Aria2Engine(in: library)))
            let names: [String]
            switch selection {
            case .named(let name): names = [name]
            case .latest:
                guard let newest = await library.issues.first else { throw LibraryCLIError.emptyLibrary(folder.path) }
                names = [newest.name]
            case .all, .pending: names = await library.issues.filter { $0.status != .available || $0.hasUpdate }.map(\.name)
            }
            var outcomes: [(String, Result<Void, LibraryError>)] = []
            for name in names {
                do throws(LibraryError) {
                    try await library.startBackgroundDownload(name)
                    // The engine may refuse the job at once (no aria2c on the PATH, say).
                    let handed = await library.backgroundTransfers.contains { $0.name == name }
                    if !handed, await library.issue(named: name)?.status != .available {
                        let reason =
                            await library.lastTransferError(of: name).map { PrintableText.escaped($0) }
                            ?? "the background engine did not take it"
                        throw LibraryError.downloadFailed(name: name, url: "-", reason: reason)
                    }
                    outcomes.append((name, .success(())))
                } catch {
                    outcomes.append((name, .failure(error)))
                }
            }
            await library.close()
            return outcomes
        }
        if json {
            printJSON(
                outcomes.map { name, result -> LibraryJSON.Outcome<LibraryJSON.Queued> in
                    switch result {
                    case .success: .success(LibraryJSON.Queued(name: name, status: "queued"))
                    case .failure(let error): .failure(LibraryJSON.Failure(name: name, status: "none", error: error.description))
                    }
                })
        } else {
            for (name, result) in outcomes {
                switch result {
                case .success: console.out("\(name): handed to the background engine")
                case .failure(let error): console.err("newsstand library: error: \(describe(error))")
                }
            }
            if outcomes.isEmpty { console.out("nothing to download") }
        }
        return Self.exitStatus(of: outcomes)
    }

    /// A command over several issues fails when any of them failed.
    /// An error as this session prints it (`LibraryFormatting.describe`).
    func describe(_ error: LibraryError) -> String {
        LibraryFormatting.describe(error, hasAccessProvider: configuration.accessProvider != nil)
    }

    static func exitStatus<Success>(of outcomes: [(String, Result<Success, LibraryError>)]) -> Int32 {
        let failed = outcomes.contains { if case .failure = $0.1 { true } else { false } }
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// Stops an issue's background download.
    func cancel(folder: URL, name: String) throws -> Int32 {
        let library = try open(folder)
        let cancelled = try runBlocking { () throws(LibraryError) -> Bool in
            guard await library.issue(named: name) != nil else { throw .unknownIssue(name: name) }
            guard await library.backgroundTransfers.contains(where: { $0.name == name }) else { return false }
            await library.cancelBackgroundDownload(name)
            await library.close()
            return true
        }
        if json {
            printJSON(LibraryJSON.Removed(name: name, status: cancelled ? "cancelled" : "none"))
        } else {
            console.out(cancelled ? "\(name): background download cancelled" : "\(name): no background download to cancel")
        }
        return ExitStatus.success
    }

    func refresh(folder: URL, url: URL, scale: LibraryScale) throws -> Int32 {
        let library = try open(folder, scale: scale)
        if library.scale != scale, scale == .retina {
            console.err(
                "newsstand library: warning: the library in '\(folder.path)' was created for normal screens; --retina ignored")
        }
        let result = try runBlocking { try await library.refresh(from: url) }
        if json {
            printJSON(LibraryJSON.Refresh(result))
        } else if result.notModified {
            console.out("catalog not modified")
        } else {
            console.out(
                "\(result.added.count) added, \(result.updated.count) updated, \(result.contentUpdates.count) with new content, \(result.removed.count) removed"
            )
            for problem in result.problems { console.err("newsstand library: warning: \(LibraryFormatting.describe(problem))") }
        }
        return ExitStatus.success
    }

    func list(folder: URL) throws -> Int32 {
        let library = try open(folder)
        let (issues, transfers) = try runBlocking { (await library.issues, await library.backgroundTransfers) }
        let byName = Dictionary(transfers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        if json {
            printJSON(issues.map { LibraryJSON.Issue($0, background: byName[$0.name]) })
        } else {
            for issue in issues {
                console.out(LibraryFormatting.line(issue, scale: library.scale, background: byName[issue.name]))
            }
        }
        return ExitStatus.success
    }

    func download(folder: URL, _ selection: Selection) throws -> Int32 {
        let library = try open(folder)
        let console = console
        let showsProgress = console.errorIsTerminal && !json
        let outcomes: [(String, Result<Issue, LibraryError>)] = try runBlocking {
            let names: [String]
            switch selection {
            case .named(let name): names = [name]
            case .latest:
                guard let newest = await library.issues.first else { throw LibraryCLIError.emptyLibrary(folder.path) }
                names = [newest.name]
            case .all: names = await library.issues.filter { $0.status != .available || $0.hasUpdate }.map(\.name)
            case .pending: names = await library.resumePendingDownloads()
            }
            var outcomes: [(String, Result<Issue, LibraryError>)] = []
            for name in names {
                do throws(LibraryError) {
                    let issue = try await library.download(name) { progress in
                        if showsProgress { console.errRaw("\r" + LibraryFormatting.progressBar(name: name, progress)) }
                    }
                    outcomes.append((name, .success(issue)))
                } catch {
                    outcomes.append((name, .failure(error)))
                }
                if showsProgress { console.errRaw("\r\u{1B}[K") }
            }
            return outcomes
        }
        if json {
            printJSON(
                outcomes.map { name, result -> LibraryJSON.Outcome<LibraryJSON.Issue> in
                    switch result {
                    case .success(let issue): .success(LibraryJSON.Issue(issue))
                    case .failure(let error): .failure(LibraryJSON.Failure(name: name, status: "none", error: error.description))
                    }
                })
        } else {
            for (name, result) in outcomes {
                switch result {
                case .success(let issue): console.out("\(name): available in \(issue.contentURL.path)")
                case .failure(let error): console.err("newsstand library: error: \(describe(error))")
                }
            }
            if outcomes.isEmpty { console.out("nothing to download") }
        }
        return Self.exitStatus(of: outcomes)
    }

    /// Updates the named issues (nil: every issue with an update), one after the other.
    func update(folder: URL, names: [String]?) throws -> Int32 {
        let library = try open(folder)
        let outcomes: [(String, Result<UpdateResult, LibraryError>)] = try runBlocking {
            let chosen: [String]
            if let names { chosen = names } else { chosen = await library.issues.filter { $0.hasUpdate }.map(\.name) }
            var outcomes: [(String, Result<UpdateResult, LibraryError>)] = []
            for name in chosen {
                do throws(LibraryError) {
                    outcomes.append((name, .success(try await library.update(name))))
                } catch {
                    outcomes.append((name, .failure(error)))
                }
            }
            return outcomes
        }
        if json {
            printJSON(
                outcomes.map { name, result -> LibraryJSON.Outcome<LibraryJSON.Update> in
                    switch result {
                    case .success(let update): .success(LibraryJSON.Update(name: name, update))
                    case .failure(let error): .failure(LibraryJSON.Failure(name: name, error: error.description))
                    }
                })
        } else {
            for (name, result) in outcomes {
                switch result {
                case .success(let update): console.out("\(name): \(LibraryFormatting.describe(update))")
                case .failure(let error): console.err("newsstand library: error: \(describe(error))")
                }
            }
            if outcomes.isEmpty { console.out("nothing to update") }
        }
        return Self.exitStatus(of: outcomes)
    }

    func remove(folder: URL, name: String) throws -> Int32 {
        let library = try open(folder)
        try runBlocking { try await library.remove(name) }
        if json {
            printJSON(LibraryJSON.Removed(name: name, status: "none"))
        } else {
            console.out("\(name): removed")
        }
        return ExitStatus.success
    }

    /// Prints the path of an issue's cover, fetching it first when it is not cached or out of date.
    func cover(folder: URL, name: String) throws -> Int32 {
        let library = try open(folder)
        let file = try runBlocking { try await library.cover(of: name) }
        if json {
            printJSON(LibraryJSON.Cover(name: name, cover: file.path))
        } else {
            console.out(file.path)
        }
        return ExitStatus.success
    }

    private func printJSON(_ document: some Encodable) {
        JSONOutput.print(document, to: console, escapesSlashes: false)
    }
}

/// Failures of the command itself (not of the library).
enum LibraryCLIError: Error, CustomStringConvertible {
    case emptyLibrary(String)
    case inUse(String, waited: TimeInterval)

    var description: String {
        switch self {
        case .emptyLibrary(let path): "the library in '\(path)' has no issues: refresh it from a catalog first"
        case .inUse(let path, let waited):
            waited > 0
                ? "\(LibraryError.libraryInUse(path: path)) (waited \(Int(waited.rounded(.up))) s; \(LibraryCommand.Options.name(\.wait)) to wait longer)"
                : "\(LibraryError.libraryInUse(path: path))"
        }
    }
}
