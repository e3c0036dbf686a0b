import Foundation
import NewsstandTestSupport

/// Inputs for `newsstand import` tests, made with tools we did not write: PDFs drawn with cairo
/// (python3-cairo), encrypted with qpdf, page images converted by the vips tool, and a
/// magazine copied from the sample.
enum ImportFixtures {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Debian's Python, which has python3-cairo (a python3 earlier on PATH may not).
    static var python: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    }

    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let result = try Shell.run(program, arguments)
        guard result.status == 0 else {
            throw Failure(description: "\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// A PDF of pages of `sizes` (points), each with a heading naming its page, text and a box.
    static func pdf(_ path: URL, pages sizes: [(Double, Double)]) throws {
        let list = sizes.map { "(\($0.0), \($0.1))" }.joined(separator: ", ")
        let script = """
            import cairo, sys
            sizes = [\(list)]
            s = cairo.PDFSurface(sys.argv[1], sizes[0][0], sizes[0][1])
            c = cairo.Context(s)
            for i, (w, h) in enumerate(sizes):
                s.set_size(w, h)
                c.set_source_rgb(1, 1, 1); c.paint()
                c.set_source_rgb(0.1, 0.3, 0.8); c.rectangle(40, 120, w - 80, 50); c.fill()
                c.set_source_rgb(0, 0, 0)
                c.select_font_face("DejaVu Sans"); c.set_font_size(26)
                c.move_to(40, 80); c.show_text("Page %d" % (i + 1))
                c.set_font_size(11)
                for line in range(12):
                    c.move_to(40, 200 + line * 16)
                    c.show_text("Imported from print: line %d of page %d." % (line, i + 1))
                c.show_page()
            s.finish()
            """
        try run(python, ["-c", script, path.path])
    }

    /// The sample magazine, copied; `deriveNormalSize` sets that key in magazine.plist (nil:
    /// absent).
    static func magazine(deriveNormalSize: Bool? = false) throws -> URL {
        let magazine = try Shell.temporaryFolder("import").appendingPathComponent("mag")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        if let deriveNormalSize {
            let settings = magazine.appendingPathComponent("magazine.plist")
            let text = try String(contentsOf: settings, encoding: .utf8)
            let key = "    <key>DeriveNormalSize</key>\n    <\(deriveNormalSize)/>\n</dict>"
            try Data(text.replacingOccurrences(of: "</dict>", with: key).utf8).write(to: settings)
        }
        if deriveNormalSize == false {
            // The sample's a-3 keeps only @2x masters: without derivation it needs its normal
            // sizes given.
            let assets = magazine.appendingPathComponent("issues/a-3/assets")
            let normals = try sampleNormalSizes.get()
            for name in try FileManager.default.contentsOfDirectory(atPath: normals.path) {
                try FileManager.default.copyItem(
                    at: normals.appendingPathComponent(name), to: assets.appendingPathComponent(name))
            }
        }
        return magazine
    }

    /// The normal sizes of the sample's a-3 masters, made once per test process by the vips tool
    /// (half size, Lanczos3) into a folder of their own: about twenty tests need them, and each
    /// `vips` start costs more than its resize.
    private static let sampleNormalSizes = Result { () throws -> URL in
        let folder = try Shell.temporaryFolder("sample-normal-sizes")
        let assets = Shell.repositoryRoot.appendingPathComponent("Samples/aurora/issues/a-3/assets")
        for master in try FileManager.default.contentsOfDirectory(atPath: assets.path) where master.hasSuffix("@2x.png") {
            let normal = master.replacingOccurrences(of: "@2x.png", with: ".png")
            try run(
                "vips",
                [
                    "resize", assets.appendingPathComponent(master).path, folder.appendingPathComponent(normal).path, "0.5",
                    "--kernel", "lanczos3",
                ])
        }
        return folder
    }

    /// An image of `width` × `height` in the format of `path`'s extension, made by the vips tool
    /// from a horizontal gradient, or from Gaussian noise (which does not compress).
    static func image(_ path: URL, width: Int, height: Int, noise: Bool = false) throws {
        let source = path.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).v")
        if noise {
            try run("vips", ["gaussnoise", source.path, "\(width)", "\(height)", "--mean", "128", "--sigma", "40"])
        } else {
            try run("vips", ["xyz", source.path, "\(width)", "\(height)"])
        }
        let band = path.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).v")
        try run("vips", ["extract_band", source.path, band.path, "0"])
        let scaled = path.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).v")
        try run("vips", ["cast", band.path, scaled.path, "uchar"])
        let colour = path.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).v")
        try run("vips", ["bandjoin_const", scaled.path, colour.path, "90 160"])
        try run("vips", ["copy", colour.path, path.path])
        for file in [source, band, scaled, colour] { try? FileManager.default.removeItem(at: file) }
    }

    /// The plist at `url`, read by Python's plistlib, as JSON (dates as ISO text).
    static func plist(_ url: URL) throws -> Any {
        let script = """
            import json, plistlib, sys, datetime
            with open(sys.argv[1], 'rb') as f:
                value = plistlib.load(f)
            print(json.dumps(value, default=lambda v: v.strftime('%Y-%m-%dT%H:%M:%SZ')))
            """
        return try JSONSerialization.jsonObject(with: Data(try run(python, ["-c", script, url.path]).utf8))
    }

    /// Width and height as the vips tool's header reader sees them.
    static func size(_ path: URL) throws -> [Int] {
        try ["width", "height"].map { field in
            Int(try run("vipsheader", ["-f", field, path.path]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
    }

    /// The entries of `folder` (not recursive), sorted.
    static func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
