import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// Issue 24, items 1 and 2 against a real nginx with `secure_link`, configured as docs/publishing.md's
/// "Hosting paid issues" says: a paid issue's content is built and published under
/// `paid/<name>/` and served only with a valid, unexpired signature; `newsstand sign` and the
/// tests' entitlement service make links nginx accepts; `publish --verify` signs its own
/// requests with `--secret-file` and fails clearly without it; covers and catalogs stay
/// public; the secret never appears in any output or request.
@Suite(.serialized, .timeLimit(.minutes(3)), .tags(.needsServer)) struct PaidIssueTests {
    static let secret = "dGhlLWhvc3RzLXNlY3VyZS1saW5rLXNlY3JldC0x"

    /// The sample magazine with a-3 paid (its ProductID given), built with `feeds` (`--feed
    /// shelf`), and an nginx that protects `/paid/` with `secret` (none: an unprotected host).
    struct PaidSite {
        let nginx: Nginx
        let magazine: URL
        let output: URL
        let secretFile: URL
        let feeds: [String]
        var base: String { nginx.baseURL.absoluteString }
        var dav: String { base + "dav/" }
        var htdocs: URL { nginx.root }

        init(hostSecret: String? = PaidIssueTests.secret, feeds: [String] = ["shelf"]) async throws {
            self.feeds = feeds
            nginx = try Nginx(secureLinkSecret: hostSecret)
            let work = try Shell.temporaryFolder("paid")
            magazine = try nginx.sampleMagazine(in: work)
            output = work.appendingPathComponent("out")
            secretFile = work.appendingPathComponent("secure-link.secret")
            try Data((PaidIssueTests.secret + "\n").utf8).write(to: secretFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secretFile.path)
            try setAccess("paid", of: "a-3")
            try await build()
        }

        /// Gives `issue` an Access (and a ProductID when paid), or takes both away (nil).
        func setAccess(_ access: String?, of issue: String) throws {
            let file = magazine.appendingPathComponent("issues/\(issue)/issue.plist")
            var text = try String(contentsOf: file, encoding: .utf8)
            if let range = text.range(of: "    <key>Access</key>") {
                text = String(text[..<range.lowerBound]) + "</dict>\n</plist>\n"
            }
            if let access {
                text = text.replacingOccurrences(
                    of: "</dict>",
                    with:
                        "    <key>Access</key>\n    <string>\(access)</string>\n    <key>ProductID</key>\n    <string>com.example.aurora.\(issue)</string>\n</dict>"
                )
            }
            try text.write(to: file, atomically: true, encoding: .utf8)
        }

        func build() async throws {
            let result = await InProcess.newsstand(
                ["build", magazine.path, "--output", output.path] + feeds.flatMap { ["--feed", $0] })
            guard result.status == 0 else { throw TestFailure("build failed: \(result.stdout) \(result.stderr)") }
        }

        func publish(_ extra: [String] = [], to destination: String? = nil) async -> Shell.Result {
            await InProcess.newsstand(
                ["publish", output.path, "--to", destination ?? dav] + extra, environment: ["NETRC": "/nonexistent"])
        }

        /// The catalog's entries as Python's plistlib reads them: `[name: [key: value]]`.
        func catalog(_ file: URL) throws -> [String: [String: String]] {
            let result = try Shell.python(
                """
                import json, plistlib, sys
                print(json.dumps({e['Name']: {k: str(v) for k, v in e.items()} for e in plistlib.load(open(sys.argv[1], 'rb'))}))
                """, [file.path])
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: String]] ?? [:]
        }

        /// The status curl gets for `url` (HEAD with `head`), and the SHA-256 of the body.
        func fetch(_ url: String, head: Bool = false) throws -> (status: Int, sha256: String) {
            let body = try Shell.temporaryFolder("body").appendingPathComponent("body")
            let result = try Shell.run("curl", ["-s", "-o", body.path, "-w", "%{http_code}"] + (head ? ["-I"] : []) + [url])
            let data = (try? Data(contentsOf: body)) ?? Data()
            return (Int(result.stdout) ?? 0, SHA256.hex(of: data))
        }

        func sign(_ url: String, expires: String = "5m", secretFile: URL? = nil) async -> Shell.Result {
            await InProcess.newsstand(["sign", url, "--secret-file", (secretFile ?? self.secretFile).path, "--expires", expires])
        }
    }

    /// The paths the destination's state file records.
    static func publishedPaths(in site: PaidSite) throws -> Set<String> {
        let data = try Data(contentsOf: site.htdocs.appendingPathComponent(".newsstand-publish.json"))
        let state = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return Set(((state?["files"] as? [String: Any]) ?? [:]).keys).union(state?["retired"] as? [String] ?? [])
    }

    @Test func aPaidIssuesContentIsBuiltAndPublishedUnderPaidAndVerifiedSigned() async throws {
        let site = try await PaidSite()
        defer { site.nginx.stop() }
        // The output: a-3's bundles, indexes and book in paid/a-3/, its covers and records in a-3/.
        let paid = try FileManager.default.contentsOfDirectory(atPath: site.output.appendingPathComponent("paid/a-3").path)
            .sorted()
        #expect(
            paid.filter { !$0.hasPrefix(".") }.map {
                $0.replacingOccurrences(of: #"\.[0-9a-f]{8}"#, with: "", options: .regularExpression)
            }.sorted() == [
                "a-3.hpub", "a-3.index.json", "a-3.index@2x.json", "a-3.zip", "a-3@2x.zip",
            ])
        let own = try FileManager.default.contentsOfDirectory(atPath: site.output.appendingPathComponent("a-3").path).sorted()
        #expect(
            own.map { $0.replacingOccurrences(of: #"\.[0-9a-f]{8}"#, with: "", options: .regularExpression) } == [
                ".newsstand", "cover.png", "cover@2x.png",
            ])
        let entries = try site.catalog(site.output.appendingPathComponent("issues.plist"))
        let a3 = try #require(entries["a-3"])
        #expect(a3["Access"] == "paid" && a3["ProductID"] == "com.example.aurora.a-3")
        #expect(a3["Content"]?.hasPrefix(site.base + "paid/a-3/a-3.") == true)
        #expect(a3["ContentIndex"]?.hasPrefix(site.base + "paid/a-3/a-3.") == true)
        #expect(a3["Cover"]?.hasPrefix(site.base + "a-3/cover.") == true)
        #expect(entries["a-2"]?["Access"] == nil && entries["a-2"]?["Content"]?.hasPrefix(site.base + "a-2/a-2.") == true)
        let shelf =
            try JSONSerialization.jsonObject(with: Data(contentsOf: site.output.appendingPathComponent("shelf.json")))
            as? [[String: String]]
        let book = try #require(shelf?.first { $0["name"] == "a-3" })
        #expect(book["url"]?.hasPrefix(site.base + "paid/a-3/a-3.") == true && book["url"]?.hasSuffix(".hpub") == true)
        #expect(book["product_id"] == "com.example.aurora.a-3")

        let result = await site.publish(["--secret-file", site.secretFile.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("verified: the catalog parses")
                && result.stdout.contains("(paid issues' content signed, and refused unsigned)"))
        // At the destination the same layout, and the state file records it (what --prune acts on).
        for file in paid where !file.hasPrefix(".") {
            #expect(FileManager.default.fileExists(atPath: site.htdocs.appendingPathComponent("paid/a-3/\(file)").path))
        }
        let state = try Self.publishedPaths(in: site)
        #expect(paid.filter { !$0.hasPrefix(".") }.allSatisfy { state.contains("paid/a-3/\($0)") })
        #expect(!state.contains { $0.hasPrefix("a-3/a-3.") })
        // Publishing again changes nothing.
        let again = await site.publish(["--secret-file", site.secretFile.path])
        #expect(
            again.status == 0 && again.stdout.contains("published: 0 uploaded, 0 catalog(s) replaced, 0 deleted"),
            "\(again.stdout)")
    }

    @Test func nginxServesAPaidBundleOnlyWithAValidUnexpiredSignature() async throws {
        let site = try await PaidSite()
        defer { site.nginx.stop() }
        #expect(await site.publish(["--secret-file", site.secretFile.path]).status == 0)
        let entries = try site.catalog(site.output.appendingPathComponent("issues.plist"))
        let a3 = try #require(entries["a-3"])
        let bundle = try #require(a3["Content"])
        let retina = RetinaName.of(bundle)
        let index = try #require(a3["ContentIndex"])

        #expect(try site.fetch(bundle).status == 403, "no signature")
        #expect(try site.fetch(bundle, head: true).status == 403)
        let signed = await site.sign(bundle)
        #expect(signed.status == 0 && signed.stderr.isEmpty)
        let link = signed.stdout.trimmingCharacters(in: .newlines)
        #expect(link.hasPrefix(bundle + "?md5=") && link.contains("&expires="))
        let served = try site.fetch(link)
        #expect(served.status == 200 && served.sha256 == a3["ContentSHA256"], "what nginx serves is the catalog's bundle")
        #expect(try site.fetch(link, head: true).status == 200)
        #expect(try site.fetch(await site.sign(index).stdout.trimmingCharacters(in: .newlines)).status == 200)

        let secret = try SigningSecret(Self.secret)
        let now = Int64(Date().timeIntervalSince1970)
        #expect(try site.fetch(SignedURL.sign(bundle, expires: now - 60, secret: secret)).status == 403, "expired")
        #expect(try site.fetch(SignedURL.sign(bundle, expires: now + 300, secret: secret)).status == 200)
        // Forged: a changed signature, another secret, a later time with the old signature,
        // another file's signature.
        let md5 = try #require(link.range(of: "md5=")).upperBound
        let flipped = link.replacingCharacters(in: md5..<link.index(after: md5), with: link[md5] == "A" ? "B" : "A")
        let other = try SigningSecret(String(Self.secret.reversed()))
        let later = link.replacingOccurrences(of: #"expires=\d+"#, with: "expires=\(now + 7_200)", options: .regularExpression)
        let moved = retina + link.dropFirst(bundle.count)
        for forged in [flipped, try SignedURL.sign(bundle, expires: now + 300, secret: other), later, moved] {
            #expect(try site.fetch(forged).status == 403, "\(forged)")
        }
        // Covers, catalogs and free issues stay public.
        for url in [
            try #require(a3["Cover"]), RetinaName.of(try #require(a3["Cover"])), site.base + "issues.plist",
            site.base + "shelf.json",
        ]
            + [try #require(entries["a-2"]?["Content"])]
        {
            #expect(try site.fetch(url).status == 200, "\(url)")
        }
    }

    @Test func verifyFailsClearlyWithoutTheSecretWithAnotherOneOrOnAHostThatDoesNotProtectPaid() async throws {
        let site = try await PaidSite()
        defer { site.nginx.stop() }
        let without = await site.publish()
        #expect(without.status == 1)
        #expect(
            without.stderr
                == "newsstand publish: verify: 'a-3' is a paid issue: its content (bundles, indexes, EPUB) is served only with a signature, so it is not verified; give the host's signing secret with --secret-file\n",
            "\(without.stderr)")
        let wrongFile = site.secretFile.deletingLastPathComponent().appendingPathComponent("other.secret")
        try Data(String(Self.secret.reversed()).utf8).write(to: wrongFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: wrongFile.path)
        let wrong = await site.publish(["--secret-file", wrongFile.path])
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr.contains("paid/a-3/a-3.")
                && wrong.stderr.contains(": HTTP 403 to the signed URL: the host's secure_link_md5 holds another secret"))
        #expect(!wrong.stderr.contains("md5="), "a signed URL is a key while it lasts: never printed")

        let open = try await PaidSite(hostSecret: nil)
        defer { open.nginx.stop() }
        let given = await open.publish(["--secret-file", open.secretFile.path])
        #expect(given.status == 1)
        #expect(
            given.stderr.contains(": answers 200 without a signature: the host gives this paid issue to anyone; protect paid/"))
        #expect(given.stderr.split(separator: "\n").count == 2, "both sizes of a-3's bundle, nothing else: \(given.stderr)")
    }

    @Test func anIssueThatBecomesFreeLeavesPaidAndPruneDeletesItsPaidFiles() async throws {
        let site = try await PaidSite()
        defer { site.nginx.stop() }
        #expect(await site.publish(["--secret-file", site.secretFile.path]).status == 0)
        let paidBundle = try #require(site.catalog(site.output.appendingPathComponent("issues.plist"))["a-3"]?["Content"])
        // A file of the publisher's own in the output's paid/a-3 stays, as anything a build did not write.
        try Data("notes".utf8).write(to: site.output.appendingPathComponent("paid/a-3/notes.txt"))
        try site.setAccess(nil, of: "a-3")
        try await site.build()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: site.output.appendingPathComponent("paid/a-3").path) == [
                "notes.txt"
            ])
        try FileManager.default.removeItem(at: site.output.appendingPathComponent("paid/a-3/notes.txt"))
        try site.setAccess("paid", of: "a-3")
        try await site.build()
        try site.setAccess(nil, of: "a-3")
        try await site.build()
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("paid").path), "an emptied paid/ goes")

        let result = await site.publish(["--prune"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("5 deleted"), "a-3's two bundles, two indexes and book under paid/: \(result.stdout)")
        #expect(
            !FileManager.default.fileExists(
                atPath: site.htdocs.appendingPathComponent(paidBundle.replacingOccurrences(of: site.base, with: "")).path))
        let free = try #require(site.catalog(site.output.appendingPathComponent("issues.plist"))["a-3"])
        #expect(free["Access"] == nil && free["Content"]?.hasPrefix(site.base + "a-3/") == true)
        #expect(try site.fetch(try #require(free["Content"])).status == 200)
        #expect(try !Self.publishedPaths(in: site).contains { $0.hasPrefix("paid/") })
    }

    /// A recording proxy between publish and nginx, for the catalog's URLs too (the magazine's
    /// BaseURL is the proxy): the secret is in no request, no header and no output, while
    /// paid requests carry their signature and one unsigned check each.
    @Test func theSecretNeverShowsAndTravelsNowhere() async throws {
        let site = try await PaidSite()
        defer { site.nginx.stop() }
        let recorder = try RecordingProxy(upstream: site.nginx.port)
        defer { recorder.stop() }
        let proxied = "http://127.0.0.1:\(recorder.port)/"
        let settings = site.magazine.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8).replacingOccurrences(of: site.base, with: proxied)
            .write(to: settings, atomically: true, encoding: .utf8)
        try await site.build()
        try recorder.fail(requestNumber: nil)
        var outputs = [await site.publish(["--secret-file", site.secretFile.path], to: proxied + "dav/")]
        #expect(outputs[0].status == 0, "\(outputs[0].stdout)\(outputs[0].stderr)")
        let requests = recorder.requests()
        let paid = requests.filter { $0.path.contains("/paid/a-3/") && !$0.path.hasPrefix("/dav/") }
        // Signed: before the switch, each new paid file (HEAD: both bundles, both indexes, the
        // book); after it, as a reader would, both bundles (HEAD) and both indexes (GET).
        #expect(paid.filter { $0.path.contains("?md5=") && $0.method == "GET" }.count == 2)
        #expect(paid.filter { $0.path.contains("?md5=") }.count == 9, "\(paid.map(\.path))")
        #expect(paid.filter { !$0.path.contains("?") && $0.method == "HEAD" }.count == 2, "both bundles asked unsigned")
        for request in requests {
            #expect(!request.path.contains(Self.secret))
            for header in request.headers { #expect(!header.value.contains(Self.secret), "\(header.name)") }
        }
        // Commands that fail on a secret do not quote it.
        let exposed = site.secretFile.deletingLastPathComponent().appendingPathComponent("exposed.secret")
        try Data((Self.secret + "\n").utf8).write(to: exposed)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: exposed.path)
        try recorder.fail(requestNumber: nil)
        outputs.append(await site.publish(["--secret-file", exposed.path], to: proxied + "dav/"))
        #expect(outputs[1].status == 1 && outputs[1].stderr.contains("may be read or written by other users (mode 644)"))
        #expect(recorder.requests().isEmpty, "refused before anything was sent")
        let badCharacter = site.secretFile.deletingLastPathComponent().appendingPathComponent("bad.secret")
        try Data((Self.secret + "$x\n").utf8).write(to: badCharacter)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: badCharacter.path)
        outputs.append(await site.sign(proxied + "paid/a-3/x.zip", secretFile: badCharacter))
        #expect(outputs[2].status == 1 && outputs[2].stderr.contains("character 41 is not a letter"))
        outputs.append(await site.sign(proxied + "paid/a-3/x.zip"))
        #expect(outputs[3].status == 0)
        outputs.append(await InProcess.newsstand(["sign", "--help"]))
        for output in outputs {
            #expect(!(output.stdout + output.stderr).contains(Self.secret))
            #expect(!(output.stdout + output.stderr).contains(String(Self.secret.prefix(12))))
        }
    }

    /// The tests' entitlement service (the reader side will use it): it checks the token and
    /// answers a link nginx accepts, signed by its own implementation of the formula, which
    /// agrees with `SignedURL`'s.
    @Test func theEntitlementServiceChecksTheTokenAndAnswersALinkNginxAccepts() async throws {
        let site = try await PaidSite()
        defer { site.nginx.stop() }
        #expect(await site.publish(["--secret-file", site.secretFile.path]).status == 0)
        let bundle = try #require(site.catalog(site.output.appendingPathComponent("issues.plist"))["a-3"]?["Content"])
        let service = try EntitlementService(
            secretFile: site.secretFile, paidBase: site.base + "paid/",
            tokens: ["reader-token-1": ["a-3"], "reader-token-2": ["a-9"]],
            lifetime: 120)
        #expect(try service.link(for: bundle, token: nil).status == 401)
        #expect(try service.link(for: bundle, token: "guessed").status == 401)
        #expect(try service.link(for: bundle, token: "reader-token-2").status == 403, "entitled to another issue")
        #expect(try service.link(for: site.base + "a-2/a-2.zip", token: "reader-token-1").status == 400, "not a paid file")
        let answer = try service.link(for: bundle, token: "reader-token-1")
        #expect(answer.status == 200)
        #expect(try site.fetch(answer.body).status == 200, "nginx accepts the service's link")
        let expires = try #require(answer.body.split(separator: "=").last.flatMap { Int64($0) })
        #expect(
            try SignedURL.sign(bundle, expires: expires, secret: SigningSecret(Self.secret)) == answer.body, "both formulas agree"
        )
        #expect((expires - Int64(Date().timeIntervalSince1970)) <= 120)
        let short = try service.link(for: bundle, token: "reader-token-1", lifetime: 1)
        let shortExpires = try #require(short.body.split(separator: "=").last.flatMap { Int64($0) })
        #expect(shortExpires - Int64(Date().timeIntervalSince1970) <= 1)
        let log = service.stopAndReadLog()
        #expect(
            log == ["401 - none", "401 - unknown", "403 a-3 token1", "400 - token0", "200 a-3 token0", "200 a-3 token0"], "\(log)"
        )
        #expect(!log.joined().contains("reader-token") && !log.joined().contains(Self.secret))
    }
}
