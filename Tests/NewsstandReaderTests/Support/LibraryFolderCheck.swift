import Foundation
import NewsstandCore

@testable import NewsstandReader

/// What the two test beds (`Testbed` on nginx, `ScriptedBed` in memory) share about a library:
/// the configuration they open it with, and the checks of its folder that start no process.
enum LibraryFolderCheck {
    /// A library's configuration for tests on `transport`: fast retries, a short stall limit.
    static func configuration(transport: any HTTPTransport) -> LibraryConfiguration {
        var configuration = LibraryConfiguration()
        configuration.transport = transport
        configuration.retryDelay = 0.01
        configuration.stallTimeout = 10
        // A library closed a moment ago may still be locked for a few milliseconds: a process that
        // a parallel test spawns holds a copy of every descriptor until its exec closes them.
        configuration.lockTimeout = 5
        return configuration
    }

    /// No stray files: `Issues/` holds the `available` issues only, `Downloads/` only the partial
    /// files (and streaming stagings) of issues in `names`, `Covers/` only their covers, and the
    /// folder nothing else.
    static func strayFiles(in folder: URL, names: Set<String>, available: Set<String>) throws -> [String] {
        var problems: [String] = []
        let inIssues = Set(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Issues").path))
        if inIssues != available { problems.append("Issues/ holds \(inIssues.sorted()), expected \(available.sorted())") }
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Downloads").path) {
            let owner = file.replacingOccurrences(of: ".part.json", with: "").replacingOccurrences(of: ".part.stream", with: "")
                .replacingOccurrences(of: ".part", with: "")
                .replacingOccurrences(of: "@2x.zip", with: "").replacingOccurrences(of: ".zip", with: "")
            // A streamed download's staging (`StreamStaging`) is its partial file.
            if !names.contains(owner)
                || !(file.hasSuffix(".part") || file.hasSuffix(".part.json") || file.hasSuffix(".part.stream"))
            {
                problems.append("Downloads/\(file) is a stray file")
            }
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Covers").path) {
            let owner = (file as NSString).deletingPathExtension
            if !names.contains(owner) || file.hasPrefix(".") { problems.append("Covers/\(file) is a stray file") }
        }
        let expected: Set<String> = ["Covers", "Downloads", "Engines", "Issues", "library.lock", "library.sqlite"]
        let top = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
            .subtracting(["library.sqlite-wal", "library.sqlite-shm", "library.json.migrated"])
        if top != expected { problems.append("the library folder holds \(top.sorted())") }
        return problems
    }

    /// Waits until every claim `library` gave back is cleared in its state.
    static func waitForReleases(of library: IssueLibrary) async {
        let claims = await library.claims
        await BlockingWork.run { claims.waitForReleases() }
    }

    /// Of the ownership table's owners as `name|pid` lines, those whose process runs: a claim exists
    /// only while its work runs, so an idle library has none (its owner died, or gave it back).
    static func liveClaims(_ rows: [String]) -> [String] {
        rows.filter { line in line.split(separator: "|").last.flatMap { Int32($0) }.map { kill($0, 0) == 0 } ?? true }
    }
}
