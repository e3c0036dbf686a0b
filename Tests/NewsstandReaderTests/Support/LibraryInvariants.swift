import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport

/// What must hold of a library folder whatever happened to it (a crash at any moment, downloads
/// started, cancelled and removed from many tasks): checked with tools we did not write.
enum LibraryInvariants {
    /// Every violation found, as sentences; empty when the library is sound.
    /// - Parameters:
    ///   - allowsDownloading: whether an issue may still be downloading (after a crash it is
    ///     pending; after every task ended, none may be).
    static func violations(
        of library: IssueLibrary, in bed: Testbed, allowsDownloading: Bool
    ) async throws -> [String] {
        var problems: [String] = []
        let issues = await library.issues
        let names = Set(issues.map(\.name))
        // Every available issue holds exactly what its bundle on the server holds.
        var comparisons: [String: String] = [:]
        for issue in issues {
            switch issue.status {
            case .available:
                let bundle = bed.nginx.root.appendingPathComponent("\(issue.name)/\(issue.remoteContentURL.lastPathComponent)")
                comparisons[issue.contentURL.path] = bundle.path
                if let sha = issue.contentSHA256, try SHA256.hex(ofFileAt: bundle) != sha {
                    problems.append("\(issue.name): the served bundle no longer matches the catalog")
                }
            case .downloading where !allowsDownloading:
                problems.append("\(issue.name) is stuck downloading")
            default:
                break
            }
        }
        let compare = try Shell.python(
            """
            import hashlib, json, os, sys, zipfile
            problems = []
            for folder, bundle in json.loads(sys.argv[1]).items():
                with zipfile.ZipFile(bundle) as z:
                    names = set()
                    for info in z.infolist():
                        if info.is_dir():
                            continue
                        names.add(info.filename)
                        path = os.path.join(folder, info.filename)
                        if not os.path.isfile(path) or open(path, "rb").read() != z.read(info):
                            problems.append(folder + ": " + info.filename + " differs from the bundle")
                    for root, dirs, files in os.walk(folder):
                        for f in files:
                            rel = os.path.relpath(os.path.join(root, f), folder)
                            if rel == ".newsstand-index.json":
                                # The index the content was installed from (issue 14): it must be the bundle's.
                                if json.load(open(os.path.join(root, f)))["bundle"]["sha256"] != hashlib.sha256(open(bundle, "rb").read()).hexdigest():
                                    problems.append(folder + ": its index is not the bundle's")
                                continue
                            if rel not in names:
                                problems.append(folder + ": " + rel + " is not in the bundle")
            print("\\n".join(problems))
            """, [String(decoding: try JSONSerialization.data(withJSONObject: comparisons), as: UTF8.self)])
        problems += compare.stdout.split(separator: "\n").map(String.init)
        if compare.status != 0 { problems.append("comparison failed: \(compare.stderr)") }

        let folder = bed.libraryFolder
        let available = Set(issues.filter { $0.status == .available }.map(\.name))
        problems += try LibraryFolderCheck.strayFiles(in: folder, names: names, available: available)
        let database = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().appendingPathComponent("library.sqlite").path
        if !allowsDownloading {
            // A claim is given back on a thread of its own, a moment after the work that held it.
            await LibraryFolderCheck.waitForReleases(of: library)
            let rows = try Shell.run("sqlite3", [database, "SELECT name, pid FROM ownership WHERE token IS NOT NULL"]).stdout
                .split(separator: "\n")
            let live = LibraryFolderCheck.liveClaims(rows.map(String.init))
            if !live.isEmpty { problems.append("claims held while nothing runs: \(live)") }
        }

        // SQLite's own check of the database.
        let check = try Shell.run("sqlite3", [database, "PRAGMA integrity_check"])
        if check.stdout != "ok\n" { problems.append("integrity_check: \(check.stdout) \(check.stderr)") }
        return problems
    }
}
