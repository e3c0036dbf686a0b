import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// Item 6 of issue 9: names read from a build manifest or a publish state file, and links in
/// the built folder or the destination, never lead publish outside the built folder or the
/// destination. Each lie is an error naming the file and the entry, and every folder involved
/// (the built folder, the destination, a "victim" folder beside them) is listed with the SHA-256
/// of every file before and after: nothing changes.
@Suite struct PublishHostileInputTests {
    /// A built fixture, an empty destination and a victim folder with a file in it, side by side.
    struct Scene {
        let fixture: MagazineFixture
        let work: URL
        let built: URL
        let site: URL
        let victim: URL

        init(versioned: Bool = false) throws {
            fixture = try MagazineFixture(issues: ["f-1", "f-2"])
            work = try Shell.temporaryFolder("hostile")
            built = work.appendingPathComponent("built")
            site = work.appendingPathComponent("site")
            victim = work.appendingPathComponent("victim")
            for folder in [site, victim] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            try Data("precious".utf8).write(to: victim.appendingPathComponent("secret.txt"))
            try Data("{\"files\":{},\"retired\":[]}".utf8).write(to: victim.appendingPathComponent("system.json"))
            let (magazine, plans) = try fixture.plans()
            _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: built, jobs: 2, versioned: versioned))
                .build(plans)
        }

        /// Every file and link under the work folder, with the SHA-256 of files and the target of links.
        func listing() throws -> [String: String] {
            var result: [String: String] = [:]
            for path in try FileManager.default.subpathsOfDirectory(atPath: work.path).sorted() {
                let url = work.appendingPathComponent(path)
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                switch attributes[.type] as? FileAttributeType {
                case .typeSymbolicLink?:
                    result[path] = "-> " + (try FileManager.default.destinationOfSymbolicLink(atPath: url.path))
                case .typeRegular?: result[path] = try SHA256.hex(ofFileAt: url)
                default: result[path] = "folder"
                }
            }
            return result
        }

        /// Rewrites one output record's file name in an issue's build manifest.
        func lie(issue: String = "f-1", _ key: String, file: String) throws {
            let url = built.appendingPathComponent("\(issue)/.newsstand/manifest.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            if key == "name" {
                object["name"] = file
            } else {
                // A record the build did not write (the Baker book) is made from the bundle's.
                var record = try #require((object[key] ?? object["bundle"]) as? [String: Any])
                record["file"] = file
                object[key] = record
            }
            try JSONSerialization.data(withJSONObject: object).write(to: url)
        }

        func publish(prune: Bool = false) async throws(PublishError) -> PublishReport {
            try await Publisher.publish(built, to: LocalFolderDestination(root: site), prune: prune)
        }
    }

    @Test(arguments: [
        ("cover", "../../victim/secret.txt", SafeRelativePath.Problem.parent),
        ("bundle", "/tmp/victim/secret.txt", .absolute),
        ("retinaBundle", "..\\..\\victim\\secret.txt", .hidden),
        ("retinaBundle", "x\\..\\..\\secret.txt", .backslash),
        ("retinaCover", "http://evil.example/secret.txt", .colon),
        ("cover", ".htaccess", .hidden),
        ("bundle", "sub/f-1.zip", .separator),
        ("hpub", "../../victim/secret.txt", .parent),
    ])
    func aBuildManifestNamingAFileOutsideIsRefusedBeforeAnythingHappens(
        key: String, file: String, problem: SafeRelativePath.Problem
    ) async throws {
        let scene = try Scene()
        try scene.lie(key, file: file)
        let before = try scene.listing()
        let manifest = scene.built.appendingPathComponent("f-1/.newsstand/manifest.json").path
        await #expect(
            throws: PublishError(
                step: "plan", target: manifest, reason: .unsafeName(entry: "\(key).file", name: file, problem: problem),
                note: "Nothing was changed at \(scene.site.path).")
        ) { _ = try await scene.publish() }
        #expect(try scene.listing() == before)
    }

    @Test func aBuildManifestNamingAnotherIssueIsRefused() async throws {
        let scene = try Scene()
        try scene.lie("name", file: "../f-2")
        let before = try scene.listing()
        await #expect {
            _ = try await scene.publish()
        } throws: { error in
            (error as? PublishError)?.reason == .invalid("it names the issue '../f-2', not 'f-1'; build the issue again")
        }
        #expect(try scene.listing() == before)
    }

    @Test(arguments: [
        (
            "{\"files\":{\"../victim/secret.txt\":{\"size\":8,\"sha256\":\"\(String(repeating: "0", count: 64))\"}},\"retired\":[]}",
            PublishError.Reason.unsafeName(entry: "files key", name: "../victim/secret.txt", problem: .parent)
        ),
        (
            "{\"files\":{},\"retired\":[\"../victim/secret.txt\"]}",
            .unsafeName(entry: "retired[0]", name: "../victim/secret.txt", problem: .parent)
        ),
        (
            "{\"files\":{},\"retired\":[\"f-1/f-1.zip\",\"/tmp/x\"]}",
            .unsafeName(entry: "retired[1]", name: "/tmp/x", problem: .absolute)
        ),
        (
            "{\"files\":{},\"retired\":[\".newsstand-publish.json\"]}",
            .unsafeName(entry: "retired[0]", name: ".newsstand-publish.json", problem: .hidden)
        ),
        (
            "{\"files\":{},\"retired\":[\"https://evil.example/x\"]}",
            .unsafeName(entry: "retired[0]", name: "https://evil.example/x", problem: .colon)
        ),
    ])
    func aStateFileNamingAFileOutsideIsRefusedAndPruneDeletesNothing(state: String, reason: PublishError.Reason) async throws {
        let scene = try Scene()
        _ = try await scene.publish()
        try Data(state.utf8).write(to: scene.site.appendingPathComponent(".newsstand-publish.json"))
        let before = try scene.listing()
        await #expect(
            throws: PublishError(
                step: "plan", target: scene.site.path + "/.newsstand-publish.json", reason: reason,
                note: "Nothing was changed at \(scene.site.path).")
        ) { _ = try await scene.publish(prune: true) }
        #expect(try scene.listing() == before)
    }

    @Test func aDamagedStateFileIsAnErrorNotASilentReuploadOfEverything() async throws {
        let scene = try Scene()
        _ = try await scene.publish()
        for (text, detail) in [
            ("{\"files\": [", "The given data was not valid JSON."),
            ("[]", "Expected to decode Dictionary<String, Any> but found an array instead."),
            ("{\"files\":{\"f-1/f-1.zip\":{\"size\":-5,\"sha256\":\"x\"}},\"retired\":[]}", nil),
        ] {
            try Data(text.utf8).write(to: scene.site.appendingPathComponent(".newsstand-publish.json"))
            let before = try scene.listing()
            do throws(PublishError) {
                _ = try await scene.publish()
                Issue.record("a damaged state file was accepted: \(text)")
            } catch {
                guard case .invalid(let message) = error.reason else {
                    Issue.record("\(error)")
                    continue
                }
                if let detail { #expect(message.contains(detail), "\(message)") }
                #expect(
                    message.hasSuffix(
                        "if it is damaged, delete it: the next publish then uploads every file again, and --prune forgets files that earlier publishes left there"
                    ))
            }
            #expect(try scene.listing() == before)
        }
    }

    @Test func stateFilesAndManifestsAreReadOnlyUpToTheirLimits() async throws {
        let scene = try Scene()
        _ = try await scene.publish()
        let state = scene.site.appendingPathComponent(".newsstand-publish.json")
        try Data(count: Int(PublishManifest.sizeLimit) + 1).write(to: state)
        await #expect(
            throws: PublishError(
                step: "read", target: state.path, reason: .tooLarge(limit: PublishManifest.sizeLimit),
                note: "Nothing was changed at \(scene.site.path).")
        ) { _ = try await scene.publish() }
        try FileManager.default.removeItem(at: state)

        let manifest = scene.built.appendingPathComponent("f-2/.newsstand/manifest.json")
        try Data(count: 16 << 20 + 1).write(to: manifest)
        await #expect(
            throws: PublishError(
                step: "plan", target: manifest.path, reason: .tooLarge(limit: 16 << 20),
                note: "Nothing was changed at \(scene.site.path).")
        ) { _ = try await scene.publish() }
    }

    @Test func aLinkInTheDestinationIsNeitherWrittenNorDeletedThrough() async throws {
        let scene = try Scene()
        // An issue folder at the destination that is a link to a folder outside.
        try FileManager.default.createSymbolicLink(at: scene.site.appendingPathComponent("f-1"), withDestinationURL: scene.victim)
        var before = try scene.listing()
        await #expect(
            throws: PublishError(
                step: "upload", target: scene.site.path + "/f-1",
                reason: .fileSystem(.symbolicLink(path: scene.site.path + "/f-1", target: scene.victim.path, expected: .folder)),
                note: "Nothing that readers are served was changed; run the command again to finish.")
        ) { _ = try await scene.publish() }
        var after = try scene.listing()
        after = after.filter { !$0.key.hasPrefix("site/") }
        #expect(after == before.filter { !$0.key.hasPrefix("site/") }, "nothing outside the destination changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.victim.path).sorted() == ["secret.txt", "system.json"])
        try FileManager.default.removeItem(at: scene.site.appendingPathComponent("f-1"))

        // A file to prune that was replaced by a link to a file outside.
        _ = try await scene.publish()
        try FileManager.default.removeItem(at: scene.fixture.url("issues/f-2"))
        let (magazine, plans) = try scene.fixture.plans()
        _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: scene.built, jobs: 2, versioned: false)).build(
            plans)
        let stale = scene.site.appendingPathComponent("f-2/f-2.zip")
        try FileManager.default.removeItem(at: stale)
        try FileManager.default.createSymbolicLink(
            at: stale, withDestinationURL: scene.victim.appendingPathComponent("secret.txt"))
        before = try scene.listing()
        do throws(PublishError) {
            _ = try await scene.publish(prune: true)
            Issue.record("prune went through a link")
        } catch {
            #expect(error.step == "delete" && error.target == stale.path)
            #expect(
                error.reason
                    == .fileSystem(
                        .symbolicLink(
                            path: stale.path, target: scene.victim.appendingPathComponent("secret.txt").path,
                            expected: .regularFile)))
        }
        #expect(try Data(contentsOf: scene.victim.appendingPathComponent("secret.txt")) == Data("precious".utf8))
        #expect(try scene.listing().filter { !$0.key.hasPrefix("site/") } == before.filter { !$0.key.hasPrefix("site/") })

        // The state file itself a link to a file outside: not read.
        let state = scene.site.appendingPathComponent(".newsstand-publish.json")
        try FileManager.default.removeItem(at: state)
        try FileManager.default.createSymbolicLink(
            at: state, withDestinationURL: scene.victim.appendingPathComponent("system.json"))
        await #expect(
            throws: PublishError(
                step: "read", target: state.path,
                reason: .fileSystem(
                    .symbolicLink(
                        path: state.path, target: scene.victim.appendingPathComponent("system.json").path, expected: .regularFile)
                ),
                note: "Nothing was changed at \(scene.site.path).")
        ) { _ = try await scene.publish() }
    }

    @Test func linksInTheBuiltFolderAreNotFollowed() async throws {
        let scene = try Scene()
        let bundle = scene.built.appendingPathComponent("f-1/f-1.zip")
        let size = try FileManager.default.attributesOfItem(atPath: bundle.path)[.size] as? Int ?? 0
        try Data(repeating: 7, count: size).write(to: scene.victim.appendingPathComponent("same-size"))
        try FileManager.default.removeItem(at: bundle)
        try FileManager.default.createSymbolicLink(
            at: bundle, withDestinationURL: scene.victim.appendingPathComponent("same-size"))
        let before = try scene.listing()
        await #expect(
            throws: PublishError(
                step: "plan", target: bundle.path,
                reason: .fileSystem(
                    .symbolicLink(
                        path: bundle.path, target: scene.victim.appendingPathComponent("same-size").path, expected: .regularFile)),
                note: "Nothing was changed at \(scene.site.path).")
        ) { _ = try await scene.publish() }
        #expect(try scene.listing() == before)

        // A linked issue folder, and a linked catalog.
        let other = try Scene()
        try FileManager.default.moveItem(
            at: other.built.appendingPathComponent("f-1"), to: scene.work.appendingPathComponent("elsewhere"))
        try FileManager.default.createSymbolicLink(
            at: other.built.appendingPathComponent("f-1"), withDestinationURL: scene.work.appendingPathComponent("elsewhere"))
        await #expect(throws: PublishError.self) {
            _ = try await Publisher.publish(other.built, to: LocalFolderDestination(root: other.site))
        }
        let catalog = other.built.appendingPathComponent("issues.plist")
        try FileManager.default.removeItem(at: other.built.appendingPathComponent("f-1"))
        try FileManager.default.moveItem(at: catalog, to: other.work.appendingPathComponent("issues.plist"))
        try FileManager.default.createSymbolicLink(
            at: catalog, withDestinationURL: other.work.appendingPathComponent("issues.plist"))
        await #expect(throws: PublishError.self) {
            _ = try await Publisher.publish(other.built, to: LocalFolderDestination(root: other.site))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.site.path).isEmpty)
    }

    @Test func aBundleChangedAfterTheBuildIsNotPublished() async throws {
        let scene = try Scene(versioned: true)
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: scene.built.appendingPathComponent("f-1/.newsstand/manifest.json"))) as? [String: Any]
        let name = try #require((manifest?["bundle"] as? [String: Any])?["file"] as? String)
        let bundle = scene.built.appendingPathComponent("f-1/\(name)")
        var bytes = try Data(contentsOf: bundle)
        bytes[bytes.count / 2] ^= 0xFF  // same size, other bytes
        try bytes.write(to: bundle)
        do throws(PublishError) {
            _ = try await scene.publish()
            Issue.record("a changed bundle was published")
        } catch {
            #expect(error.step == "upload" && error.target == bundle.path)
            guard case .contentMismatch(let expectedSize, let size, _, _) = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(expectedSize == size)
        }
        #expect(!FileManager.default.fileExists(atPath: scene.site.appendingPathComponent("f-1/\(name)").path))
        #expect(!FileManager.default.fileExists(atPath: scene.site.appendingPathComponent("issues.plist").path))
    }

    @Test func aCatalogThatDoesNotMatchTheBuiltIssuesIsNotPublished() async throws {
        let scene = try Scene()
        let catalog = scene.built.appendingPathComponent("issues.plist")
        var (entries, _) = try Catalog.decode(Data(contentsOf: catalog))
        entries[0].contentSHA256 = String(repeating: "0", count: 64)
        try Catalog.encode(entries).write(to: catalog)
        await #expect(
            throws: PublishError(
                step: "plan", target: catalog.path,
                reason: .invalid(
                    "its entry for '\(entries[0].name)' does not match \(entries[0].name)/.newsstand/manifest.json; run 'newsstand catalog' or build again"
                ), note: "Nothing was changed at \(scene.site.path).")
        ) { _ = try await scene.publish() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.site.path).isEmpty)
    }
}
