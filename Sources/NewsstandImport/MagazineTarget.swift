import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// The magazine an import writes into, checked before anything is rendered: it has a
/// `magazine.plist`, a `SimplePage` class that a page with only a `baseImage` satisfies, and
/// says whether the build derives normal sizes (`DeriveNormalSize`).
struct MagazineTarget {
    let folder: URL
    /// Whether `build` makes each normal-size image from its `@2x` master (`DeriveNormalSize`,
    /// on when absent): then only the masters are written.
    let derivesNormalSizes: Bool

    /// The key in `magazine.plist`.
    static let deriveNormalSizeKey = "DeriveNormalSize"

    init(_ folder: URL, builtInSchema: URL) throws(ImportError) {
        self.folder = folder
        guard FileStatus.kind(of: folder) == .folder else {
            throw .notAMagazine(path: folder.path, reason: "it does not exist or is not a folder")
        }
        let settings = folder.appendingPathComponent("magazine.plist")
        guard FileStatus.kind(of: settings) != nil else {
            throw .notAMagazine(path: folder.path, reason: "it has no magazine.plist ('newsstand init' creates a magazine)")
        }
        let root: PlistNode
        do {
            root = try PlistReader.read(contentsOf: settings, displayPath: "magazine.plist")
        } catch {
            throw .magazineSettings(path: settings.path, reason: Self.describe(error.diagnostics))
        }
        derivesNormalSizes = try Self.derivesNormalSizes(root, path: settings.path)
        try Self.checkSimplePage(folder, builtInSchema: builtInSchema)
    }

    /// `DeriveNormalSize`: true when absent; a value that is not a boolean is an error (the
    /// import would otherwise guess which images the build expects).
    static func derivesNormalSizes(_ root: PlistNode, path: String) throws(ImportError) -> Bool {
        guard root.entries != nil else {
            throw .magazineSettings(path: path, reason: "it must be a dict, found \(root.kindName)")
        }
        guard let node = root[deriveNormalSizeKey] else { return true }
        guard case .scalar(.boolean(let value)) = node.value else {
            throw .magazineSettings(
                path: path,
                reason: "line \(node.line): \(deriveNormalSizeKey) must be <true/> or <false/>, found \(node.kindName)")
        }
        return value
    }

    /// The pages an import writes are `SimplePage`s with a `baseImage`: the magazine's schema
    /// must have that class, with `baseImage` an image and nothing else required.
    static func checkSimplePage(_ folder: URL, builtInSchema: URL) throws(ImportError) {
        var diagnostics: [Diagnostic] = []
        var layers = [PageClassSchema.classes(in: builtInSchema, displayPath: builtInSchema.path, diagnostics: &diagnostics)]
        let own = folder.appendingPathComponent("page-classes.plist")
        if FileStatus.kind(of: own) != nil {
            layers.append(PageClassSchema.classes(in: own, displayPath: "page-classes.plist", diagnostics: &diagnostics))
        }
        let schema = PageClassSchema(layers: layers, diagnostics: &diagnostics)
        guard let properties = schema.properties(of: "SimplePage") else {
            let why = diagnostics.first { $0.severity == .error }.map { "; " + describe([$0]) } ?? ""
            throw .noSimplePage(reason: "no class SimplePage is declared or it does not resolve\(why)")
        }
        guard let base = properties.first(where: { $0.name == "baseImage" }), base.type == .image else {
            throw .noSimplePage(reason: "SimplePage has no 'baseImage' property of type image")
        }
        if let other = properties.first(where: { $0.isRequired && $0.name != "baseImage" }) {
            throw .noSimplePage(reason: "SimplePage requires '\(other.name)' too, which an imported page cannot give")
        }
    }

    /// The first problem of a plist that cannot be read, with its file and line.
    static func describe(_ diagnostics: [Diagnostic]) -> String {
        guard let first = diagnostics.first else { return "it cannot be read" }
        guard let location = first.location else { return first.message }
        return "\(location.file)\(location.line.map { ":\($0)" } ?? ""): \(first.message) [\(first.code.rawValue)]"
    }
}
