import Foundation
import NewsstandArchive
import NewsstandTestSupport
import Testing

/// A writer dropped half-way adds nothing on its way out, as Python's zipfile sees it: no
/// archive. The writer's other failures are in `ZipWriterFailureTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct ZipWriterDroppedTests {
    let base = ZipWriterFailureTests()

    /// Dropped right after an entry failed half-way, the writer adds nothing on its way out
    /// (freeing an open libarchive writer closes it, which would write a central directory).
    @Test func aWriterDroppedHalfWayAddsNothing() throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let archive = folder.appendingPathComponent("out.zip")
        do {
            let writer = try ZipWriter(url: archive)
            try base.addShrinkingFile(to: writer, in: folder)
        }
        let python = try Shell.python("import sys, zipfile; zipfile.ZipFile(sys.argv[1])", [archive.path])
        #expect(python.status == 1 && python.stderr.contains("File is not a zip file"), "\(python.stderr)")
        // issue.plist: header (30 + name + 24 of extra fields) and its 10 deflated bytes, no
        // descriptor; shrinking.png: its header's place and the one chunk read before it shrank.
        let size = try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int
        #expect(size == 30 + 11 + 24 + 10 + 30 + 13 + 24 + (1 << 18))
    }
}
