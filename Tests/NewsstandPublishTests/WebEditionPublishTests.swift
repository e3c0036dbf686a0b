import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPreview
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// Issue 36, item 7: `newsstand preview`'s output (the web edition) published like a build, to
/// a folder nginx serves and through nginx's WebDAV: every file first, its index page switched
/// in last; a publish failing at any step leaves the old index page served with every file it
/// shows, and running it again finishes. What is served is fetched over HTTP by Python.
@Suite(.timeLimit(.minutes(10)), .tags(.needsServer)) struct WebEditionPublishTests {
    enum Target: String, CaseIterable, CustomTestStringConvertible {
        case folder, webDAV
        var testDescription: String { rawValue }
    }

    /// A fixture magazine whose PreviewURL is nginx's `/web/`, previewed into a folder of its own.
    final class Site {
        let nginx: Nginx
        let fixture: MagazineFixture
        let web: URL
        var previewURL: URL { URL(string: nginx.baseURL.absoluteString + "web/")! }

        init() throws {
            nginx = try Nginx()
            fixture = try MagazineFixture(issues: ["f-1", "f-2"])
            try fixture.write(
                "magazine.plist",
                MagazineFixture.plist(
                    """
                    <dict>
                        <key>Title</key>
                        <string>Fixture</string>
                        <key>BaseURL</key>
                        <string>\(nginx.baseURL.absoluteString)</string>
                        <key>PreviewURL</key>
                        <string>\(nginx.baseURL.absoluteString)web/</string>
                    </dict>
                    """))
            web = try Shell.temporaryFolder("web-edition").appendingPathComponent("site")
            try preview()
        }

        func stop() { nginx.stop() }

        func preview() throws {
            let (magazine, plans) = try fixture.plans()
            let templates = Shell.repositoryRoot.appendingPathComponent("templates/preview")
            _ = try PreviewWriter(magazine: magazine, output: web, templates: templates).write(plans)
        }

        /// Version 2: f-1's title (its page and the index page change in place), f-2's first
        /// image (same name, new bytes) and a new issue, f-3 (new files).
        func change() throws {
            let plist = try String(contentsOf: fixture.url("issues/f-1/issue.plist"), encoding: .utf8)
            try fixture.write("issues/f-1/issue.plist", plist.replacingOccurrences(of: "Issue f-1", with: "Issue f-1, revised"))
            try fixture.image("f-2", "1-0.png", width: 12, height: 20)
            try fixture.addIssue("f-3", day: 3)
            try preview()
        }

        func destination(_ target: Target) -> any PublishDestination {
            switch target {
            case .folder: LocalFolderDestination(root: nginx.root.appendingPathComponent("web"))
            case .webDAV:
                WebDAVDestination(
                    root: nginx.baseURL.appendingPathComponent("dav/web/"), credentials: nil,
                    timeouts: PublishTimeouts(connect: 10, stall: 10, request: 30))
            }
        }

        /// The web edition's files (hidden ones aside) and their SHA-256, as the folder holds them now.
        func version() throws -> [String: String] {
            let plan = try PublishPlan.make(builtFolder: web, remote: nil, servedCatalog: false, servedIndexPage: false)
            #expect(plan.isWebEdition)
            return Dictionary(uniqueKeysWithValues: plan.files.map { ($0.path, $0.sha256) })
        }

        /// What `previewURL` serves for each of `paths`: its SHA-256, or `HTTP <status>`.
        func served(_ paths: [String]) throws -> [String: String] {
            let result = try Shell.python(
                """
                import sys, hashlib, urllib.request, urllib.error
                base = sys.argv[1]
                for path in sys.argv[2:]:
                    try:
                        with urllib.request.urlopen(base + path) as answer:
                            print(path, hashlib.sha256(answer.read()).hexdigest())
                    except urllib.error.HTTPError as error:
                        print(path, 'HTTP', error.code)
                """, [previewURL.absoluteString] + paths)
            #expect(result.status == 0, "\(result.stderr)")
            var found: [String: String] = [:]
            for line in result.stdout.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                if parts.count == 2 { found[parts[0]] = parts[1] }
            }
            return found
        }
    }

    private func publish(_ site: Site, to destination: any PublishDestination, prune: Bool = false) async throws(PublishError)
        -> PublishReport
    {
        let publisher = Publisher(destination: destination, prune: prune)
        return try await publisher.run(try await publisher.plan(builtFolder: site.web))
    }

    @Test(arguments: Target.allCases) func theWebEditionIsPublishedServedAndItsIndexPageGoesLast(target: Target) async throws {
        let site = try Site()
        defer { site.stop() }
        let v1 = try site.version()
        #expect(v1.keys.contains("index.html") && v1.keys.contains("f-1/index.html") && v1.keys.contains("preview.css"))
        #expect(!v1.keys.contains { $0.hasPrefix(".") || $0.contains("/.") }, "the record stays out")

        let first = FaultyDestination(wrapped: site.destination(target), failAt: nil)
        let report = try await publish(site, to: first)
        #expect(report.replacedCatalogs == ["index.html"])
        #expect(Set(report.uploaded) == Set(v1.keys).subtracting(["index.html"]))
        #expect(try site.served(v1.keys.sorted()) == v1)
        let writes = first.operations.filter { !$0.hasPrefix("read ") && !$0.hasPrefix("stat ") }
        let switched = try #require(writes.lastIndex { $0.hasPrefix("move ") && $0.hasSuffix(" index.html") })
        #expect(
            writes[..<switched].filter { $0.hasPrefix("upload ") && !$0.contains(".newsstand-publish") }.count == v1.count,
            "every file, the index page staged, before the index page is switched in: \(writes)")

        // Version 2: the changed page and image replace the served ones with the index page, last.
        try site.change()
        let v2 = try site.version()
        let second = FaultyDestination(wrapped: site.destination(target), failAt: nil)
        let again = try await publish(site, to: second, prune: true)
        #expect(again.uploaded.allSatisfy { $0.hasPrefix("f-3/") } && !again.uploaded.isEmpty)
        #expect(Set(again.swapped) == ["f-1/index.html", "f-2/1-0.png", "f-2/1-0@2x.png"])
        #expect(again.replacedCatalogs == ["index.html"])
        #expect(try site.served(v2.keys.sorted()) == v2)
        let moves = second.operations.filter { $0.hasPrefix("move ") && !$0.contains(".newsstand-publish") }
        #expect(moves.last?.hasSuffix(" index.html") == true && moves.last?.contains("f-") == false, "\(moves)")
    }

    /// A publish of version 2 failing at each of its steps in turn: the index page served is
    /// version 1's or 2's, with every file of that version served as it was written; a rerun
    /// serves version 2.
    @Test(arguments: Target.allCases) func aFailurePartWayLeavesTheOldIndexPageServed(target: Target) async throws {
        let site = try Site()
        defer { site.stop() }
        let v1 = try site.version()
        _ = try await publish(site, to: site.destination(target))
        let snapshot = try Shell.temporaryFolder("web-v1").appendingPathComponent("root")
        try FileManager.default.copyItem(at: site.nginx.root, to: snapshot)
        try site.change()
        let v2 = try site.version()

        let clean = FaultyDestination(wrapped: site.destination(target), failAt: nil)
        _ = try await publish(site, to: clean, prune: true)
        let steps = clean.operations
        #expect(steps.count > 10, "\(steps)")
        var sawOld = false
        for step in 1...steps.count {
            try restore(snapshot, into: site.nginx.root)
            let faulty = FaultyDestination(wrapped: site.destination(target), failAt: step)
            do throws(PublishError) {
                let report = try await publish(site, to: faulty, prune: true)
                // Only the clean-up of a copy kept aside may fail without failing the publish.
                #expect(
                    steps[step - 1].hasPrefix("delete") && report.leftovers.count == 1,
                    "\(steps[step - 1]) failed and the publish went on")
                for leftover in report.leftovers {
                    try? FileManager.default.removeItem(at: site.nginx.root.appendingPathComponent("web/\(leftover)"))
                }
            } catch {
                #expect(error.step == "injected" && error.note != nil, "\(steps[step - 1]): \(error)")
            }
            let index = try site.served(["index.html"])["index.html"]
            let version = index == v1["index.html"] ? v1 : v2
            #expect(index == version["index.html"], "after failing at \(steps[step - 1])")
            #expect(try site.served(version.keys.sorted()) == version, "after failing at \(steps[step - 1])")
            sawOld = sawOld || version == v1
            _ = try await publish(site, to: site.destination(target), prune: true)
            #expect(try site.served(v2.keys.sorted()) == v2, "rerun after failing at \(steps[step - 1])")
        }
        #expect(sawOld)
    }

    /// A web edition published where a magazine is (or a magazine where a web edition is) is
    /// refused before anything is sent: each would take the other's files for stale.
    @Test func aWebEditionAndAMagazineNeverShareADestination() async throws {
        let site = try Site()
        defer { site.stop() }
        let built = try Shell.temporaryFolder("built")
        let (magazine, plans) = try site.fixture.plans()
        _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: built, jobs: 1)).build(plans)
        let root = LocalFolderDestination(root: site.nginx.root)
        let publisher = Publisher(destination: root, prune: true)
        _ = try await publisher.run(try await publisher.plan(builtFolder: built))
        let before = try FileManager.default.contentsOfDirectory(atPath: site.nginx.root.path).sorted()
        await #expect {
            _ = try await publisher.plan(builtFolder: site.web)
        } throws: { error in
            guard let error = error as? PublishError, case .otherPublishThere = error.reason else { return false }
            return error.description.contains("it holds a magazine published by newsstand")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.nginx.root.path).sorted() == before)

        let web = LocalFolderDestination(root: site.nginx.root.appendingPathComponent("web"))
        _ = try await Publisher(destination: web, prune: true).run(
            try await Publisher(destination: web, prune: true).plan(builtFolder: site.web))
        await #expect(throws: PublishError.self) {
            _ = try await Publisher(destination: web, prune: true).plan(builtFolder: built)
        }
    }

    private func restore(_ snapshot: URL, into root: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            try FileManager.default.removeItem(at: root.appendingPathComponent(name))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: snapshot.path) {
            try FileManager.default.copyItem(at: snapshot.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
    }
}
