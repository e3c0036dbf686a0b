import Foundation
import NewsstandCore
import NewsstandFormat

/// A file a build wrote into the issue's output folder.
public struct OutputRecord: Sendable, Codable, Equatable {
    /// File name in the issue's output folder.
    public var file: String
    public var size: Int64
    public var sha256: String
}

/// What an issue's output was built from and what it holds: the record that makes rebuilds
/// incremental and lets `newsstand catalog` write an issue's catalog entry from its output
/// folder alone. Kept in `<output>/<name>/.newsstand/manifest.json`; never published.
public struct BuildManifest: Sendable, Codable, Equatable {
    public var toolVersion: String
    public var name: String
    public var metadata: IssueMetadata
    public var inputs: [InputRecord]
    /// The normal bundle, the `@2x` bundle, the cover and the `@2x` cover, in that order.
    public var bundle: OutputRecord
    public var retinaBundle: OutputRecord
    public var cover: OutputRecord
    public var retinaCover: OutputRecord
    /// The indexes of the normal and `@2x` bundles (`BundleIndex`); nil in records of builds
    /// before indexes, which are then rebuilt.
    public var index: OutputRecord?
    public var retinaIndex: OutputRecord?
    /// The Baker book (`<name>.hpub`), when the build wrote one (`--feed shelf`).
    public var hpub: OutputRecord?
    /// The fixed-layout EPUB (`<name>.epub`), when the build wrote one (`--feed epub`).
    public var epub: OutputRecord?
    /// What the EPUB took from the magazine (`EPUBSettings.key`: its publisher and identifier):
    /// a change there makes it again. Nil when there is no EPUB.
    public var epubKey: String?
    /// Whether the outputs carry content hashes in their names (`build --versioned`).
    public var isVersioned: Bool
    /// Whether the bundles' images went through `--optimize`; nil when they did not.
    public var optimized: Bool?
    /// The issue's validation when it was built, reused while its inputs stay the same; nil in
    /// records of earlier versions.
    public var validation: ValidationRecord?

    /// The outputs: bundles, their indexes and covers in both sizes, and the Baker book and
    /// the EPUB when there are. In this order, which is the order publish uploads them in (a
    /// bundle before its index, so whatever names a file finds it there).
    public var outputs: [OutputRecord] {
        [bundle, retinaBundle] + [index, retinaIndex].compactMap { $0 } + [cover, retinaCover] + [hpub, epub].compactMap { $0 }
    }

    /// The content outputs (bundles, their indexes, the Baker book, the EPUB), in `outputs`
    /// order: in `contentFolder`, which for a paid issue is not where its covers and records are.
    public var contentOutputs: [OutputRecord] {
        [bundle, retinaBundle] + [index, retinaIndex].compactMap { $0 } + [hpub, epub].compactMap { $0 }
    }

    /// The folder of the content outputs, relative to the output folder (and to the BaseURL):
    /// `<name>` for a free issue, `paid/<name>` for a paid one. The covers and the records are
    /// always in `<name>`.
    public var contentFolder: String { metadata.access.contentFolder(of: name) }

    /// Every output's path relative to the output folder, in `outputs` order (`a-1/a-1.zip`,
    /// `paid/a-3/a-3.zip`, `a-3/cover.png`): where a build wrote it and a publish puts it.
    public var outputPaths: [(path: String, record: OutputRecord)] {
        let content = Set(contentOutputs.map(\.file))
        return outputs.map { record in ((content.contains(record.file) ? contentFolder : name) + "/" + record.file, record) }
    }

    /// The folder, inside an issue's output folder, that holds the manifest.
    public static let folderName = ".newsstand"
    static let fileName = "manifest.json"

    /// Where the manifest of the issue whose output folder is `issueOutput` lives.
    public static func url(in issueOutput: URL) -> URL {
        issueOutput.appendingPathComponent(folderName).appendingPathComponent(fileName)
    }

    /// Reads the manifest in an issue's output folder, if there is a readable one whose
    /// file names can be trusted (see `load(in:)`).
    public static func read(in issueOutput: URL) -> BuildManifest? {
        try? load(in: issueOutput)
    }

    /// Writes the manifest atomically into the open issue output folder.
    func write(in issueOutput: OpenFolder) throws(FileSystemError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Plain values always encode.
        let data = (try? encoder.encode(self)) ?? Data()
        // Best effort: a manifest lost to a power cut only makes the next build rebuild the issue.
        try AtomicFile.write(data, named: Self.fileName, in: try issueOutput.makeFolder(Self.folderName), .bestEffort)
    }

    /// The issue's catalog entry for a magazine hosted at `baseURL` (ending in `/`).
    public func catalogEntry(baseURL: URL) -> CatalogEntry {
        let content = folderURL(baseURL, contentFolder)
        var entry = CatalogEntry(
            name: name, title: metadata.title, date: metadata.date, cover: coverURL(baseURL: baseURL, retina: false),
            content: content + Self.escape(bundle.file))
        entry.summary = metadata.summary
        entry.productID = metadata.productID
        entry.access = metadata.access
        entry.contentSize = Int(bundle.size)
        entry.contentSHA256 = bundle.sha256
        entry.retinaContentSize = Int(retinaBundle.size)
        entry.retinaContentSHA256 = retinaBundle.sha256
        entry.coverSHA256 = cover.sha256
        entry.retinaCoverSHA256 = retinaCover.sha256
        if let index, let retinaIndex {
            entry.contentIndex = content + Self.escape(index.file)
            entry.contentIndexSize = Int(index.size)
            entry.contentIndexSHA256 = index.sha256
            entry.retinaContentIndexSize = Int(retinaIndex.size)
            entry.retinaContentIndexSHA256 = retinaIndex.sha256
        }
        return entry
    }

    /// The URL of the Baker book, when there is one.
    public func bookURL(baseURL: URL) -> String? {
        hpub.map { folderURL(baseURL, contentFolder) + Self.escape($0.file) }
    }

    /// The URL of the EPUB, when there is one: beside the bundles (in `contentFolder`), as
    /// the catalog gives them.
    public func epubURL(baseURL: URL) -> String? {
        epub.map { folderURL(baseURL, contentFolder) + Self.escape($0.file) }
    }

    /// The URL of a cover (`retina`: the `@2x` one), as the catalog gives the normal one:
    /// always in `<name>`, public for a paid issue too.
    public func coverURL(baseURL: URL, retina: Bool) -> String {
        folderURL(baseURL, name) + Self.escape((retina ? retinaCover : cover).file)
    }

    /// `BaseURL` + `folder` (`<name>` or `paid/<name>`) + `/`, each component escaped.
    private func folderURL(_ baseURL: URL, _ folder: String) -> String {
        let base = baseURL.absoluteString.hasSuffix("/") ? baseURL.absoluteString : baseURL.absoluteString + "/"
        return base + folder.split(separator: "/").map { Self.escape(String($0)) }.joined(separator: "/") + "/"
    }

    /// What a path component keeps unescaped: made once, not for every component of every entry.
    private static let componentAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return allowed
    }()

    private static func escape(_ component: String) -> String {
        component.addingPercentEncoding(withAllowedCharacters: componentAllowed) ?? component
    }
}
