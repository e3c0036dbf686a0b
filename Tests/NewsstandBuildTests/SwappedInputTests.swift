import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// Inputs swapped for links (or edited) after validation: the build and the preview open every
/// input without following links and pack what they opened, so nothing outside the magazine
/// gets in, and a config that changed since validation is refused.
@Suite struct SwappedInputTests {
    /// A file outside the magazine that must never reach an output.
    private func secret() throws -> URL {
        let url = try Shell.temporaryFolder("secret").appendingPathComponent("secret.png")
        try (MagazineFixture.png(width: 10, height: 20) + Data("TOP SECRET".utf8)).write(to: url)
        return url
    }

    private func build(_ magazine: Magazine, _ plans: [IssuePlan]) throws -> (Result<BuildReport, BuildError>, URL) {
        let output = try Shell.temporaryFolder()
        let result = Result { () throws(BuildError) -> BuildReport in
            try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 2)).build(plans)
        }
        return (result, output)
    }

    /// No file under `output` holds the secret's bytes.
    private func expectNoSecret(in output: URL) throws {
        let holders = FolderSearch.files(under: output, containing: "TOP SECRET")
        #expect(holders.isEmpty, "the secret reached \(holders)")
    }

    @Test func anAssetSwappedForALinkIsNotPacked() throws {
        let fixture = try MagazineFixture()
        let (magazine, plans) = try fixture.plans()
        try fixture.remove("issues/f-1/assets/2-0@2x.png")
        try FileManager.default.createSymbolicLink(
            at: fixture.url("issues/f-1/assets/2-0@2x.png"), withDestinationURL: try secret())
        let (result, output) = try build(magazine, plans)
        #expect(throws: BuildError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(error.issue == "f-1")
            #expect(error.path.hasSuffix("issues/f-1/assets/2-0@2x.png"))
            #expect(error.reason.hasPrefix("it is a symbolic link (to '"), "\(error.reason)")
            #expect(error.reason.hasSuffix("'); newsstand packs only regular files"), "\(error.reason)")
        }
        try expectNoSecret(in: output)
    }

    @Test func anAssetsFolderOrIssueFolderSwappedForALinkIsNotRead() throws {
        for swapped in ["issues/f-1/assets", "issues/f-1"] {
            let fixture = try MagazineFixture()
            let (magazine, plans) = try fixture.plans()
            let copy = try Shell.temporaryFolder("swapped").appendingPathComponent("copy")
            try FileManager.default.moveItem(at: fixture.url(swapped), to: copy)
            try FileManager.default.createSymbolicLink(at: fixture.url(swapped), withDestinationURL: copy)
            let (result, output) = try build(magazine, plans)
            if case .failure(let error) = result {
                #expect(error.path.hasSuffix(swapped), "\(error)")
                #expect(error.reason.hasPrefix("it is a symbolic link (to '"), "\(error.reason)")
                #expect(error.reason.hasSuffix("; newsstand reads an issue only from real folders"), "\(error.reason)")
            } else {
                Issue.record("\(swapped) swapped for a link was built through")
            }
            let files = FolderSnapshot(output).paths
            #expect(!files.contains { $0.hasSuffix(".zip") }, "\(files)")
        }
    }

    @Test func aPageConfigEditedAfterValidationIsRefused() throws {
        let fixture = try MagazineFixture()
        let (magazine, plans) = try fixture.plans()
        try fixture.write(
            "issues/f-1/pages.plist", MagazineFixture.defaultPages.replacingOccurrences(of: "1-0.png", with: "../../x.png"))
        let (result, _) = try build(magazine, plans)
        if case .failure(let error) = result {
            #expect(error.path.hasSuffix("issues/f-1/pages.plist"))
            #expect(error.reason == "it changed after it was validated; run the build again")
        } else {
            Issue.record("a page config changed after validation was packed")
        }
    }
}
