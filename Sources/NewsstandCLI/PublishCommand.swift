import Foundation
import NewsstandBuild

/// `newsstand publish`: puts a built magazine on static hosting, catalogs last.
enum PublishCommand: Command {
    static let name = "publish"
    static let summary = "upload a built magazine to a folder, WebDAV or rclone remote, catalogs last"
    static let help = """
        Usage: newsstand publish <built-folder> --to <destination> [--dry-run] [--prune] [--verify | --no-verify]

        Uploads what changed since the last publish: bundles and covers first, then each catalog
        (issues.plist, shelf.json, atom.xml) replaced atomically, so readers never see a catalog
        that points at missing files. A failure part-way leaves the previous catalog in place;
        run the command again to finish.

        Destinations:
          <folder>                  a local folder (a web server's document root, a mounted volume)
          http(s)://host/path/      a WebDAV / HTTP PUT endpoint; credentials from NEWSSTAND_USER and
                                    NEWSSTAND_PASSWORD or from ~/.netrc ($NETRC), never from the command line
          rclone:<remote>:<path>    any rclone remote (S3, GCS, Azure, SFTP, …); needs the rclone program

        Options:
          --to DEST      where to publish (required)
          --dry-run      print what would be uploaded, replaced and deleted; change nothing
          --prune        after the new catalogs are in place, delete files an earlier publish put
                         there that no current catalog refers to
          --verify       after publishing, check that every URL in the published catalog answers
                         200 with the expected size (default for http(s) destinations)
          --no-verify    skip that check
        """
    static let spec = OptionSpec(flags: ["--dry-run", "--prune", "--verify", "--no-verify"], values: ["--to"])

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard arguments.positionals.count == 1, let built = arguments.positionals.first else {
            throw UsageError("expected one <built-folder>")
        }
        guard let to = arguments.value("--to") else { throw UsageError("missing --to <destination>") }
        if arguments.has("--verify") && arguments.has("--no-verify") {
            throw UsageError("--verify and --no-verify contradict each other")
        }
        let destination = try Destinations.parse(to)
        let verify = arguments.has("--verify") || (!arguments.has("--no-verify") && destination is WebDAVDestination)
        let publisher = Publisher(destination: destination, prune: arguments.has("--prune"))
        let folder = URL(fileURLWithPath: built, isDirectory: true)
        let plan = try runBlocking { try await publisher.plan(builtFolder: folder) }

        if arguments.has("--dry-run") {
            for file in plan.uploads { console.out("would upload \(file.path) (\(ByteCount.format(file.size)))") }
            for file in plan.catalogs { console.out("would replace \(file.path)") }
            for path in plan.stale {
                console.out(arguments.has("--prune") ? "would delete \(path)" : "stale (kept without --prune): \(path)")
            }
            console.out(
                "dry run: \(plan.uploads.count) to upload, \(plan.catalogs.count) catalog(s) to replace, \(arguments.has("--prune") ? plan.stale.count : 0) to delete, \(plan.unchanged) unchanged"
            )
            return ExitStatus.success
        }

        console.out("publishing \(built) to \(destination.description)")
        let report = try runBlocking { try await publisher.run(plan) { step in console.out("  \(step)") } }
        console.out(
            "published: \(report.uploaded.count) uploaded, \(report.replacedCatalogs.count) catalog(s) replaced, \(report.deleted.count) deleted, \(report.unchanged) unchanged"
        )
        guard verify else { return ExitStatus.success }
        let problems = try runBlocking { await PublishVerifier(destination: destination).verify() }
        guard problems.isEmpty else {
            for problem in problems { console.err("newsstand publish: verify: \(problem)") }
            return ExitStatus.failure
        }
        console.out("verified: the catalog parses and every bundle and cover URL answers 200")
        return ExitStatus.success
    }
}
