import Foundation
import NewsstandCore
import NewsstandFormat

/// A build manifest in the build index's binary form: the same values as `manifest.json`, read
/// without `JSONDecoder` (which was a quarter of a no-change build's CPU). What the catalog
/// needs comes first, so it can stop before the inputs and the validation.
enum ManifestCodec {
    static func encode(_ manifest: BuildManifest) -> [UInt8] {
        var out = RecordWriter()
        out.string(manifest.toolVersion)
        out.string(manifest.name)
        out.string(manifest.metadata.title)
        out.double(manifest.metadata.date.timeIntervalSinceReferenceDate)
        out.string(manifest.metadata.cover)
        out.optional(manifest.metadata.summary) { $0.string($1) }
        out.optional(manifest.metadata.productID) { $0.string($1) }
        out.string(manifest.metadata.access.rawValue)
        out.optional(manifest.metadata.language) { $0.string($1) }
        for record in [manifest.bundle, manifest.retinaBundle, manifest.cover, manifest.retinaCover] { write(record, to: &out) }
        out.optional(manifest.index) { write($1, to: &$0) }
        out.optional(manifest.retinaIndex) { write($1, to: &$0) }
        out.optional(manifest.hpub) { write($1, to: &$0) }
        out.optional(manifest.epub) { write($1, to: &$0) }
        out.optional(manifest.epubKey) { $0.string($1) }
        out.bool(manifest.isVersioned)
        out.bool(manifest.optimized ?? false)
        out.count(manifest.inputs.count)
        for input in manifest.inputs {
            out.string(input.path)
            out.signed(input.size)
            out.double(input.modified)
            out.optional(input.changed) { $0.double($1) }
            out.optional(input.xxh3) { $0.string($1) }
        }
        out.optional(manifest.validation) { out, validation in
            out.string(validation.key)
            out.string(validation.listing)
            out.count(validation.configDigests.count)
            for (name, digest) in validation.configDigests.sorted(by: { $0.key < $1.key }) {
                out.string(name)
                out.string(digest)
            }
            out.count(validation.assets.count)
            for asset in validation.assets {
                out.string(asset.kind.rawValue)
                out.string(asset.name)
            }
            out.count(validation.diagnostics.count)
            for diagnostic in validation.diagnostics {
                out.string(diagnostic.code.rawValue)
                out.string(diagnostic.severity.rawValue)
                out.optional(diagnostic.location) { out, location in
                    out.string(location.file)
                    out.optional(location.line) { $0.signed(Int64($1)) }
                    out.optional(location.column) { $0.signed(Int64($1)) }
                }
                out.string(diagnostic.message)
            }
            out.count(validation.derived.count)
            for name in validation.derived.sorted() { out.string(name) }
        }
        return out.bytes
    }

    /// Decodes a manifest; with `omittingInputs`, leaves `inputs` empty and `validation` nil (as
    /// `BuildManifest.load(in:omittingInputs:)` does). The bytes must be exactly one manifest.
    static func decode(_ bytes: UnsafeRawBufferPointer, omittingInputs: Bool) throws(RecordReader.Malformed) -> BuildManifest {
        var input = RecordReader(bytes)
        let toolVersion = try input.string()
        let name = try input.string()
        let title = try input.string()
        let date = Date(timeIntervalSinceReferenceDate: try input.double())
        let coverName = try input.string()
        let summary = try input.optional { r throws(RecordReader.Malformed) in try r.string() }
        let productID = try input.optional { r throws(RecordReader.Malformed) in try r.string() }
        guard let access = IssueAccess(rawValue: try input.string()) else { throw RecordReader.Malformed() }
        let language = try input.optional { r throws(RecordReader.Malformed) in try r.string() }
        let metadata = IssueMetadata(
            title: title, date: date, cover: coverName, summary: summary, productID: productID, access: access,
            language: language)
        let bundle = try output(&input)
        let retinaBundle = try output(&input)
        let cover = try output(&input)
        let retinaCover = try output(&input)
        let index = try input.optional { r throws(RecordReader.Malformed) in try output(&r) }
        let retinaIndex = try input.optional { r throws(RecordReader.Malformed) in try output(&r) }
        let hpub = try input.optional { r throws(RecordReader.Malformed) in try output(&r) }
        let epub = try input.optional { r throws(RecordReader.Malformed) in try output(&r) }
        let epubKey = try input.optional { r throws(RecordReader.Malformed) in try r.string() }
        let isVersioned = try input.bool()
        let optimized = try input.bool()
        var manifest = BuildManifest(
            toolVersion: toolVersion, name: name, metadata: metadata, inputs: [], bundle: bundle, retinaBundle: retinaBundle,
            cover: cover, retinaCover: retinaCover, index: index, retinaIndex: retinaIndex, hpub: hpub, epub: epub,
            epubKey: epubKey, isVersioned: isVersioned, optimized: optimized ? true : nil, validation: nil)
        if omittingInputs { return manifest }
        let inputCount = try input.count()
        manifest.inputs.reserveCapacity(inputCount)
        for _ in 0..<inputCount {
            let path = try input.string()
            let size = try input.signed()
            let modified = try input.double()
            let changed = try input.optional { r throws(RecordReader.Malformed) in try r.double() }
            let xxh3 = try input.optional { r throws(RecordReader.Malformed) in try r.string() }
            guard size >= 0 else { throw RecordReader.Malformed() }
            manifest.inputs.append(InputRecord(path: path, size: size, modified: modified, changed: changed, xxh3: xxh3))
        }
        manifest.validation = try input.optional { r throws(RecordReader.Malformed) in try validation(&r) }
        guard input.isAtEnd else { throw RecordReader.Malformed() }
        return manifest
    }

    private static func write(_ record: OutputRecord, to out: inout RecordWriter) {
        out.string(record.file)
        out.signed(record.size)
        out.string(record.sha256)
    }

    private static func output(_ input: inout RecordReader) throws(RecordReader.Malformed) -> OutputRecord {
        let file = try input.string()
        let size = try input.signed()
        let sha256 = try input.string()
        guard size >= 0 else { throw RecordReader.Malformed() }
        return OutputRecord(file: file, size: size, sha256: sha256)
    }

    private static func validation(_ input: inout RecordReader) throws(RecordReader.Malformed) -> ValidationRecord {
        let key = try input.string()
        let listing = try input.string()
        var digests: [String: String] = [:]
        for _ in 0..<(try input.count()) {
            let name = try input.string()
            guard digests.updateValue(try input.string(), forKey: name) == nil else { throw RecordReader.Malformed() }
        }
        var assets: [PlannedAsset] = []
        for _ in 0..<(try input.count()) {
            guard let kind = AssetKind(rawValue: try input.string()) else { throw RecordReader.Malformed() }
            assets.append(PlannedAsset(name: try input.string(), kind: kind))
        }
        var diagnostics: [Diagnostic] = []
        for _ in 0..<(try input.count()) {
            guard let code = DiagnosticCode(rawValue: try input.string()), let severity = Severity(rawValue: try input.string())
            else { throw RecordReader.Malformed() }
            let location = try input.optional { r throws(RecordReader.Malformed) in
                SourceLocation(
                    file: try r.string(), line: try r.optional { r throws(RecordReader.Malformed) in try Self.int(&r) },
                    column: try r.optional { r throws(RecordReader.Malformed) in try Self.int(&r) })
            }
            diagnostics.append(Diagnostic(code, try input.string(), at: location, severity: severity))
        }
        var derived: Set<String> = []
        for _ in 0..<(try input.count()) {
            guard derived.insert(try input.string()).inserted else { throw RecordReader.Malformed() }
        }
        return ValidationRecord(
            key: key, listing: listing, configDigests: digests, assets: assets, derived: derived, diagnostics: diagnostics)
    }

    private static func int(_ input: inout RecordReader) throws(RecordReader.Malformed) -> Int {
        let value = try input.signed()
        guard let int = Int(exactly: value) else { throw RecordReader.Malformed() }
        return int
    }
}
