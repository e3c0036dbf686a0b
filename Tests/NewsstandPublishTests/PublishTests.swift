import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// Publishing to a local folder (to an rclone remote: `RclonePublishTests`); WebDAV is tested against nginx in
/// `PublishFailureTests` and the CLI tests, hostile inputs in `PublishHostileInputTests`.
@Suite struct PublishTests {
    func build(_ fixture: MagazineFixture, into output: URL, versioned: Bool = false) throws {
        let (magazine, plans) = try fixture.plans()
        _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 2, versioned: versioned))
            .build(plans)
    }

    /// Every file the published catalog names exists at the destination with the catalog's
    /// SHA-256 (bundles and their indexes), covers exist.
    func expectConsistent(_ root: URL) throws {
        let (entries, problems) = try Catalog.decode(Data(contentsOf: root.appendingPathComponent("issues.plist")))
        #expect(problems.isEmpty)
        for entry in entries {
            for retina in [false, true] {
                let path = String(entry.contentURL(retina: retina).dropFirst("https://example.com/mag/".count))
                let bundle = root.appendingPathComponent(path)
                #expect(FileManager.default.fileExists(atPath: bundle.path), "\(path) is missing")
                #expect(try SHA256.hex(ofFileAt: bundle) == entry.contentSHA256(retina: retina))
                let cover = String(entry.coverURL(retina: retina).dropFirst("https://example.com/mag/".count))
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(cover).path), "\(cover) is missing")
                let indexURL = try #require(entry.contentIndexURL(retina: retina), "\(entry.name) has no ContentIndex")
                let index = root.appendingPathComponent(String(indexURL.dropFirst("https://example.com/mag/".count)))
                #expect(try SHA256.hex(ofFileAt: index) == entry.contentIndexSHA256(retina: retina), "\(indexURL)")
            }
        }
    }

    @Test func publishesEverythingThenOnlyWhatChanged() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try build(fixture, into: built)
        let destination = LocalFolderDestination(root: site)

        var report = try await Publisher.publish(built, to: destination)
        // Each issue's bundles, then their indexes, then its covers; the catalog after all.
        #expect(
            report.uploaded
                == ["f-1", "f-2"].flatMap { issue in
                    [
                        "\(issue).zip", "\(issue)@2x.zip", "\(issue).index.json", "\(issue).index@2x.json", "cover.png",
                        "cover@2x.png",
                    ]
                    .map { "\(issue)/\($0)" }
                })
        #expect(report.replacedCatalogs == ["issues.plist"])
        try expectConsistent(site)

        report = try await Publisher.publish(built, to: destination)
        #expect(report.uploaded.isEmpty && report.replacedCatalogs.isEmpty && report.unchanged == 13)

        // Fixed names: the changed bundles replace served files, so they are staged and swapped.
        try fixture.image("f-2", "1-0.png", width: 11, height: 20)
        try build(fixture, into: built)
        report = try await Publisher.publish(built, to: destination)
        #expect(report.uploaded.isEmpty)
        #expect(report.swapped == ["f-2/f-2.zip", "f-2/f-2@2x.zip", "f-2/f-2.index.json", "f-2/f-2.index@2x.json"])
        #expect(report.replacedCatalogs == ["issues.plist"])
        try expectConsistent(site)
        let hidden = try FileManager.default.subpathsOfDirectory(atPath: site.path).filter {
            ($0 as NSString).lastPathComponent.hasPrefix(".") && !$0.hasPrefix(".newsstand-publish.")
        }
        #expect(hidden.isEmpty, "temporary files left: \(hidden)")
    }

    @Test func versionedNamesUploadNewFilesBesideTheServedOnes() async throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try build(fixture, into: built, versioned: true)
        let destination = LocalFolderDestination(root: site)
        _ = try await Publisher.publish(built, to: destination)
        let first = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("f-1").path)

        try fixture.image("f-1", "1-0.png", width: 11, height: 20)
        try build(fixture, into: built, versioned: true)
        let report = try await Publisher.publish(built, to: destination)
        #expect(report.uploaded.count == 4 && report.swapped.isEmpty, "\(report.uploaded)")  // bundles and indexes
        // The old bundles stay (a reader with the old catalog still gets them) until --prune.
        let now = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("f-1").path)
        #expect(Set(first).isSubset(of: Set(now)) && now.count == first.count + 4)
        try expectConsistent(site)
        let pruned = try await Publisher.publish(built, to: destination, prune: true)
        #expect(pruned.deleted.count == 4)
        try expectConsistent(site)
    }

    @Test func pruneDeletesOnlyWhatAnEarlierPublishPutThereAfterTheCatalog() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try Data("mine".utf8).write(to: site.appendingPathComponent("index.html"))
        try build(fixture, into: built)
        let destination = LocalFolderDestination(root: site)
        _ = try await Publisher.publish(built, to: destination)

        try FileManager.default.removeItem(at: fixture.url("issues/f-1"))
        try build(fixture, into: built)
        var report = try await Publisher.publish(built, to: destination)
        #expect(report.deleted.isEmpty)
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("f-1/f-1.zip").path))

        report = try await Publisher.publish(built, to: destination, prune: true)
        #expect(
            Set(report.deleted) == [
                "f-1/f-1.zip", "f-1/f-1@2x.zip", "f-1/f-1.index.json", "f-1/f-1.index@2x.json", "f-1/cover.png",
                "f-1/cover@2x.png",
            ])
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("f-1/f-1.zip").path))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))
        try expectConsistent(site)
    }

    @Test func uploadsOfAFailedPublishAreKnownToPrune() async throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try build(fixture, into: built, versioned: true)
        let local = LocalFolderDestination(root: site)
        _ = try await Publisher.publish(built, to: local)

        // Version 2 fails after its first bundle is uploaded; version 3 is then published.
        try fixture.image("f-1", "1-0.png", width: 11, height: 20)
        try build(fixture, into: built, versioned: true)
        let v2 = try #require(try PublishPlan.make(builtFolder: built, remote: nil).files.first { $0.path.hasSuffix(".zip") })
        let failing = FaultyDestination(wrapped: local, failAt: 5)  // read, upload and move of the state, upload, *upload*
        await #expect(throws: PublishError.self) { _ = try await Publisher.publish(built, to: failing) }
        #expect(failing.operations.prefix(5).last?.hasPrefix("upload f-1/") == true, "\(failing.operations)")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(v2.path).path))
        try fixture.image("f-1", "1-0.png", width: 13, height: 20)
        try build(fixture, into: built, versioned: true)
        _ = try await Publisher.publish(built, to: local)
        let report = try await Publisher.publish(built, to: local, prune: true)
        #expect(report.deleted.contains(v2.path), "the orphaned upload of version 2 is pruned: \(report.deleted)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent(v2.path).path))
        try expectConsistent(site)
    }

    @Test func aPublishedFileDeletedByHandIsUploadedAgain() async throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try build(fixture, into: built, versioned: true)
        let destination = LocalFolderDestination(root: site)
        _ = try await Publisher.publish(built, to: destination)
        let bundle = try #require(try PublishPlan.make(builtFolder: built, remote: nil).files.first).path
        try FileManager.default.removeItem(at: site.appendingPathComponent(bundle))
        let report = try await Publisher.publish(built, to: destination)
        #expect(report.swapped == [bundle] && report.unchanged == 6)
        try expectConsistent(site)
    }

    @Test func dryRunPlansWithoutChangingAnything() async throws {
        let fixture = try MagazineFixture()
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder().appendingPathComponent("not-yet")
        try build(fixture, into: built)
        let plan = try await Publisher(destination: LocalFolderDestination(root: site), prune: false).plan(builtFolder: built)
        #expect(plan.uploads.count == 6 && plan.swaps.isEmpty)
        #expect(plan.catalogs.map(\.path) == ["issues.plist"])
        #expect(!FileManager.default.fileExists(atPath: site.path), "planning does not even create the folder")
    }

    @Test func aSecondPublishToTheSameFolderIsRefusedWhileOneRuns() async throws {
        let site = try Shell.temporaryFolder()
        let destination = LocalFolderDestination(root: site)
        let held = try await destination.lock()
        await #expect(throws: PublishError(step: "lock", target: site.path + "/.newsstand-publish.lock", reason: .locked)) {
            _ = try await destination.lock()
        }
        await held?.release()
        let again = try await destination.lock()
        #expect(again != nil)
    }

    @Test func credentialsComeFromNetrcOrTheEnvironment() throws {
        let netrc =
            "machine other.example login a password b\nmachine dav.example.com\n  login alice\n  password s3cret\ndefault login d password e\n"
        let folder = try Shell.temporaryFolder()
        try netrc.write(to: folder.appendingPathComponent("netrc"), atomically: true, encoding: .utf8)
        let url = URL(string: "https://dav.example.com/mag/")!
        let found = HTTPCredentials.find(for: url, environment: ["NETRC": folder.appendingPathComponent("netrc").path])
        #expect(found == HTTPCredentials(user: "alice", password: "s3cret"))
        #expect(found?.description == "user 'alice' (from netrc file \(folder.appendingPathComponent("netrc").path))")
        #expect(
            HTTPCredentials.find(
                for: URL(string: "https://x.example/")!, environment: ["NETRC": folder.appendingPathComponent("netrc").path])
                == HTTPCredentials(user: "d", password: "e"))
        #expect(
            HTTPCredentials.find(
                for: url, environment: ["NEWSSTAND_USER": "u", "NEWSSTAND_PASSWORD": "p", "NETRC": "/nonexistent"])
                == HTTPCredentials(user: "u", password: "p"))
    }

    @Test func urlsWithCredentialsAreRefusedAndNeverShown() throws {
        for text in [
            "http://user:secret@127.0.0.1/dav/", "https://user@host.example/", "http://u:p@ss@host/", "http://u:pa/ss@host/",
        ] {
            #expect(Redacted.hasUserInformation(text), "\(text)")
            #expect(throws: PublishError(step: "parse", target: "--to", reason: .credentialsInURL)) {
                _ = try Destinations.parse(text)
            }
        }
        #expect(!Redacted.hasUserInformation("http://host.example/dav/a-1@2x.zip"))
        #expect(
            Redacted.message("move http://u:p@ss@host/a-1/a-1@2x.zip: failed") == "move http://***@host/a-1/a-1@2x.zip: failed")
        #expect(Redacted.message("see https://cdn.example/a-1@2x.zip") == "see https://cdn.example/a-1@2x.zip")
    }
}

extension CatalogEntry {
    func contentSHA256(retina: Bool) -> String? { retina ? retinaContentSHA256 : contentSHA256 }
}
