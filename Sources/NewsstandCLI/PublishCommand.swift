import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandPublish

/// `newsstand publish`: puts a built magazine on static hosting, catalogs last.
enum PublishCommand: Command {
    struct Options: CommandOptions {
        var built = ""
        var destination = ""
        var isDryRun = false
        var prune = false
        /// Whether to verify; nil: only an http(s) destination is verified.
        var verify: Bool?
        var timeouts = PublishTimeouts()
        /// The host's signing secret, to verify paid issues' content.
        var secretFile: String?
        /// How long CDNs and readers may keep a catalog (`CacheRules.catalogMaxAge`).
        var catalogMaxAge = CacheRules.defaultCatalogMaxAge

        static var arguments: [Argument<Self>] {
            [
                .operand(
                    \.built, "built-folder", .folder,
                    help: "the output folder of 'newsstand build', or of 'newsstand preview' to publish the web edition"),
                .required(
                    \.destination, "--to", .text, placeholder: "DESTINATION",
                    help: "where to publish: a folder, http(s)://host/path/ (WebDAV) or rclone:<remote>:<path>"),
                .flag(\.isDryRun, "--dry-run", help: "print what would be uploaded, replaced and deleted; change nothing"),
                .flag(
                    \.prune, "--prune",
                    help:
                        "after the new catalogs are in place, delete files earlier publishes put there that no current catalog refers to"
                ),
                .flag(
                    \.verify, "--verify", setting: true,
                    help:
                        "after publishing, check that every URL in the published catalog answers 200 with the expected size (default for http(s) destinations)"
                ),
                .flag(\.verify, "--no-verify", setting: false, help: "skip that check"),
                .value(
                    \.secretFile, "--secret-file", .file,
                    help:
                        "the host's secure_link secret (a file other users cannot read): verify signs its requests for paid issues' content with it"
                ),
                .value(
                    \.catalogMaxAge, "--catalog-max-age", .wholeNumber(unit: "seconds", range: 0...86_400),
                    placeholder: "S",
                    help:
                        "seconds a CDN or reader may keep a catalog (issues.plist, feeds) before asking again: Cache-Control 'public, max-age=S', stored with each object on remotes that keep headers (S3, GCS, Azure); 0 gives 'no-cache' (default 60)"
                ),
                .value(
                    \.timeouts.connect, "--connect-timeout", seconds, placeholder: "S",
                    help: "seconds to connect to the server (default 30)"),
                .value(
                    \.timeouts.stall, "--stall-timeout", seconds, placeholder: "S",
                    help: "seconds a transfer may run under 1 KiB/s before it fails (default 60)"),
                .value(
                    \.timeouts.request, "--timeout", seconds, placeholder: "S",
                    help: "seconds for any request other than an upload to complete (default 120)"),
                .value(
                    \.timeouts.lock, "--lock-timeout", .wholeNumber(unit: "seconds", range: 300...604_800), placeholder: "S",
                    help:
                        "seconds after its last renewal that the lock object of another publish on an rclone remote is taken for a dead publish's (one killed part-way) and taken over; a running publish renews its own every minute (default 3600)"
                ),
            ]
        }

        /// Timeouts in whole seconds, a day at most.
        private static let seconds = ValueKind.wholeNumber(unit: "seconds", range: 1...86_400)

        func validate() throws(UsageError) {
            if Redacted.hasUserInformation(destination) {
                throw UsageError("\(Self.name(\.destination)): \(Destinations.credentialsInURLMessage)")
            }
        }
    }

    static let declaration = CommandDeclaration(
        name: "publish", summary: "upload a built magazine to a folder, WebDAV or rclone remote, catalogs last",
        arguments: Options.arguments,
        description: [
            "Uploads what changed since the last publish: new bundles and covers first (when it verifies, each is then asked for at its public URL, BaseURL + its name, and nothing is switched if one is not served there), then files that replace served ones and the catalogs (issues.plist, shelf.json, atom.xml, opds.json), switched in last with the old files kept aside. If any step fails, what readers are served stays consistent (the previous catalog and its files are put back); run the command again to finish.",
            "Paid issues (Access = paid) have their bundles, indexes, books and EPUBs under paid/<name>/, which the host must serve only with a signed URL (nginx's secure_link): verification signs its requests for them with --secret-file, checks that they are refused unsigned, and fails without the secret.",
            "The web edition (the output folder of 'newsstand preview') is published the same way to a destination of its own: its pages, images and static files first, its index page switched in last; when it verifies, each file is asked for at PreviewURL + its name before the switch and after it (a preview written without a PreviewURL is published unverified, or refused with --verify). A destination holding a magazine is refused for a web edition, and the reverse.",
            "Destinations: <folder>, a local folder (a web server's document root, a mounted volume); http(s)://host/path/, a WebDAV / HTTP PUT endpoint, with credentials never in the URL (refused: the command line is visible to others); rclone:<remote>:<path>, any rclone remote (S3, GCS, Azure, SFTP, ...), which needs the rclone program.",
            "Cache headers: every object uploaded to an rclone remote that keeps headers (S3 and compatibles, GCS, Azure) is stored with its Cache-Control and Content-Type (catalogs --catalog-max-age, content-named files a year and immutable, fixed names no-cache, paid files private) and paid/ and hidden files with the bucket-owner-full-control ACL; verification checks that they are served so (other hosts' configuration sets them: docs/reference/cache-headers.md). On a store that honours conditional writes (If-None-Match: *, as S3 does), a lock object keeps a second publish out; its holder renews it while it runs, and one not renewed for --lock-timeout seconds (a publish killed part-way) is taken over, with a write conditional on it being unchanged (If-Match), so that only one publish gets it.",
        ],
        exitStatuses: [(0, "published (and verified)"), (1, "failure"), (2, "usage error")],
        environment: [
            ("NEWSSTAND_USER", "the WebDAV user (with NEWSSTAND_PASSWORD)"),
            ("NEWSSTAND_PASSWORD", "the WebDAV password (never printed)"),
            ("NETRC", "a netrc file with the credentials, else ~/.netrc"),
        ])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let console = RedactingConsole(context.console)
        let built = options.built
        let timeouts = options.timeouts
        let rules = CacheRules(catalogMaxAge: options.catalogMaxAge)
        let destination = try Destinations.parse(
            options.destination, timeouts: timeouts, environment: context.environment, cacheRules: rules)
        // Read first: a secret that cannot be used stops the publish before anything changes.
        let secret = try options.secretFile.map { path throws(SigningError) in try SigningSecret.read(fromFile: path) }
        var verify = options.verify ?? (destination is WebDAVDestination)
        let publisher = Publisher(destination: destination, prune: options.prune)
        let folder = URL(fileURLWithPath: built, isDirectory: true)
        let plan = try runBlocking { try await publisher.plan(builtFolder: folder) }
        if plan.isWebEdition, plan.catalogURL == nil, verify {
            // Where the web edition is served is magazine.plist's PreviewURL, which it was written without.
            let reason = "the web edition was written without a PreviewURL in magazine.plist, so where it is served is not known"
            if options.verify == true {
                throw PublishError(
                    step: "plan", target: folder.appendingPathComponent(WebEditionRecord.path).path,
                    reason: .invalid("--verify: \(reason); set PreviewURL and run 'newsstand preview' again"))
            }
            console.out("not verified: \(reason)")
            verify = false
        }

        if options.isDryRun {
            for file in plan.uploads { console.out("would upload \(file.path) (\(ByteCount.format(file.size)))") }
            for file in plan.swaps {
                console.out("would replace in place \(file.path) (\(ByteCount.format(file.size))): staged, then swapped")
            }
            for file in plan.catalogs { console.out("would replace \(file.path)") }
            for path in plan.stale {
                console.out(options.prune ? "would delete \(path)" : "stale (kept without --prune): \(path)")
            }
            console.out(
                "dry run: \(plan.uploads.count) to upload, \(plan.swaps.count) to replace in place, \(plan.catalogs.count) catalog(s) to replace, \(options.prune ? plan.stale.count : 0) to delete, \(plan.unchanged) unchanged"
            )
            return ExitStatus.success
        }

        console.out("publishing \(built) to \(destination.description)")
        let verifier = PublishVerifier(destination: destination, timeouts: timeouts, secret: secret)
        // What a reader holding the catalog about to be replaced revalidates with.
        let index = plan.isWebEdition ? "index.html" : "issues.plist"
        let replaced = verify ? plan.catalogs.first { $0.path == index } : nil
        var previous: CatalogValidators?
        if replaced != nil, let url = plan.catalogURL { previous = try runBlocking { await verifier.validators(of: url) } }
        let beforeSwitch =
            verify ? plan.catalogURL.map { beforeSwitchCheck(plan, catalog: $0, verifier: verifier, console: console) } : nil
        let report = try runBlocking {
            try await publisher.run(plan, beforeSwitch: beforeSwitch) { step in console.out("  \(step)") }
        }
        let swapped = report.swapped.isEmpty ? "" : " \(report.swapped.count) replaced in place,"
        console.out(
            "published: \(report.uploaded.count) uploaded,\(swapped) \(report.replacedCatalogs.count) catalog(s) replaced, \(report.deleted.count) deleted, \(report.unchanged) unchanged"
        )
        for leftover in report.leftovers {
            console.err("newsstand publish: warning: could not delete the temporary copy \(leftover); delete it by hand")
        }
        guard verify else { return ExitStatus.success }
        var problems = try runBlocking { plan.isWebEdition ? await verifier.verifyWebEdition(plan) : await verifier.verify() }
        if let replaced, let previous, let url = plan.catalogURL {
            problems += try runBlocking { await verifier.verifyReplaced(url, previous: previous, sha256: replaced.sha256) }
        }
        // Stored with each object by publish on an rclone remote, so checked there. Elsewhere the
        // host's configuration sets them (docs/reference/cache-headers.md), which publish does not own.
        if destination is RcloneDestination, !plan.isWebEdition, let url = plan.catalogURL {
            problems += try runBlocking { await verifier.verifyHeaders(catalogURL: url, rules: rules) }
        }
        guard problems.isEmpty else {
            for problem in problems { console.err("newsstand publish: verify: \(problem)") }
            return ExitStatus.failure
        }
        if plan.isWebEdition {
            console.out(
                "verified: every page, image and file of the web edition answers 200 with its size"
                    + (previous != nil ? "; the replaced index page's validators get the new one (200, not 304)" : ""))
            return ExitStatus.success
        }
        console.out(
            "verified: the catalog parses and every bundle and cover URL answers 200, and every bundle index matches the catalog"
                + (secret != nil ? " (paid issues' content signed, and refused unsigned)" : "")
                + (previous != nil ? "; the replaced catalog's validators get the new one (200, not 304)" : ""))
        return ExitStatus.success
    }
}

extension PublishCommand {
    /// The check `publish` runs before the catalogs are switched in: the new files at their
    /// public URLs (`SwitchChecks`), with a line saying what is checked and what cannot be yet.
    static func beforeSwitchCheck(
        _ plan: PublishPlan, catalog: URL, verifier: PublishVerifier, console: RedactingConsole
    ) -> @Sendable () async -> PublishError? {
        let checks = plan.switchChecks(canSign: verifier.secret != nil)
        let base = catalog.deletingLastPathComponent()
        let destination = verifier.destination.description
        return {
            var line = "check before the switch: \(checks.probes.count) file(s) at \(base.absoluteString)"
            if checks.probes.count == 1, let probe = checks.probes.first, !probe.isNew { line += " (one already served)" }
            if !checks.replacedInPlace.isEmpty {
                line +=
                    "; not checkable before it: \(checks.replacedInPlace.count) file(s) replaced in place (--fixed-names), whose URLs serve the old bytes until the switch (verified after it)"
            }
            if checks.unsigned > 0 { line += "; \(checks.unsigned) paid file(s) not asked for without --secret-file" }
            console.out("  " + line)
            let problems = await verifier.check(checks, at: base)
            guard !problems.isEmpty else { return nil }
            let first = Array(problems.prefix(3))
            return PublishError(
                step: "check", target: "before the switch",
                reason: plan.isWebEdition
                    ? .notServedAtPreviewURL(
                        previewURL: base.absoluteString, destination: destination, problems: first, count: problems.count)
                    : .notServedAtBaseURL(
                        baseURL: base.absoluteString, destination: destination, problems: first, count: problems.count))
        }
    }
}

/// The console, with user information cut out of every URL in every line: whatever a message
/// quotes (a server's text, a catalog URL), no password reaches the terminal or a CI log.
struct RedactingConsole: Sendable {
    let console: Console
    init(_ console: Console) { self.console = console }
    func out(_ line: String) { console.out(Redacted.message(line)) }
    func err(_ line: String) { console.err(Redacted.message(line)) }
}
