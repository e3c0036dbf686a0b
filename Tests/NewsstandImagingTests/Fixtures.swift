import Foundation
import NewsstandTestSupport
import Testing

/// Makes the tests' images with tools we did not write (the vips command, Python's zlib,
/// cairo, qpdf) and checks outputs with them.
enum Fixtures {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts")

    /// Debian's Python, which has python3-cairo (a python3 earlier on PATH may not).
    static var python: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    }

    /// A new folder for one test.
    static func folder(_ label: String = "imaging") throws -> URL {
        try Shell.temporaryFolder(label)
    }

    /// Runs a program and fails the test with its output when it fails.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let result = try Shell.run(program, arguments, environment: environment)
        guard result.status == 0 else {
            throw FixtureFailure(
                message: "\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// The `vips` command line tool (libvips-tools).
    @discardableResult
    static func vips(_ arguments: String...) throws -> String { try run("vips", arguments) }

    /// A PNG made by make_png.py; see it for the keys (`colourType`, `bitDepth`, `pattern`, …).
    @discardableResult
    static func png(_ path: URL, width: Int, height: Int, _ options: [String: Any] = [:]) throws -> URL {
        var spec = options
        spec["path"] = path.path
        spec["width"] = width
        spec["height"] = height
        let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        try run(python, [scripts.appendingPathComponent("make_png.py").path, json])
        return path
    }

    /// "same" when two PNGs show the same pixels, decoded by png_pixels.py (zlib only), else the
    /// first difference.
    static func pngPixelComparison(_ a: URL, _ b: URL) throws -> String {
        try run(python, [scripts.appendingPathComponent("png_pixels.py").path, a.path, b.path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A JPEG converted by the vips tool from a PNG made by make_png.py.
    @discardableResult
    static func jpeg(_ path: URL, width: Int, height: Int, quality: Int = 85, _ options: [String: Any] = [:]) throws -> URL {
        let png = path.deletingPathExtension().appendingPathExtension("source.png")
        try Fixtures.png(png, width: width, height: height, options)
        try vips("copy", png.path, "\(path.path)[Q=\(quality)]")
        try FileManager.default.removeItem(at: png)
        return path
    }

    /// Width and height as the vips tool's header reader sees them.
    static func size(_ path: URL) throws -> (width: Int, height: Int) {
        let width = try run("vipsheader", ["-f", "width", path.path]).trimmingCharacters(in: .whitespacesAndNewlines)
        let height = try run("vipsheader", ["-f", "height", path.path]).trimmingCharacters(in: .whitespacesAndNewlines)
        return (Int(width) ?? -1, Int(height) ?? -1)
    }

    /// A PDF drawn with cairo: one page per entry of `pages` (width and height in points), each
    /// with a heading, a paragraph of text and a coloured box.
    static func pdf(_ path: URL, pages: [(Double, Double)]) throws {
        let sizes = pages.map { "(\($0.0), \($0.1))" }.joined(separator: ", ")
        let script = """
            import cairo, sys
            sizes = [\(sizes)]
            s = cairo.PDFSurface(sys.argv[1], sizes[0][0], sizes[0][1])
            c = cairo.Context(s)
            for i, (w, h) in enumerate(sizes):
                s.set_size(w, h)
                c.set_source_rgb(1, 1, 1); c.paint()
                c.set_source_rgb(0.8, 0.1, 0.1); c.rectangle(40, 140, w - 80, 60); c.fill()
                c.set_source_rgb(0, 0, 0)
                c.select_font_face("DejaVu Serif"); c.set_font_size(28)
                c.move_to(40, 80); c.show_text("Page %d of the spring issue" % (i + 1))
                c.set_font_size(11)
                for line in range(20):
                    c.move_to(40, 240 + line * 16)
                    c.show_text("The quick brown fox jumps over the lazy dog, line %d." % line)
                c.show_page()
            s.finish()
            """
        try run(python, ["-c", script, path.path])
    }
}

struct FixtureFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension Data {
    /// The bytes of a file, for comparing outputs.
    static func of(_ url: URL) throws -> Data { try Data(contentsOf: url) }
}
