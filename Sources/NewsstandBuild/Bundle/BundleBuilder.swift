import Foundation
import NewsstandArchive
import NewsstandCore
import NewsstandFormat

/// What building one scale of an issue produced.
struct ScaleOutput: Sendable {
    var bundle: OutputRecord
    /// The bundle's index (`BundleIndex`), beside it.
    var index: OutputRecord
    var cover: OutputRecord
    var inputs: [InputRecord]
}

/// Builds one scale of an issue: the bundle (`<name>.zip` or `<name>@2x.zip`) and its index
/// (`<name>.index.json` or `<name>.index@2x.json`: `BundleIndex`) in the issue's content
/// folder (`<output>/<name>`, or `<output>/paid/<name>` for a paid issue), and the cover
/// (`cover.png` or `cover@2x.png`) in its output folder (`<output>/<name>`).
///
/// The archive holds `issue.plist`, `pages.plist` and every referenced asset at its root, in a
/// fixed order, with the issue's date as every entry's time and fixed permissions, so the
/// same inputs give the same bytes. Inputs (XXH3, for the record) and the archive (SHA-256, from
/// the bytes as they are written, for the catalog) are hashed while they stream through.
///
/// Inputs are opened through the issue's folder without following links and packed from the
/// descriptors that were checked (`IssueSource`). The configs go in as `PlistWriter` writes
/// them: exactly the values validated, in a form every reader parses, whatever XML quirks the
/// source file has (their source bytes are what the manifest records).
struct BundleBuilder {
    let plan: IssuePlan
    let retina: Bool
    /// The issue's output folder, opened (`<output>/<name>`): the cover, the image cache.
    let outputFolder: OpenFolder
    /// The folder of the bundle and its index: `outputFolder`, or `<output>/paid/<name>`.
    let contentFolder: OpenFolder
    /// The temporary name of each output, recorded before it is written (`outputNames`).
    let temporaryNames: [String: String]
    /// Derived and optimised images standing in for files of `assets/`.
    var images = PreparedImages()

    func build() throws(BuildError) -> ScaleOutput {
        let source = try IssueSource(plan)
        let assets = try source.assets()
        var inputs: [InputRecord] = []
        let bundleName = retina ? RetinaName.of("\(plan.name).zip") : "\(plan.name).zip"
        let (bundle, index) = try writeBundle(named: bundleName, source: source, assets: assets, inputs: &inputs)
        let coverName = retina ? RetinaName.of(plan.metadata.cover) : plan.metadata.cover
        let cover = try copyCover(named: coverName, source: source, assets: assets, inputs: &inputs)
        return ScaleOutput(bundle: bundle, index: index, cover: cover, inputs: inputs)
    }

    /// The index's name beside the normal bundle `a-1.zip` (`a-1.index.json`), or beside the
    /// `@2x` bundle by the `@2x` rule (`a-1.index@2x.json`), so the catalog's one
    /// `ContentIndex` URL gives both, as `Content` does.
    static func indexName(ofNormalBundle bundle: String, retina: Bool) -> String {
        let normal = BundleIndex.fileName(forBundle: bundle)
        return retina ? RetinaName.of(normal) : normal
    }

    /// The bundle and index names both scales write in the content folder (for the record of
    /// written files).
    static func contentNames(of plan: IssuePlan) -> [String] {
        let bundle = "\(plan.name).zip"
        return [
            bundle, RetinaName.of(bundle), indexName(ofNormalBundle: bundle, retina: false),
            indexName(ofNormalBundle: bundle, retina: true),
        ]
    }

    /// The cover names both scales write in the issue's output folder.
    static func coverNames(of plan: IssuePlan) -> [String] { [plan.metadata.cover, RetinaName.of(plan.metadata.cover)] }

    private func writeBundle(
        named name: String, source: IssueSource, assets: OpenFolder, inputs: inout [InputRecord]
    ) throws(BuildError) -> (bundle: OutputRecord, index: OutputRecord) {
        var configs: [(name: String, canonical: Data)] = []
        for config in ["issue.plist", "pages.plist"] {
            let (canonical, record) = try Self.canonical(config, of: source)
            configs.append((config, canonical))
            inputs.append(record)
        }
        var files: [(file: OpenFile, relative: String?, entry: String)] = []
        for asset in plan.assets {
            let file = asset.fileName(retina: retina)
            let opened = try images.open(file, source: source, assets: assets, outputFolder: outputFolder)
            files.append((opened.file, opened.recorded ? "assets/\(file)" : nil, file))
        }
        // The archive's SHA-256 and its stored entries' (for the index), from the bytes as
        // written; deflated entries' from their content as it is packed (no second read).
        let hashes = ArchiveHashes()
        let entryHasher = EntryHasher()
        let pending = try create(name, in: contentFolder)
        let size: Int64
        let entries: [ZipWrittenEntry]
        // Which entries are stored, in order: their hashes are `hashes`', the rest `entryHasher`'s.
        var stored: [Bool] = []
        do {
            let writer = try ZipWriter(
                descriptor: dup(pending.file.descriptor), path: pending.temporaryPath, onBlocks: hashes.observers)
            for (name, canonical) in configs {
                entryHasher.add(canonical)
                stored.append(false)
                try writer.addData(canonical, as: name, modified: plan.metadata.date, compression: .deflate)
            }
            var recorders: [InputRecorder] = []
            for item in files {
                // A cached image is not an input: what it was made from is recorded (`PreparedImages.inputs`).
                var recorder = item.relative.map { InputRecorder(relative: $0, file: item.file) }
                let compression = ZipCompression.suited(toFileName: item.entry)
                stored.append(compression == .store)
                try writer.addFile(
                    reading: item.file.descriptor, size: item.file.size, path: item.file.path, as: item.entry,
                    modified: plan.metadata.date, compression: compression
                ) {
                    recorder?.observe($0)
                    if compression != .store { entryHasher.update($0) }
                }
                if compression != .store { entryHasher.endEntry() }
                if let recorder { recorders.append(recorder) }
            }
            size = try writer.close()
            entries = writer.entries
            inputs += recorders.map { $0.finish() }
        } catch {
            pending.discard()
            _ = entryHasher.finish()
            throw .archive(issue: plan.name, error)
        }
        let bundle = OutputRecord(file: name, size: size, sha256: hashes.archiveDigest())
        let index: BundleIndex
        do {
            let digests = try Self.entryDigests(
                of: name, stored: stored, fromArchive: hashes.storedEntries, packed: entryHasher.finish())
            index = try BundleIndexMaker.index(of: bundle, entries: entries, sha256: digests)
        } catch {
            pending.discard()
            throw .archive(issue: plan.name, error)
        }
        // The index first: a bundle under its name always has its index beside it.
        let indexRecord = try writeIndex(index)
        try commit(pending)
        return (bundle, indexRecord)
    }

    /// Each entry's SHA-256, in the archive's order: a stored entry's from the archive's bytes,
    /// the others' from their content, in turn. A stored entry with no digest (the writer did
    /// not store it as asked) fails the build rather than give the index a wrong hash.
    static func entryDigests(
        of bundle: String, stored: [Bool], fromArchive: [Int: String], packed: [String]
    ) throws(ArchiveError) -> [String] {
        var packed = packed.makeIterator()
        var digests: [String] = []
        for (index, isStored) in stored.enumerated() {
            let digest = isStored ? fromArchive[index] : packed.next()
            guard let digest else { throw ArchiveError(path: bundle, reason: "entry \(index) was not hashed as it was written") }
            digests.append(digest)
        }
        guard packed.next() == nil else {
            throw ArchiveError(path: bundle, reason: "the entries hashed are not the entries written")
        }
        return digests
    }

    /// Writes the index under its name beside the bundle (a new file: what was at that name,
    /// a link or an edited copy, is replaced, never written through).
    private func writeIndex(_ index: BundleIndex) throws(BuildError) -> OutputRecord {
        let name = Self.indexName(ofNormalBundle: "\(plan.name).zip", retina: retina)
        let data = index.encoded()
        let pending = try create(name, in: contentFolder)
        do {
            try pending.file.write(data)
        } catch {
            pending.discard()
            throw .output(issue: plan.name, error)
        }
        try commit(pending)
        return OutputRecord(file: name, size: Int64(data.count), sha256: SHA256.hex(of: data))
    }

    /// A new file for the output `name` in `folder`, under the temporary name recorded for it.
    private func create(_ name: String, in folder: OpenFolder) throws(BuildError) -> AtomicFile {
        do {
            return try AtomicFile.create(named: name, in: folder, temporaryName: temporaryNames[name])
        } catch {
            throw .output(issue: plan.name, error)
        }
    }

    /// Gives a complete output its name. Best effort: an archive lost to a power cut is
    /// rebuilt from its sources (flushing every archive doubled a build's time, measured).
    private func commit(_ pending: AtomicFile) throws(BuildError) {
        do {
            try pending.commit(.bestEffort)
        } catch {
            throw .output(issue: plan.name, error)
        }
    }

    /// One config at a time in the whole process: a config may be 8 MiB and its tree several
    /// times that, so parallel jobs take turns here and memory does not grow with `--jobs`.
    static let configGate = NSLock()

    /// A config as `PlistWriter` writes it, and the record of its source bytes.
    private static func canonical(_ name: String, of source: IssueSource) throws(BuildError) -> (Data, InputRecord) {
        configGate.lock()
        defer { configGate.unlock() }
        let read = try source.config(name)
        var recorder = InputRecorder(relative: name, file: read.file)
        read.data.withUnsafeBytes { recorder.observe($0) }
        do {
            return (try PlistWriter.xml(read.root), recorder.finish())
        } catch {
            throw .configUnwritable(issue: source.plan.name, path: read.file.path, error)
        }
    }

    private func copyCover(
        named name: String, source: IssueSource, assets: OpenFolder, inputs: inout [InputRecord]
    ) throws(BuildError) -> OutputRecord {
        let (file, recorded) = try images.open(name, source: source, assets: assets, outputFolder: outputFolder)
        let pending = try create(name, in: outputFolder)
        var recorder = InputRecorder(relative: "assets/\(name)", file: file)
        // The cover is published as it is: the catalog gives its SHA-256, the record its XXH3.
        let sha256 = SHA256()
        do {
            try FileCopy.copy(file, to: pending.file) { chunk in
                recorder.observe(chunk)
                sha256.update(chunk)
            }
        } catch {
            pending.discard()
            throw error.path == file.path ? .inputFile(issue: plan.name, error) : .output(issue: plan.name, error)
        }
        try commit(pending)
        let record = recorder.finish()
        if recorded { inputs.append(record) }
        return OutputRecord(file: name, size: record.size, sha256: sha256.finalizeHex())
    }
}
