import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// Incremental builds: what each kind of change revalidates and rebuilds, that a rebuilt output
/// is byte for byte a clean build's, and that records which lie or are corrupt never make a
/// changed issue skip validation. The two tests that check with tools we did not write
/// (`touch -r`, `unzip`, `xxhsum`) are in `IncrementalBuildToolTests`.
@Suite struct IncrementalBuildTests {
    /// One build as `newsstand build` runs it: validation reusing the output's records, then the build.
    struct Run {
        var report: BuildReport
        var outcomes: [String: RecordedValidation.Outcome]
        var diagnostics: [Diagnostic]

        /// The issues whose validation was taken from their record.
        var reused: [String] { outcomes.filter { $0.value == .reused }.map(\.key).sorted() }
        /// The issues validated in full.
        var validated: [String] { outcomes.filter { $0.value != .reused }.map(\.key).sorted() }
    }

    /// A build stopped by validation errors.
    struct Invalid: Error { var diagnostics: [Diagnostic] }

    func build(_ fixture: MagazineFixture, into output: URL, force: Bool = false) throws -> Run {
        let opening = MagazineValidator(folder: fixture.root, builtInSchema: MagazineFixture.builtInSchema).open()
        let records = force ? nil : try? OpenFolder.open(output)
        var outcomes: [String: RecordedValidation.Outcome] = [:]
        var diagnostics = opening.diagnostics
        var plans: [IssuePlan] = []
        for name in opening.issueNames {
            let (result, outcome) = RecordedValidation.validate(issue: name, in: opening.magazine, records: records)
            outcomes[name] = outcome
            diagnostics += result.diagnostics
            guard let plan = result.plan else { throw Invalid(diagnostics: result.diagnostics) }
            plans.append(plan)
        }
        let options = BuildOptions(output: output, jobs: 2, force: force, feeds: [.atom, .shelf])
        let report = try MagazineBuilder(magazine: opening.magazine, options: options).build(plans)
        return Run(report: report, outcomes: outcomes, diagnostics: diagnostics)
    }

    /// Builds the fixture afresh elsewhere and expects the same files, byte for byte.
    func expectSameAsCleanBuild(
        _ fixture: MagazineFixture, _ output: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let clean = try Shell.temporaryFolder()
        _ = try build(fixture, into: clean, force: true)
        // The Atom feed's `updated` is when an issue's metadata last changed, kept in its own
        // record (feed-updated.json): a clean build starts that clock anew, by design.
        let isFeedClock = { (path: String) in path == "atom.xml" || path.hasSuffix("/.newsstand/feed-updated.json") }
        let incremental = FolderSnapshot(output).entries.filter { !isFeedClock($0.key) }
        let fresh = FolderSnapshot(clean).entries.filter { !isFeedClock($0.key) }
        #expect(
            incremental == fresh,
            "\(Set(incremental.map { "\($0.key) \($0.value)" }).symmetricDifference(fresh.map { "\($0.key) \($0.value)" }).sorted())",
            sourceLocation: sourceLocation)
    }

    func manifestURL(_ output: URL, _ issue: String) -> URL {
        output.appendingPathComponent("\(issue)/.newsstand/manifest.json")
    }

    /// Edits the JSON of an issue's manifest.
    func editManifest(_ output: URL, _ issue: String, _ edit: (inout [String: Any]) throws -> Void) throws {
        let url = manifestURL(output, issue)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        try edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    func setModified(_ url: URL, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }

    func modified(_ url: URL) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    }

    @Test func nothingChangedReusesEveryValidationAndReportsItsWarningsAgain() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        try fixture.write("issues/f-1/assets/unused.png", MagazineFixture.png(width: 1, height: 1))
        let output = try Shell.temporaryFolder()
        let first = try build(fixture, into: output)
        #expect(first.outcomes == ["f-1": .noRecord, "f-2": .noRecord])
        #expect(first.diagnostics.map(\.code) == [.assetUnreferenced])

        let second = try build(fixture, into: output)
        #expect(second.reused == ["f-1", "f-2"])
        #expect(second.report.built == [])
        #expect(second.report.upToDate == ["f-1", "f-2"])
        // The warning is the recorded one, printed and counted again.
        #expect(second.diagnostics == first.diagnostics)
        try expectSameAsCleanBuild(fixture, output)
    }

    @Test func editingOnePageRevalidatesAndRebuildsOnlyItsIssue() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let untouched = try modified(output.appendingPathComponent("f-1/.newsstand/manifest.json"))
        let pages = MagazineFixture.defaultPages.replacingOccurrences(of: "2-1t.png", with: "2-0.png")
        try fixture.write("issues/f-2/pages.plist", pages)

        let run = try build(fixture, into: output)
        #expect(run.outcomes == ["f-1": .reused, "f-2": .changed])
        #expect(run.report.built == ["f-2"])
        #expect(run.report.upToDate == ["f-1"])
        // 2-1t.png is no longer used: the fresh validation says so.
        #expect(
            run.diagnostics.with(.assetUnreferenced).map(\.location?.file) == [
                "issues/f-2/assets/2-1t.png", "issues/f-2/assets/2-1t@2x.png",
            ])
        #expect(try modified(output.appendingPathComponent("f-1/.newsstand/manifest.json")) == untouched)
        try expectSameAsCleanBuild(fixture, output)
    }

    @Test func editingOneAssetRevalidatesAndRebuildsOnlyItsIssue() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try fixture.write("issues/f-1/assets/2-0@2x.png", MagazineFixture.png(width: 20, height: 40, seed: "edited"))

        let run = try build(fixture, into: output)
        #expect(run.outcomes == ["f-1": .changed, "f-2": .reused])
        #expect(run.report.built == ["f-1"])
        try expectSameAsCleanBuild(fixture, output)

        // A changed asset is validated again: an @2x of the wrong size is an error, not a reuse.
        try fixture.write("issues/f-2/assets/2-0@2x.png", MagazineFixture.png(width: 21, height: 40))
        #expect(throws: Invalid.self) { try build(fixture, into: output) }
        #expect(fixture.validate(issues: ["f-2"]).with(.retinaWrongSize).count == 1)
    }

    @Test func theMagazinesPageClassesRevalidateEveryIssueAndRebuildNone() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try fixture.write(
            "page-classes.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>QuotePage</key>
                    <dict>
                        <key>inherits</key>
                        <string>SimplePage</string>
                    </dict>
                </dict>
                """))
        let run = try build(fixture, into: output)
        #expect(run.validated == ["f-1", "f-2"])
        #expect(run.outcomes.values.allSatisfy { $0 == .changed })
        // The bundles do not depend on the schema: nothing is packed again, the records take the new key.
        #expect(run.report.built == [])
        #expect(try build(fixture, into: output).reused == ["f-1", "f-2"])
        try expectSameAsCleanBuild(fixture, output)

        // A schema whose rules the issues break is enforced on the next build.
        try fixture.write(
            "page-classes.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>SimplePage</key>
                    <dict>
                        <key>properties</key>
                        <dict>
                            <key>caption</key>
                            <dict>
                                <key>type</key>
                                <string>string</string>
                                <key>required</key>
                                <true/>
                            </dict>
                        </dict>
                    </dict>
                </dict>
                """))
        let problems = fixture.validate()
        #expect(problems.hasErrors)
        #expect(throws: Invalid.self) { try build(fixture, into: output) }
    }

    @Test func magazinePlistRevalidatesNothingAndTheCatalogFollowsIt() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try fixture.write(
            "magazine.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>Title</key>
                    <string>Renamed</string>
                    <key>BaseURL</key>
                    <string>https://cdn.example.org/m/</string>
                </dict>
                """))
        let run = try build(fixture, into: output)
        #expect(run.reused == ["f-1", "f-2"])
        #expect(run.report.built == [])
        let catalog = try String(contentsOf: output.appendingPathComponent("issues.plist"), encoding: .utf8)
        #expect(catalog.contains("https://cdn.example.org/m/f-1/"))
        #expect(!catalog.contains("https://example.com/mag/"))
        let atom = try String(contentsOf: output.appendingPathComponent("atom.xml"), encoding: .utf8)
        #expect(atom.contains("Renamed"))
        try expectSameAsCleanBuild(fixture, output)
    }

    @Test func aRecordOfAnotherToolVersionIsNeitherReusedNorTrustedForBundles() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try editManifest(output, "f-2") { $0["toolVersion"] = "0.0.1" }

        let run = try build(fixture, into: output)
        #expect(run.outcomes == ["f-1": .reused, "f-2": .otherVersion("0.0.1")])
        #expect(run.report.built == ["f-2"])
        try expectSameAsCleanBuild(fixture, output)
    }

    @Test func aTouchedButUnchangedFileIsHashedOnceAndItsRecordRefreshed() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let asset = fixture.url("issues/f-1/assets/1-0@2x.png")
        let later = Date(timeIntervalSinceNow: 3600)
        try setModified(asset, later)

        let run = try build(fixture, into: output)
        #expect(run.outcomes == ["f-1": .reused])
        #expect(run.report.built == [])
        let manifest = try #require(BuildManifest.read(in: output.appendingPathComponent("f-1")))
        let record = try #require(manifest.inputs.first { $0.path == "assets/1-0@2x.png" })
        let status = try FileStatus.of(asset.path)
        #expect(record.modified == status.modified)
        #expect(record.changed == status.changed)
        try expectSameAsCleanBuild(fixture, output)
    }

    /// A record restored from a CI cache onto a fresh checkout: every time differs, so the
    /// hashes decide, and a hash that does not match the file is a change.
    @Test func aRecordWhoseHashDoesNotMatchTheFileIsAChange() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try editManifest(output, "f-2") { object in
            // "<xxh3> <size> <modified> <changed> <path>": every time wrong, one hash wrong.
            let inputs = try #require(object["inputs"] as? [String])
            object["inputs"] = inputs.map { record in
                var fields = record.split(separator: " ", maxSplits: 4).map(String.init)
                fields[2] = "1.0"
                if fields[4] == "assets/2-0.png" { fields[0] = String(repeating: "0", count: 32) }
                return fields.joined(separator: " ")
            }
        }
        let run = try build(fixture, into: output)
        #expect(run.outcomes == ["f-1": .reused, "f-2": .changed])
        #expect(run.report.built == ["f-2"])
        try expectSameAsCleanBuild(fixture, output)
    }

    // MARK: The listing of assets/

    @Test func anAddedUnreferencedFileRevalidatesWithItsWarningAndRebuildsNothing() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try fixture.write("issues/f-1/assets/extra.png", MagazineFixture.png(width: 1, height: 1))

        let run = try build(fixture, into: output)
        #expect(run.outcomes == ["f-1": .changed])
        #expect(run.diagnostics.with(.assetUnreferenced).map(\.location?.file) == ["issues/f-1/assets/extra.png"])
        #expect(run.report.built == [])
        // The record now holds the warning: reused, and reported again.
        let again = try build(fixture, into: output)
        #expect(again.outcomes == ["f-1": .reused])
        #expect(again.diagnostics.with(.assetUnreferenced).map(\.location?.file) == ["issues/f-1/assets/extra.png"])
        try expectSameAsCleanBuild(fixture, output)
    }

    @Test func anUnreferencedLinkInAssetsIsAnErrorOnTheNextBuild() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.url("issues/f-1/assets/passwd").path, withDestinationPath: "/etc/passwd")
        let error = try #require(throws: Invalid.self) { try build(fixture, into: output) }
        #expect(error.diagnostics.with(.assetNotRegularFile).map(\.location?.file) == ["issues/f-1/assets/passwd"])
    }

    @Test func aDeletedRetinaFileIsAnErrorOnTheNextBuild() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try fixture.remove("issues/f-1/assets/2-1@2x.png")
        let error = try #require(throws: Invalid.self) { try build(fixture, into: output) }
        #expect(error.diagnostics.with(.retinaMissing).count == 1)
    }

    @Test func fixingALetterCaseMismatchIsSeen() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        // Renamed to differ in case only: the reference no longer matches.
        for name in ["2-0.png", "2-0@2x.png"] {
            try FileManager.default.moveItem(
                at: fixture.url("issues/f-1/assets/\(name)"), to: fixture.url("issues/f-1/assets/\(name.uppercased())"))
        }
        let error = try #require(throws: Invalid.self) { try build(fixture, into: output) }
        #expect(error.diagnostics.with(.assetCaseMismatch).count == 1)
        // And back: the listing and the files are the recorded ones again (the renames moved
        // only their ctime, and their bytes hash as recorded), so the record holds.
        for name in ["2-0.png", "2-0@2x.png"] {
            try FileManager.default.moveItem(
                at: fixture.url("issues/f-1/assets/\(name.uppercased())"), to: fixture.url("issues/f-1/assets/\(name)"))
        }
        let run = try build(fixture, into: output)
        #expect(run.outcomes == ["f-1": .reused])
        #expect(run.report.built == [])
        #expect(run.diagnostics.isEmpty)
        try expectSameAsCleanBuild(fixture, output)
    }

    // MARK: Records that cannot be trusted

    @Test func aCorruptRecordIsReportedAndTheIssueValidatedAndRebuilt() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try Data("{\"toolVersion\": ".utf8).write(to: manifestURL(output, "f-2"))
        var warnings: [String] = []
        let opening = MagazineValidator(folder: fixture.root, builtInSchema: MagazineFixture.builtInSchema).open()
        let (_, outcome) = RecordedValidation.validate(issue: "f-2", in: opening.magazine, records: try OpenFolder.open(output))
        #expect(outcome == .untrusted(.undecodable(path: manifestURL(output, "f-2").path, kind: "build manifest")))
        let run = try build(fixture, into: output)
        #expect(run.outcomes["f-2"] == outcome)
        #expect(run.report.built == ["f-2"])
        warnings = run.report.warnings
        #expect(warnings.contains { $0.contains("is not a build manifest newsstand can read") })
        try expectSameAsCleanBuild(fixture, output)
    }

    @Test func aRecordNamingAnAssetOutsideTheIssueIsNotUsed() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try editManifest(output, "f-1") { object in
            var validation = try #require(object["validation"] as? [String: Any])
            validation["assets"] = ["file ../../../etc/passwd"]
            object["validation"] = validation
        }
        let opening = MagazineValidator(folder: fixture.root, builtInSchema: MagazineFixture.builtInSchema).open()
        let (result, outcome) = RecordedValidation.validate(
            issue: "f-1", in: opening.magazine, records: try OpenFolder.open(output))
        #expect(outcome == .untrusted(.unsafeName(path: manifestURL(output, "f-1").path, name: "../../../etc/passwd")))
        #expect(result.plan?.assets.map(\.name) == ["1-0.png", "2-0.png", "2-1.png", "2-1t.png"])
    }

    @Test func aRecordThatHidesAnErrorOrCarriesControlCharactersIsNotReused() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let opening = MagazineValidator(folder: fixture.root, builtInSchema: MagazineFixture.builtInSchema).open()
        for message in ["an error the record says was found", "\u{1B}]0;owned\u{07}"] {
            try editManifest(output, "f-1") { object in
                var validation = try #require(object["validation"] as? [String: Any])
                let severity = message.hasPrefix("an error") ? "error" : "warning"
                validation["diagnostics"] = [["code": "NS-306", "severity": severity, "message": message]]
                object["validation"] = validation
            }
            let (result, outcome) = RecordedValidation.validate(
                issue: "f-1", in: opening.magazine, records: try OpenFolder.open(output))
            #expect(outcome == .changed)
            #expect(result.diagnostics.isEmpty)
        }
    }

    @Test func aRecordBehindALinkOrLargerThanTheLimitIsNotRead() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        // f-1's output folder becomes a link to a copy of itself elsewhere.
        let elsewhere = try Shell.temporaryFolder().appendingPathComponent("f-1")
        try FileManager.default.moveItem(at: output.appendingPathComponent("f-1"), to: elsewhere)
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent("f-1"), withDestinationURL: elsewhere)
        // f-2's manifest is a sparse file past the 16 MiB limit.
        let manifest = manifestURL(output, "f-2")
        let handle = try FileHandle(forWritingTo: manifest)
        try handle.truncate(atOffset: UInt64(BuildManifest.maximumBytes) + 1)
        try handle.close()
        let opening = MagazineValidator(folder: fixture.root, builtInSchema: MagazineFixture.builtInSchema).open()
        let records = try OpenFolder.open(output)
        let (linked, linkOutcome) = RecordedValidation.validate(issue: "f-1", in: opening.magazine, records: records)
        guard case .untrusted(.unreadable(.symbolicLink)) = linkOutcome else {
            Issue.record("a linked output folder gave \(linkOutcome)")
            return
        }
        #expect(linked.plan != nil && linked.plan?.recorded == nil)
        let (_, largeOutcome) = RecordedValidation.validate(issue: "f-2", in: opening.magazine, records: records)
        #expect(largeOutcome == .untrusted(.tooLarge(path: manifest.path, limit: BuildManifest.maximumBytes)))
    }

    @Test func forceValidatesAndRebuildsEverything() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let run = try build(fixture, into: output, force: true)
        #expect(run.reused == [])
        #expect(run.report.built == ["f-1", "f-2"])
    }
}
