/// Everything an extraction will do, decided from the central directory before one byte is
/// written: each entry's path checked (`ZipEntryPath`: the bundle rules' names and depth, macOS's
/// metadata left out), every file and folder it implies counted against the entry limit, its
/// kind (no links, devices, FIFOs),
/// method and encryption, duplicates (a file and a folder with one name too), reserved names,
/// the declared sizes against the limits, and no two entries' records overlapping (a zip bomb
/// that points many headers at one record inflates it many times from few bytes).
struct ZipExtractionPlan {
    /// A file to write.
    struct File {
        var entry: ZipCentralEntry
        var path: ZipEntryPath
        /// Where the next record (or the central directory) begins: this entry's record,
        /// data descriptor included, must end there or before.
        var recordLimit: Int64
    }

    /// Folders to create, parents first, as paths relative to the destination.
    var folders: [String] = []
    /// Files to write, in the order of their records in the archive (one pass over the file).
    var files: [File] = []
    /// The sum of the files' declared sizes.
    var declaredTotal: Int64 = 0

    init(_ archive: ZipArchive, limits: ZipExtractionLimits, reservedPrefixes: [String]) throws(ZipExtractionError) {
        let name = archive.source.name
        var folderSet: Set<String> = []
        var fileSet: Set<String> = []
        func addFolders(_ components: ArraySlice<String>) throws(ZipExtractionError) {
            var relative = ""
            for component in components {
                relative = relative.isEmpty ? component : relative + "/" + component
                if folderSet.contains(relative) { continue }
                if fileSet.contains(relative) { throw .duplicateEntry(archive: name, entry: relative) }
                folderSet.insert(relative)
                folders.append(relative)
                try checkCount()
            }
        }
        // Every folder a path implies is created, so each counts as an entry, as the files do.
        func checkCount() throws(ZipExtractionError) {
            guard folders.count + files.count <= limits.maxEntries else {
                throw .tooManyEntries(archive: name, limit: limits.maxEntries)
            }
        }
        for entry in archive.entries {
            guard let path = ZipEntryPath(entry.name) else { throw .unsafePath(archive: name, entry: entry.name) }
            if path.components.contains(where: { component in reservedPrefixes.contains { component.hasPrefix($0) } }) {
                throw .reservedName(archive: name, entry: entry.name)
            }
            switch path.disposition {
            case .write: break
            case .skip: continue
            case .refuse(let problem): throw .unsafeName(archive: name, entry: entry.name, problem: problem)
            }
            if let mode = entry.unixMode {
                switch mode & 0o170000 {
                case 0o120000: throw .link(archive: name, entry: entry.name)
                case 0, 0o040000, 0o100000: break
                default: throw .unsupportedEntryType(archive: name, entry: entry.name)
                }
            }
            if entry.isEncrypted { throw .encrypted(archive: name, entry: entry.name) }
            guard entry.method == ZipEntryData.stored || entry.method == ZipEntryData.deflated else {
                throw .unsupportedMethod(archive: name, entry: entry.name, method: ZipMethodName.of(entry.method))
            }
            if entry.isFolder || path.isFolder {
                guard entry.uncompressedSize == 0 else {
                    throw .corrupt(
                        archive: name,
                        reason: "the folder \(SafeRelativePath.quoted(entry.name)) has \(entry.uncompressedSize) bytes of data")
                }
                try addFolders(path.components[...])
                continue
            }
            try addFolders(path.components.dropLast())
            let relative = path.relativePath
            guard !fileSet.contains(relative), !folderSet.contains(relative) else {
                throw .duplicateEntry(archive: name, entry: entry.name)
            }
            fileSet.insert(relative)
            let (sum, overflow) = declaredTotal.addingReportingOverflow(entry.uncompressedSize)
            guard !overflow else { throw .tooLarge(archive: name, limit: limits.maxTotalSize) }
            declaredTotal = sum
            try ZipExtractionLimitCheck(limits: limits, archive: name, archiveSize: archive.source.size).check(declaredTotal)
            files.append(File(entry: entry, path: path, recordLimit: 0))
            try checkCount()
        }
        try placeRecords(archive)
    }

    /// Sorts the files by where their records are and gives each the offset it must end by;
    /// refuses records that overlap each other or the central directory.
    private mutating func placeRecords(_ archive: ZipArchive) throws(ZipExtractionError) {
        // Folder entries have records too: every entry's smallest record (its header and name,
        // its data) must end before the next one begins.
        let spans = archive.entries.map { entry in
            (
                start: entry.localHeaderOffset,
                end: entry.localHeaderOffset + Int64(ZipLocalHeader.fixedSize + entry.rawName.count) + entry.compressedSize,
                name: entry.name
            )
        }.sorted { $0.start < $1.start }
        var nextStart: [Int64: Int64] = [:]
        for (i, span) in spans.enumerated() {
            let limit = i + 1 < spans.count ? spans[i + 1].start : archive.end.directoryOffset
            guard span.end >= span.start, span.end <= limit else {
                throw .corrupt(
                    archive: archive.source.name,
                    reason:
                        "the record of \(SafeRelativePath.quoted(span.name)) overlaps the next record or the central directory")
            }
            nextStart[span.start] = limit
        }
        files.sort { $0.entry.localHeaderOffset < $1.entry.localHeaderOffset }
        for i in files.indices {
            files[i].recordLimit = nextStart[files[i].entry.localHeaderOffset] ?? archive.end.directoryOffset
        }
    }
}
