import Foundation
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

@testable import NewsstandBuild

/// The build index (`<output>/.newsstand/build-index`): unchanged issues' manifests come from it
/// and an unchanged catalog is not written again, but an index that lies (edited, cut short, of
/// another version, a link, or older than a manifest) is never believed over the records.
@Suite struct BuildIndexTests {
    /// A clock a minute ahead: every file is "settled" at once, so tests need not wait a second
    /// for manifests to be remembered (`FileIdentity.isSettled`).
    static let later: @Sendable () -> Double = { Date().timeIntervalSince1970 + 60 }

    struct Run {
        var report: BuildReport
        var reused: [String]
        var fromIndex: Set<String>
        var problem: String?
    }

    /// One build as `newsstand build` runs it, with the index.
    private func build(_ fixture: MagazineFixture, into output: URL, clock: @escaping @Sendable () -> Double = later) throws
        -> Run
    {
        let (index, problem) = BuildIndex.load(output: output, clock: clock)
        let opening = MagazineValidator(folder: fixture.root, builtInSchema: MagazineFixture.builtInSchema).open()
        let records = try? OpenFolder.open(output)
        var reused: [String] = []
        var plans: [IssuePlan] = []
        RecordedValidation.validate(issues: opening.issueNames, in: opening.magazine, records: records, index: index, width: 2) {
            name, result, outcome in
            if outcome == .reused { reused.append(name) }
            if let plan = result.plan { plans.append(plan) }
        }
        var options = BuildOptions(output: output, jobs: 2, feeds: [.shelf])
        options.index = index
        let report = try MagazineBuilder(magazine: opening.magazine, options: options).build(plans)
        return Run(report: report, reused: reused, fromIndex: index.issuesFromIndex, problem: problem)
    }

    private func indexURL(_ output: URL) -> URL { output.appendingPathComponent(".newsstand/build-index") }

    /// Two builds, so that the second writes an index remembering every manifest.
    private func builtWithIndex(_ issues: [String] = ["f-1", "f-2"]) throws -> (MagazineFixture, URL) {
        let fixture = try MagazineFixture(issues: issues)
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let second = try build(fixture, into: output)
        #expect(second.fromIndex == [])
        return (fixture, output)
    }

    /// Writes new bytes of the same size into an issue's page image.
    private func editImage(_ fixture: MagazineFixture, _ issue: String) throws {
        let url = fixture.url("issues/\(issue)/assets/1-0.png")
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: url)
    }

    @Test func unchangedIssuesComeFromTheIndexAndTheCatalogsAreLeftAlone() throws {
        let (fixture, output) = try builtWithIndex()
        let catalogs = ["issues.plist", "shelf.json"].map { output.appendingPathComponent($0).path }
        let before = try catalogs.map { try FileStatus.of($0) }

        let third = try build(fixture, into: output)
        #expect(third.problem == nil)
        #expect(third.fromIndex == ["f-1", "f-2"])
        #expect(third.reused == ["f-1", "f-2"])
        #expect(third.report.upToDate == ["f-1", "f-2"])
        #expect(try catalogs.map { try FileStatus.of($0) } == before)
        #expect(third.report.catalogEntries == 2)
    }

    /// The index goes to disk through a buffer: whatever its size, against the pieces, the file
    /// holds exactly the encoded bytes (pieces larger than the buffer, pieces that fill it).
    @Test(arguments: [1, 7, 64, 256 << 10])
    func theWrittenIndexIsTheEncodedOneWhateverTheBuffer(bufferSize: Int) throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2", "f-3"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let (index, _) = BuildIndex.load(output: output, clock: Self.later)
        let opening = MagazineValidator(folder: fixture.root, builtInSchema: MagazineFixture.builtInSchema).open()
        RecordedValidation.validate(
            issues: opening.issueNames, in: opening.magazine, records: try? OpenFolder.open(output), index: index, width: 2
        ) { _, _, _ in }
        let encoded = index.encoded()
        #expect(encoded.count > 256, "an index with entries: \(encoded.count) bytes")
        let elsewhere = try Shell.temporaryFolder()
        try index.write(in: try OpenFolder.open(elsewhere), bufferSize: bufferSize)
        #expect(try [UInt8](Data(contentsOf: indexURL(elsewhere))) == encoded)
    }

    @Test func anEditedIssueIsStillRebuiltAndItsOldEntryNotBelieved() throws {
        let (fixture, output) = try builtWithIndex()
        try editImage(fixture, "f-1")
        let run = try build(fixture, into: output)
        #expect(run.reused == ["f-2"])
        #expect(run.report.built == ["f-1"])
        // The catalog changed (a new bundle hash): written again, and as a clean build writes it.
        let clean = try Shell.temporaryFolder()
        _ = try build(fixture, into: clean)
        #expect(
            try Data(contentsOf: output.appendingPathComponent("issues.plist"))
                == Data(contentsOf: clean.appendingPathComponent("issues.plist")))
        // The next build takes f-2 from the index; f-1's new manifest is read (and remembered).
        let next = try build(fixture, into: output)
        #expect(next.fromIndex == ["f-2"])
        #expect(try build(fixture, into: output).fromIndex == ["f-1", "f-2"])
    }

    @Test func aManifestRewrittenAfterTheIndexIsReadNotTakenFromTheIndex() throws {
        let (fixture, output) = try builtWithIndex()
        let manifest = output.appendingPathComponent("f-1/.newsstand/manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        // Same size, other title: only the file's identity (inode, ctime) tells.
        try text.replacingOccurrences(of: "Issue f-1", with: "Issue F-1").write(to: manifest, atomically: false, encoding: .utf8)
        let run = try build(fixture, into: output)
        #expect(run.fromIndex == ["f-2"])
        let catalog = try String(contentsOf: output.appendingPathComponent("issues.plist"), encoding: .utf8)
        #expect(catalog.contains("<string>Issue F-1</string>"))
    }

    @Test func anIndexEditedToMatchAnEditedInputIsDistrusted() throws {
        let (fixture, output) = try builtWithIndex()
        let page = fixture.url("issues/f-1/assets/1-0.png")
        let old = try FileStatus.of(page.path)
        try editImage(fixture, "f-1")
        let new = try FileStatus.of(page.path)
        // Someone edits the index's record of the page to the new times (without its checksum,
        // as an editor or a broken cache would): believed, the edited page would be "unchanged".
        var bytes = try [UInt8](Data(contentsOf: indexURL(output)))
        for (from, to) in [(old.modified, new.modified), (old.changed, new.changed)] {
            let pattern = withUnsafeBytes(of: from.bitPattern.littleEndian, Array.init)
            let replacement = withUnsafeBytes(of: to.bitPattern.littleEndian, Array.init)
            let at = try #require(bytes.indices.first { bytes[$0..<min(bytes.count, $0 + 8)].elementsEqual(pattern) })
            bytes.replaceSubrange(at..<(at + 8), with: replacement)
        }
        try Data(bytes).write(to: indexURL(output))

        let run = try build(fixture, into: output)
        #expect(
            run.problem
                == "build index \(indexURL(output).path) is not used (its checksum does not match: it was edited or cut short); every issue's manifest is read instead"
        )
        #expect(run.fromIndex == [])
        #expect(run.report.built == ["f-1"])
        #expect(run.reused == ["f-2"])
    }

    @Test func aTruncatedIndexIsDistrustedAndReplaced() throws {
        let (fixture, output) = try builtWithIndex()
        let bytes = try Data(contentsOf: indexURL(output))
        try bytes.prefix(bytes.count / 2).write(to: indexURL(output))
        try editImage(fixture, "f-2")
        let run = try build(fixture, into: output)
        #expect(
            run.problem?.hasSuffix(
                "(its checksum does not match: it was edited or cut short); every issue's manifest is read instead") == true)
        #expect(run.report.built == ["f-2"])
        #expect(run.reused == ["f-1"])
        // A good index is written again.
        #expect(try build(fixture, into: output).problem == nil)
    }

    @Test func anIndexOfAnotherFormatVersionIsDistrusted() throws {
        let (fixture, output) = try builtWithIndex()
        var bytes = try Data(contentsOf: indexURL(output))
        let other = BuildIndex.version + 1
        bytes[BuildIndex.magic.count] = UInt8(other)
        try bytes.write(to: indexURL(output))
        let run = try build(fixture, into: output)
        #expect(
            run.problem
                == "build index \(indexURL(output).path) is not used (its format is version \(other), not \(BuildIndex.version)); every issue's manifest is read instead"
        )
        #expect(run.fromIndex == [])
        #expect(run.reused == ["f-1", "f-2"])
    }

    @Test func anIndexThatIsALinkIsNotFollowed() throws {
        let (fixture, output) = try builtWithIndex()
        let elsewhere = try Shell.temporaryFolder().appendingPathComponent("index")
        try FileManager.default.moveItem(at: indexURL(output), to: elsewhere)
        try FileManager.default.createSymbolicLink(at: indexURL(output), withDestinationURL: elsewhere)
        try editImage(fixture, "f-1")
        let run = try build(fixture, into: output)
        #expect(run.problem?.contains("is not used (") == true)
        #expect(run.problem?.contains("link") == true, "\(run.problem ?? "")")
        #expect(run.fromIndex == [])
        #expect(run.report.built == ["f-1"])
        // The link is replaced by a file of our own; its target is untouched.
        #expect((try FileStatus.of(indexURL(output).path)).kind == .regularFile)
        #expect(try Data(contentsOf: elsewhere).count > 0)
    }

    @Test func justWrittenManifestsAreNotRememberedUntilTheyAreASecondOld() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output, clock: BuildIndex.systemClock)
        // The manifest is a moment old: a write in the same clock tick would leave its identity as it is.
        _ = try build(fixture, into: output, clock: BuildIndex.systemClock)
        let index = try #require(try? BuildIndex.parse([UInt8](Data(contentsOf: indexURL(output)))).get())
        let manifest = try OpenFolder.open(output).folder("f-1")
        _ = try index.manifest(in: manifest, name: "f-1")
        #expect(index.issuesFromIndex == [])
    }

    @Test func aCatalogEditedOrRemovedBySomeoneIsWrittenAgain() throws {
        let (fixture, output) = try builtWithIndex()
        let catalog = output.appendingPathComponent("issues.plist")
        let good = try Data(contentsOf: catalog)
        let status = try FileStatus.of(catalog.path)
        // Same size, times set back: only the bytes tell.
        try Data(repeating: 0x20, count: good.count).write(to: catalog)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: status.modified)], ofItemAtPath: catalog.path)
        _ = try build(fixture, into: output)
        #expect(try Data(contentsOf: catalog) == good)

        try FileManager.default.removeItem(at: catalog)
        _ = try build(fixture, into: output)
        #expect(try Data(contentsOf: catalog) == good)
    }

    /// A no-change build checks a bundle index by the identity its bytes were verified with;
    /// one edited since (same size, times set back: only its ctime tells) is read again, found
    /// wrong, and the issue built again.
    @Test func aBundleIndexEditedAfterItsBytesWereVerifiedIsReadAgain() throws {
        let (fixture, output) = try builtWithIndex()
        let manifest = try #require(BuildManifest.read(in: output.appendingPathComponent("f-1")))
        let record = try #require(manifest.index)
        let folder = try OpenFolder.open(output).folder("f-1")
        let index = try #require(try? BuildIndex.parse([UInt8](Data(contentsOf: indexURL(output))), clock: Self.later).get())
        _ = try index.manifest(in: folder, name: "f-1")
        #expect(index.verifiedIdentity(of: record.file, issue: "f-1") == FileIdentity.of(record.file, in: folder))

        let url = output.appendingPathComponent("f-1").appendingPathComponent(record.file)
        let good = try Data(contentsOf: url)
        let status = try FileStatus.of(url.path)
        var edited = good
        edited[edited.count / 2] ^= 0x01
        try edited.write(to: url)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: status.modified)], ofItemAtPath: url.path)
        let run = try build(fixture, into: output)
        #expect(run.report.built == ["f-1"])
        #expect(run.report.upToDate == ["f-2"])
        #expect(try Data(contentsOf: url) == good)
    }

    /// The catalogs of a no-change build are known up to date from the manifests' identities
    /// alone, and everything it leaves is what a clean build writes.
    @Test func aNoChangeBuildLeavesWhatACleanBuildWrites() throws {
        let (fixture, output) = try builtWithIndex()
        let third = try build(fixture, into: output)
        #expect(third.report.upToDate == ["f-1", "f-2"])
        let index = try #require(try? BuildIndex.parse([UInt8](Data(contentsOf: indexURL(output)))).get())
        #expect(index.catalogRecord("issues.plist")?.sources.isEmpty == false)
        #expect(index.catalogRecord("shelf.json")?.sources.isEmpty == false)

        let clean = try Shell.temporaryFolder()
        _ = try build(fixture, into: clean)
        func files(_ root: URL) throws -> [String: Data] {
            var files: [String: Data] = [:]
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = walker?.nextObject() as? URL {
                guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
                let relative = String(url.path.dropFirst(root.path.count))
                if relative.hasSuffix("/.newsstand/build-index") { continue }
                files[relative] = try Data(contentsOf: url)
            }
            return files
        }
        let built = try files(output)
        #expect(built == (try files(clean)))
        #expect(built.keys.contains("/issues.plist"))
    }

    /// A manifest replaced since the catalogs were written (another identity) sends the build
    /// back to reading the manifests, even when no issue is built.
    @Test func aManifestReplacedUnderAnUnchangedCatalogIsRead() throws {
        let (fixture, output) = try builtWithIndex()
        let manifest = output.appendingPathComponent("f-2/.newsstand/manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "Issue f-2", with: "Issue F-2").write(to: manifest, atomically: true, encoding: .utf8)
        _ = try build(fixture, into: output)
        let catalog = try String(contentsOf: output.appendingPathComponent("issues.plist"), encoding: .utf8)
        #expect(catalog.contains("<string>Issue F-2</string>"))
    }

    @Test func theManifestCodecKeepsEveryField() throws {
        let (_, output) = try builtWithIndex(["f-1"])
        var manifest = try #require(BuildManifest.read(in: output.appendingPathComponent("f-1")))
        manifest.hpub = OutputRecord(file: "f-1.hpub", size: 7, sha256: String(repeating: "a", count: 64))
        manifest.epub = OutputRecord(file: "f-1.epub", size: 9, sha256: String(repeating: "b", count: 64))
        manifest.epubKey = String(repeating: "c", count: 32)
        manifest.retinaIndex = nil
        manifest.metadata.productID = "com.example.f1"
        manifest.metadata.access = .paid
        manifest.metadata.language = "pt-BR"
        manifest.optimized = true
        manifest.validation?.derived = ["1-0.png", "cover.png"]
        manifest.inputs.append(InputRecord(path: "assets/old.png", size: 3, modified: 1.5, changed: nil, xxh3: nil))
        manifest.validation?.diagnostics.append(
            Diagnostic(.assetUnreferenced, "unused", at: SourceLocation(file: "issues/f-1/assets/x.png", line: 3, column: nil)))
        let bytes = ManifestCodec.encode(manifest)
        #expect(try bytes.withUnsafeBytes { try ManifestCodec.decode($0, omittingInputs: false) } == manifest)
        // Cut anywhere, it does not decode.
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: RecordReader.Malformed.self) {
                try bytes.prefix(length).withUnsafeBytes { try ManifestCodec.decode($0, omittingInputs: false) }
            }
        }
        // A field added to the manifest must be added to the codec too (and this count).
        let validation = try #require(manifest.validation)
        let diagnostic = try #require(validation.diagnostics.last)
        let counts = [
            Mirror(reflecting: manifest).children.count, Mirror(reflecting: manifest.metadata).children.count,
            Mirror(reflecting: manifest.bundle).children.count, Mirror(reflecting: manifest.inputs[0]).children.count,
            Mirror(reflecting: validation).children.count, Mirror(reflecting: diagnostic).children.count,
            Mirror(reflecting: try #require(diagnostic.location)).children.count,
        ]
        #expect(counts == [16, 7, 3, 5, 6, 4, 3])
    }
}
