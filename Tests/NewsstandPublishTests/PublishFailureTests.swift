import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// Item 9 of issue 9: after a publish that fails at any step, every URL in the served catalog
/// answers with the bytes whose size and SHA-256 that catalog lists, and running the publish
/// again finishes the job. Each test publishes version 1, then version 2 (two issues changed,
/// one removed, with `--prune`) failing at step 1, then at step 2, … up to the last step, each
/// time from version 1 again; what readers are served is fetched over HTTP from nginx and
/// checked with Python after every failure and after every rerun: bundles, covers and bundle
/// indexes (issue 14), each against the catalog's size and SHA-256. Not serialized: each test
/// has its own nginx, proxy and folders, and run one after another its four long cases were
/// the last tests of the whole suite, with the other slots idle.
@Suite(.timeLimit(.minutes(10)), .tags(.needsServer)) struct PublishFailureTests {
    enum Naming: String, CaseIterable, CustomTestStringConvertible {
        case versioned, fixed
        var testDescription: String { rawValue }
    }

    /// Publishes version 1 and builds version 2; returns the snapshot of version 1 served.
    private func prepare(_ site: ServedSite, to destination: any PublishDestination) async throws -> (URL, [String]) {
        _ = try await Publisher.publish(site.built, to: destination)
        let v1 = try ServedMagazine.check(catalog: site.catalogURL, requiringIndexes: true)
        #expect(v1.problems.isEmpty, "\(v1.problems)")
        #expect(v1.names == ["f-3", "f-2", "f-1"])
        let snapshot = try site.snapshot()
        try site.changeMagazine()
        return (snapshot, v1.names)
    }

    /// After a failed publish: consistent, either version; after a rerun: consistent, version 2,
    /// and nothing left at the destination but version 2's files and the state file.
    private func expectRecovery(
        _ site: ServedSite, failure: String, rerun: () async throws -> PublishReport, v1: [String]
    ) async throws {
        let served = try ServedMagazine.check(catalog: site.catalogURL, requiringIndexes: true)
        let v2 = try site.builtNames()
        #expect(served.problems.isEmpty, "after \(failure): \(served.problems)")
        #expect(served.names == v1 || served.names == v2, "after \(failure): \(served.names)")

        let report = try await rerun()
        #expect(report.leftovers.isEmpty)
        let finished = try ServedMagazine.check(catalog: site.catalogURL, requiringIndexes: true)
        #expect(finished.problems.isEmpty, "rerun after \(failure): \(finished.problems)")
        #expect(finished.names == v2, "rerun after \(failure)")
        let files = try site.servedFiles()
        let expected = try Set(builtFiles(site.built) + [".newsstand-publish.json"])
        #expect(Set(files.keys).subtracting([".newsstand-publish.lock"]) == expected, "rerun after \(failure)")
    }

    /// The files a publish of `built` puts at the destination.
    private func builtFiles(_ built: URL) throws -> [String] {
        let plan = try PublishPlan.make(builtFolder: built, remote: nil, servedCatalog: false)
        return plan.files.map(\.path)
    }

    @Test(arguments: Naming.allCases) func webDAVFailingAtEachStep(naming: Naming) async throws {
        let site = try ServedSite(versioned: naming == .versioned)
        defer { site.stop() }
        let proxy = try RecordingProxy(upstream: site.nginx.port)
        defer { proxy.stop() }
        let dav = WebDAVDestination(
            root: URL(string: "http://127.0.0.1:\(proxy.port)/dav/")!, credentials: nil,
            timeouts: PublishTimeouts(connect: 10, stall: 10, request: 30))
        try proxy.fail(requestNumber: nil)
        let (snapshot, v1) = try await prepare(site, to: dav)

        // A clean run of version 2 gives the steps to fail.
        try proxy.fail(requestNumber: nil)
        let clean = try await Publisher.publish(site.built, to: dav, prune: true)
        let steps = proxy.requests().map { "\($0.method) \($0.path)" }
        // Versioned: the changed issues' old bundles and indexes (2 × 4) and f-3's 6 files;
        // fixed: f-3's 6 files, the changed issues' bundles and indexes swapped (2 × 4).
        #expect(clean.deleted.count == (naming == .versioned ? 14 : 6))
        #expect(naming == .versioned ? clean.swapped.isEmpty : clean.swapped.count == 8)
        #expect(steps.contains { $0.hasPrefix("MOVE") } && steps.contains { $0.hasPrefix("COPY") })
        #expect(steps.count > 15)
        // Catalogs are switched in last: once the first catalog moves into place, nothing else
        // does, so a served catalog never names a file still on its way.
        let moves = steps.filter { $0.hasPrefix("MOVE") && !$0.contains("/.newsstand-publish.") }  // not the state file
        let isCatalog = { (move: String) in PublishPlan.catalogNames.contains { move.contains("/.\($0).") } }
        let firstCatalog = try #require(moves.firstIndex(where: isCatalog), "\(moves)")
        #expect(moves[firstCatalog...].allSatisfy(isCatalog), "\(moves)")
        #expect(naming == .versioned || firstCatalog > 0, "\(moves)")

        for (index, step) in steps.enumerated() {
            try site.restore(snapshot)
            try proxy.fail(requestNumber: index + 1)
            do throws(PublishError) {
                let report = try await Publisher.publish(site.built, to: dav, prune: true)
                // Only the clean-up of a copy kept aside may fail without failing the publish.
                #expect(step.hasPrefix("DELETE") && report.leftovers.count == 1, "\(step) failed and the publish went on")
                // Delete the copy by hand, as the warning asks.
                for leftover in report.leftovers {
                    try? FileManager.default.removeItem(at: site.nginx.root.appendingPathComponent(leftover))
                }
            } catch {
                #expect(error.note != nil, "\(step): \(error)")
            }
            try proxy.fail(requestNumber: nil)
            try await expectRecovery(
                site, failure: "a 500 on \(step)", rerun: { try await Publisher.publish(site.built, to: dav, prune: true) },
                v1: v1)
        }
    }

    @Test(arguments: Naming.allCases) func folderFailingAtEachStep(naming: Naming) async throws {
        let site = try ServedSite(versioned: naming == .versioned)
        defer { site.stop() }
        let folder = LocalFolderDestination(root: site.nginx.root)
        let (snapshot, v1) = try await prepare(site, to: folder)

        let counting = FaultyDestination(wrapped: folder, failAt: nil)
        _ = try await Publisher.publish(site.built, to: counting, prune: true)
        let steps = counting.operations
        #expect(steps.contains { $0.hasPrefix("move") } && steps.contains { $0.hasPrefix("copy") })

        for (index, step) in steps.enumerated() {
            try site.restore(snapshot)
            let faulty = FaultyDestination(wrapped: folder, failAt: index + 1)
            do throws(PublishError) {
                let report = try await Publisher.publish(site.built, to: faulty, prune: true)
                #expect(step.hasPrefix("delete") && report.leftovers.count == 1, "\(step) failed and the publish went on")
                for leftover in report.leftovers {
                    try? FileManager.default.removeItem(at: site.nginx.root.appendingPathComponent(leftover))
                }
            } catch {
                #expect(error.step == "injected" && error.note != nil, "\(step): \(error)")
            }
            try await expectRecovery(
                site, failure: "a failure at \(step)",
                rerun: { try await Publisher.publish(site.built, to: folder, prune: true) }, v1: v1)
        }
    }

    /// A folder where the new shelf.json must go, found after issues.plist and the fixed-name
    /// bundles were already switched (keeping the old shelf.json aside is what fails first).
    /// Everything switched is put back.
    @Test func folderWithABlockedCatalogRenameRollsBack() async throws {
        let site = try ServedSite(versioned: false)
        defer { site.stop() }
        let folder = LocalFolderDestination(root: site.nginx.root)
        let (_, v1) = try await prepare(site, to: folder)
        let servedBefore = try site.servedFiles()
        let shelf = site.nginx.root.appendingPathComponent("shelf.json")
        try FileManager.default.removeItem(at: shelf)
        try FileManager.default.createDirectory(at: shelf.appendingPathComponent("blocker"), withIntermediateDirectories: true)

        await #expect {
            _ = try await Publisher.publish(site.built, to: folder, prune: true)
        } throws: { error in
            guard let error = error as? PublishError else { return false }
            return error.step == "copy" && error.target.hasSuffix("/shelf.json")
                && error.reason == .fileSystem(.wrongKind(path: error.target, found: .folder, expected: .regularFile))
                && error.note?.hasPrefix("The previous catalog and files were restored") == true
        }
        var after = try site.servedFiles()
        after["shelf.json"] = servedBefore["shelf.json"]
        #expect(after == servedBefore, "every switched file is back, byte for byte")
        let served = try ServedMagazine.check(catalog: site.catalogURL, requiringIndexes: true)
        #expect(served.problems.isEmpty && served.names == v1)

        try FileManager.default.removeItem(at: shelf)
        try await expectRecovery(
            site, failure: "a folder in place of shelf.json",
            rerun: { try await Publisher.publish(site.built, to: folder, prune: true) }, v1: v1)
    }

    /// Real failures of the kernel's own (`chattr +i`: even root cannot rename over, or delete,
    /// an immutable file): a served fixed-name bundle, the state file, a file to prune.
    @Test(.enabled(if: geteuid() == 0, "chattr +i needs root (CAP_LINUX_IMMUTABLE), which CI has"))
    func folderWithImmutableFilesStaysConsistent() async throws {
        let site = try ServedSite(versioned: false)
        defer { site.stop() }
        let folder = LocalFolderDestination(root: site.nginx.root)
        let (snapshot, v1) = try await prepare(site, to: folder)
        let probe = site.nginx.root.appendingPathComponent("f-1/f-1.zip")
        let immutable = try Shell.run("chattr", ["+i", probe.path])
        try #require(immutable.status == 0, "chattr +i as root: \(immutable.stderr)")
        try Shell.run("chattr", ["-i", probe.path])

        for (blocked, step) in [
            ("f-2/f-2.zip", "move"), (".newsstand-publish.json", "move"), ("f-3/f-3.zip", "delete"),
        ] {
            try site.restore(snapshot)
            let file = site.nginx.root.appendingPathComponent(blocked)
            try Shell.run("chattr", ["+i", file.path])
            do throws(PublishError) {
                _ = try await Publisher.publish(site.built, to: folder, prune: true)
                Issue.record("\(blocked) is immutable, yet the publish succeeded")
            } catch {
                #expect(error.step == step && error.target.hasSuffix(blocked), "\(error)")
                #expect(error.reason == .fileSystem(.system(path: error.target, code: EPERM)))
            }
            let served = try ServedMagazine.check(catalog: site.catalogURL, requiringIndexes: true)
            #expect(served.problems.isEmpty, "\(blocked) immutable: \(served.problems)")
            try Shell.run("chattr", ["-i", file.path])
            try await expectRecovery(
                site, failure: "\(blocked) immutable",
                rerun: { try await Publisher.publish(site.built, to: folder, prune: true) }, v1: v1)
        }
    }
}
