import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// A paid issue's output: its content in `<output>/paid/<name>/`, its covers and records in
/// `<output>/<name>/`; reused while current, rebuilt when its content is gone, moved when its
/// access changes, removed when it leaves the magazine, and never written through a link.
@Suite struct PaidLayoutTests {
    /// A fixture whose `f-1` is paid.
    private func paidFixture(issues: [String] = ["f-1"]) throws -> MagazineFixture {
        let fixture = try MagazineFixture(issues: issues)
        try makePaid(fixture, "f-1", true)
        return fixture
    }

    private func makePaid(_ fixture: MagazineFixture, _ issue: String, _ paid: Bool) throws {
        let file = "issues/\(issue)/issue.plist"
        var text = try String(contentsOf: fixture.url(file), encoding: .utf8)
        text = text.replacingOccurrences(of: "<key>Access</key><string>paid</string></dict>", with: "</dict>")
        if paid { text = text.replacingOccurrences(of: "</dict>", with: "<key>Access</key><string>paid</string></dict>") }
        try fixture.write(file, text)
    }

    /// Validates (reusing the output's records, as `newsstand build` does) and builds.
    private func build(_ fixture: MagazineFixture, into output: URL) throws -> BuildReport {
        let opening = MagazineValidator(folder: fixture.root, builtInSchema: MagazineFixture.builtInSchema).open()
        let records = try? OpenFolder.open(output)
        var plans: [IssuePlan] = []
        for name in opening.issueNames {
            let (result, _) = RecordedValidation.validate(issue: name, in: opening.magazine, records: records)
            guard let plan = result.plan else { throw TestFailure("\(name) does not validate: \(result.diagnostics)") }
            plans.append(plan)
        }
        return try MagazineBuilder(magazine: opening.magazine, options: BuildOptions(output: output, jobs: 2)).build(plans)
    }

    private func files(_ folder: URL) -> [String] {
        FolderSnapshot(folder).entries.keys.filter { !$0.hasPrefix(".") && !$0.contains("/.") }.map {
            $0.replacingOccurrences(of: #"\.[0-9a-f]{8}"#, with: "", options: .regularExpression)
        }.sorted()
    }

    @Test func aPaidIssuesContentIsInPaidAndIsReusedWhileItIsThere() throws {
        let fixture = try paidFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        #expect(try build(fixture, into: output).built == ["f-1", "f-2"])
        #expect(
            files(output.appendingPathComponent("paid")) == [
                "f-1", "f-1/f-1.index.json", "f-1/f-1.index@2x.json", "f-1/f-1.zip", "f-1/f-1@2x.zip",
            ])
        #expect(files(output.appendingPathComponent("f-1")) == ["cover.png", "cover@2x.png"])
        #expect(files(output.appendingPathComponent("f-2")).count == 6, "a free issue keeps everything in its folder")
        let again = try build(fixture, into: output)
        #expect(again.built.isEmpty && again.upToDate == ["f-1", "f-2"])
        // A paid bundle gone: the issue is built again, into paid/ again.
        let bundle = try #require(
            try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("paid/f-1").path).first {
                $0.hasSuffix("@2x.zip")
            })
        try FileManager.default.removeItem(at: output.appendingPathComponent("paid/f-1/\(bundle)"))
        #expect(try build(fixture, into: output).built == ["f-1"])
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("paid/f-1/\(bundle)").path))
    }

    @Test func anIssueWhoseAccessChangesMovesAndLeavesNothingOfItsOwnBehind() throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let free = FolderSnapshot(output)
        try makePaid(fixture, "f-1", true)
        _ = try build(fixture, into: output)
        #expect(files(output.appendingPathComponent("f-1")) == ["cover.png", "cover@2x.png"])
        // The publisher's own file in paid/f-1 stays, with a warning; everything the build wrote goes.
        try Data("notes".utf8).write(to: output.appendingPathComponent("paid/f-1/notes.txt"))
        try makePaid(fixture, "f-1", false)
        let back = try build(fixture, into: output)
        #expect(
            back.warnings.contains { $0.contains("paid/f-1/notes.txt in place: newsstand did not write it") }, "\(back.warnings)")
        #expect(files(output.appendingPathComponent("paid")) == ["f-1", "f-1/notes.txt"])
        try FileManager.default.removeItem(at: output.appendingPathComponent("paid/f-1/notes.txt"))
        try makePaid(fixture, "f-1", true)
        _ = try build(fixture, into: output)
        try makePaid(fixture, "f-1", false)
        _ = try build(fixture, into: output)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("paid").path))
        let differences = FolderSnapshot(output).differences(from: free).filter { !$0.contains(".newsstand") }
        #expect(differences.isEmpty, "back where it started: \(differences)")
    }

    @Test func aPaidIssueThatLeavesTheMagazineTakesItsContentWithIt() throws {
        let fixture = try paidFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try fixture.remove("issues/f-1")
        let report = try build(fixture, into: output)
        #expect(report.removed == ["f-1"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("f-1").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("paid").path))
        #expect(
            try Catalog.decode(Data(contentsOf: output.appendingPathComponent("issues.plist"))).entries.map(\.name) == ["f-2"])
    }

    @Test(arguments: ["paid", "paid/f-1"]) func aLinkWherePaidContentGoesIsNeverWrittenThrough(link: String) throws {
        let fixture = try paidFixture()
        let output = try Shell.temporaryFolder()
        let elsewhere = try Shell.temporaryFolder("elsewhere")
        try FileManager.default.createDirectory(
            at: output.appendingPathComponent(link).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent(link), withDestinationURL: elsewhere)
        #expect(throws: BuildError.issueOutputIsALink(issue: "f-1", path: output.appendingPathComponent(link).path)) {
            _ = try build(fixture, into: output)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(
            !FileManager.default.fileExists(atPath: output.appendingPathComponent("f-1").path),
            "refused before anything was written")
    }

    @Test(arguments: ["paid", "Paid"]) func noIssueMayBeNamedPaid(name: String) throws {
        let fixture = try MagazineFixture(issues: [name])
        let found = fixture.validate().with(.issueNameUnsafe)
        #expect(found.map(\.location?.file) == ["issues/\(name)"])
        #expect(found.first?.message.contains("is reserved: paid issues' content is published under paid/") == true)
    }
}
