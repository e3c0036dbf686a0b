import Foundation
import NewsstandCore
import NewsstandFormat

/// Cache-safe names: a short content hash in the name of each bundle and cover
/// (`a-1.3fa9c1e2.zip`, `a-1.3fa9c1e2@2x.zip`), so their URLs can be cached forever. One hash
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

    /// The versioned names of the outputs, in the manifest's order (the Baker book's tag is
    /// its own SHA-256's first 8 hex digits).
    static func names(for manifest: BuildManifest) -> [String] {
        let bundleName = name("\(manifest.name).zip", tag: tag(manifest.bundle, manifest.retinaBundle))
        let coverName = name(manifest.metadata.cover, tag: tag(manifest.cover, manifest.retinaCover))
        let book = manifest.hpub.map { [name($0.file, tag: String($0.sha256.prefix(8)))] } ?? []
        return [bundleName, RetinaName.of(bundleName), coverName, RetinaName.of(coverName)] + book
    }

    /// Renames the outputs in `folder` to their versioned names and records them.
    static func apply(to manifest: inout BuildManifest, in folder: OpenFolder) throws(FileSystemError) {
        let names = names(for: manifest)
        try rename(&manifest.bundle, to: names[0], in: folder)
        try rename(&manifest.retinaBundle, to: names[1], in: folder)
        try rename(&manifest.cover, to: names[2], in: folder)
        try rename(&manifest.retinaCover, to: names[3], in: folder)
        if var book = manifest.hpub, names.count > 4 {
            try rename(&book, to: names[4], in: folder)
            manifest.hpub = book
        }
    }

    private static func rename(_ record: inout OutputRecord, to name: String, in folder: OpenFolder) throws(FileSystemError) {
        try folder.rename(record.file, to: name)
        record.file = name
    }
}
