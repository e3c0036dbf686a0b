import Foundation
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

    /// Renames the issue's outputs in `folder` to their versioned names and records them.
    static func apply(to manifest: inout BuildManifest, in folder: URL) throws {
        let bundleTag = tag(manifest.bundle, manifest.retinaBundle)
        let coverTag = tag(manifest.cover, manifest.retinaCover)
        let bundleName = name("\(manifest.name).zip", tag: bundleTag)
        let coverName = name(manifest.metadata.cover, tag: coverTag)
        try rename(&manifest.bundle, to: bundleName, in: folder)
        try rename(&manifest.retinaBundle, to: RetinaName.of(bundleName), in: folder)
        try rename(&manifest.cover, to: coverName, in: folder)
        try rename(&manifest.retinaCover, to: RetinaName.of(coverName), in: folder)
    }

    private static func rename(_ record: inout OutputRecord, to name: String, in folder: URL) throws {
        let from = folder.appendingPathComponent(record.file)
        let to = folder.appendingPathComponent(name)
        guard Foundation.rename(from.path, to.path) == 0 else {
            throw BuildError(issue: nil, path: from.path, reason: String(cString: strerror(errno)))
        }
        record.file = name
    }
}
