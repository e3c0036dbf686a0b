import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPreview
import NewsstandTestSupport
import Testing

/// The preview writes only into real folders and copies only what it opened without following
/// links: an issue folder of the preview that is a link, an image swapped for a link after
/// validation.
@Suite struct PreviewSafetyTests {
    /// A file outside the magazine that must never reach an output.
    private func secret() throws -> URL {
        let url = try Shell.temporaryFolder("secret").appendingPathComponent("secret.png")
        try (MagazineFixture.png(width: 10, height: 20) + Data("TOP SECRET".utf8)).write(to: url)
        return url
    }

    /// No file under `output` holds the secret's bytes.
    private func expectNoSecret(in output: URL) throws {
        let holders = FolderSearch.files(under: output, containing: "TOP SECRET")
        #expect(holders.isEmpty, "the secret reached \(holders)")
    }

    @Test func thePreviewDoesNotWriteThroughALinkedIssueFolder() throws {
        let fixture = try MagazineFixture()
        let (magazine, plans) = try fixture.plans()
        let output = try Shell.temporaryFolder("preview")
        let elsewhere = try Shell.temporaryFolder("elsewhere")
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent("f-1"), withDestinationURL: elsewhere)
        let writer = PreviewWriter(
            magazine: magazine, output: output,
            templates: MagazineFixture.repositoryRoot.appendingPathComponent("templates/preview"))
        let refused = PreviewError.folder(
            .symbolicLink(path: output.appendingPathComponent("f-1").path, target: elsewhere.path, expected: .folder))
        #expect(
            refused.description
                == "cannot write '\(output.appendingPathComponent("f-1").path)': it is a symbolic link; newsstand writes a preview only into real folders"
        )
        #expect(throws: refused) { _ = try writer.write(plans) }
        #expect(FolderSnapshot(elsewhere).paths.isEmpty)
    }

    @Test func thePreviewDoesNotCopyAnImageSwappedForALink() throws {
        let fixture = try MagazineFixture()
        let (magazine, plans) = try fixture.plans()
        try fixture.remove("issues/f-1/assets/1-0@2x.png")
        try FileManager.default.createSymbolicLink(
            at: fixture.url("issues/f-1/assets/1-0@2x.png"), withDestinationURL: try secret())
        let output = try Shell.temporaryFolder("preview")
        let writer = PreviewWriter(
            magazine: magazine, output: output,
            templates: MagazineFixture.repositoryRoot.appendingPathComponent("templates/preview"))
        #expect(throws: PreviewError.self) { _ = try writer.write(plans) }
        try expectNoSecret(in: output)
    }
}
