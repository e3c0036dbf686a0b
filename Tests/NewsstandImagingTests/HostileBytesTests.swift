import Foundation
import NewsstandImaging
import NewsstandTestSupport
import Testing

/// Inputs that are not images at all, made in process: a FIFO, an SVG named like a PNG, bytes
/// that are no image. Hostile images made by Python and vips are in `HostileInputTests`.
@Suite struct HostileBytesTests {
    let deriver = NormalSizeDeriver()

    /// A FIFO would block a reader forever; it is refused at once.
    @Test func aFIFOIsRefusedWithoutWaiting() throws {
        let folder = try Shell.temporaryFolder("imaging")
        let fifo = folder.appendingPathComponent("pipe@2x.png")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        #expect(throws: ImagingError.cannotOpen(path: fifo.path, reason: "it is not a regular file")) {
            try deriver.derive(from: .path(fifo.path), to: .newFile(folder.appendingPathComponent("o.png").path))
        }
    }

    /// An SVG can make its renderer read other files; libvips would render it whatever its name.
    @Test func anSVGNamedPNGIsRefused() throws {
        let folder = try Shell.temporaryFolder("imaging")
        let svg = folder.appendingPathComponent("sneaky@2x.png")
        try Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">
            <image xlink:href="file:///etc/passwd" width="40" height="40"/></svg>
            """.utf8
        ).write(to: svg)
        let out = folder.appendingPathComponent("o.png")
        #expect(throws: ImagingError.unsupportedFormat(path: svg.path, found: "SVG", accepted: [.png, .jpeg, .webp])) {
            try deriver.derive(from: .path(svg.path), to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func bytesThatAreNoImageAreRefused() throws {
        let folder = try Shell.temporaryFolder("imaging")
        let junk = folder.appendingPathComponent("junk@2x.png")
        try Data("not an image at all".utf8).write(to: junk)
        #expect(throws: ImagingError.unsupportedFormat(path: junk.path, found: nil, accepted: [.png, .jpeg, .webp])) {
            try deriver.derive(from: .path(junk.path), to: .newFile(folder.appendingPathComponent("o.png").path))
        }
    }
}
