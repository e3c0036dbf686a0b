import Foundation
import NewsstandCore
import NewsstandFormat

/// Cache-safe names: a short content hash in the name of each bundle, index and cover
/// (`a-1.3fa9c1e2.zip`, `a-1.3fa9c1e2@2x.zip`, `a-1.3fa9c1e2.index.json`), so their URLs can be cached forever. One hash
/// covers both sizes, so the `@2x` URL still follows from the normal one by the `@2x` rule.
enum VersionedNames {
    /// Inserts `.tag` before the extension of a normal-size name.
    static func name(_ normal: String, tag: String) -> String {
        guard let dot = normal.lastIndex(of: "."), dot != normal.startIndex else { return "\(normal).\(tag)" }
        return "\(normal[..<dot]).\(tag)\(normal[dot...])"
    }

    /// The tag for a pair of files: the first 8 hex digits of the SHA-256 of both digests.
    static func tag(_ normal: OutputRecord, _ retina: OutputRecord) -> String {
        String(SHA256.hex(of: Data((normal.sha256 + retina.sha256).utf8)).prefix(8))
    }

    /// The versioned names of the outputs, in the manifest's order (`outputs`): a bundle's
    /// index takes its bundle's tag (`a-1.3fa9c1e2.index.json`, `a-1.3fa9c1e2.index@2x.json`),
    /// as it describes that bundle's bytes; the Baker book's and the EPUB's tag is each one's
    /// own SHA-256's first 8 hex digits.
    static func names(for manifest: BuildManifest) -> [String] {
        let planned = plannedNames(for: manifest)
        return [planned.bundle, RetinaName.of(planned.bundle)]
            + (manifest.index != nil ? [planned.index, RetinaName.of(planned.index)] : [])
            + [planned.cover, RetinaName.of(planned.cover)] + [planned.book, planned.epub].compactMap { $0 }
    }

    private static func plannedNames(
        for manifest: BuildManifest
    ) -> (bundle: String, index: String, cover: String, book: String?, epub: String?) {
        let bundleName = name("\(manifest.name).zip", tag: tag(manifest.bundle, manifest.retinaBundle))
        let coverName = name(manifest.metadata.cover, tag: tag(manifest.cover, manifest.retinaCover))
        let book = manifest.hpub.map { name($0.file, tag: String($0.sha256.prefix(8))) }
        let epub = manifest.epub.map { name($0.file, tag: String($0.sha256.prefix(8))) }
        return (bundleName, BundleIndex.fileName(forBundle: bundleName), coverName, book, epub)
    }

    /// Renames the outputs to their versioned names and records them: the covers in
    /// `folder` (`<output>/<name>`), the bundles, indexes, book and EPUB in `content` (the same
    /// folder, or `paid/<name>`).
    static func apply(to manifest: inout BuildManifest, in folder: OpenFolder, content: OpenFolder) throws(FileSystemError) {
        let names = plannedNames(for: manifest)
        try rename(&manifest.bundle, to: names.bundle, in: content)
        try rename(&manifest.retinaBundle, to: RetinaName.of(names.bundle), in: content)
        if var index = manifest.index, var retinaIndex = manifest.retinaIndex {
            try rename(&index, to: names.index, in: content)
            try rename(&retinaIndex, to: RetinaName.of(names.index), in: content)
            (manifest.index, manifest.retinaIndex) = (index, retinaIndex)
        }
        try rename(&manifest.cover, to: names.cover, in: folder)
        try rename(&manifest.retinaCover, to: RetinaName.of(names.cover), in: folder)
        if var book = manifest.hpub, let name = names.book {
            try rename(&book, to: name, in: content)
            manifest.hpub = book
        }
        if var epub = manifest.epub, let name = names.epub {
            try rename(&epub, to: name, in: content)
            manifest.epub = epub
        }
    }

    private static func rename(_ record: inout OutputRecord, to name: String, in folder: OpenFolder) throws(FileSystemError) {
        try folder.rename(record.file, to: name)
        record.file = name
    }
}
