import Foundation

/// Writes a checked plan into the destination folder: the folders, then each file from its
/// record, checked against the central directory as it streams (`ZipLocalHeader.check`,
/// `ZipEntryData`). Files are created with `O_EXCL` and `O_NOFOLLOW` through open folders
/// (`OpenFolder`), so nothing is written through anything already there.
struct ZipFolderWriter {
    let archive: ZipArchive
    let plan: ZipExtractionPlan
    let destination: OpenFolder
    let sizeCheck: ZipExtractionLimitCheck
    let buffers = ZipBuffers()
    let inflater: ZipInflater
    var summary = ZipExtractionSummary()

    init(archive: ZipArchive, plan: ZipExtractionPlan, limits: ZipExtractionLimits, destination: OpenFolder)
        throws(ZipExtractionError)
    {
        guard let inflater = ZipInflater() else {
            throw .cannotOpen(archive: archive.source.name, reason: "zlib could not allocate its state")
        }
        self.archive = archive
        self.plan = plan
        self.destination = destination
        self.inflater = inflater
        sizeCheck = ZipExtractionLimitCheck(limits: limits, archive: archive.source.name, archiveSize: archive.source.size)
    }

    mutating func run() throws(ZipExtractionError) -> ZipExtractionSummary {
        var open = ZipOpenFolders(root: destination)
        for folder in plan.folders {
            do throws(FileSystemError) {
                let components = folder.split(separator: "/").map(String.init)
                guard let name = components.last else { throw FileSystemError.invalidName(path: destination.path, name: folder) }
                let parent = try open.folder(at: components.dropLast())
                try parent.checkName(name)
                guard mkdirat(parent.descriptor, name, 0o755) == 0 else { throw FileSystemError.fromErrno(parent.path(of: name)) }
            } catch {
                throw .writeFailed(path: error.path, reason: error.reason)
            }
            summary.folderCount += 1
        }
        for file in plan.files {
            try write(file, folders: &open)
        }
        return summary
    }

    private mutating func write(_ file: ZipExtractionPlan.File, folders: inout ZipOpenFolders) throws(ZipExtractionError) {
        let entry = file.entry
        let header = try ZipLocalHeader.read(archive.source, at: entry.localHeaderOffset)
        try header.check(against: entry, archive: archive.source.name)
        guard header.dataOffset + entry.compressedSize <= file.recordLimit else {
            throw .corrupt(
                archive: archive.source.name,
                reason: "the record of \(SafeRelativePath.quoted(entry.name)) overlaps the next record or the central directory")
        }
        let target: WritableFile
        do throws(FileSystemError) {
            let components = file.path.components
            target = try folders.folder(at: components.dropLast()).createFile(components[components.count - 1])
        } catch {
            throw .writeFailed(path: error.path, reason: error.reason)
        }
        summary.fileCount += 1
        let data = ZipEntryData(
            source: archive.source, name: entry.name, method: entry.method, dataOffset: header.dataOffset,
            compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize, crc32: entry.crc32)
        var total = summary.totalSize
        let check = sizeCheck
        try data.stream(buffers: buffers, inflater: inflater) { (bytes: UnsafeRawBufferPointer) throws(ZipExtractionError) in
            total += Int64(bytes.count)
            try check.check(total)
            do throws(FileSystemError) {
                try target.write(bytes)
            } catch {
                throw .writeFailed(path: target.path, reason: error.reason)
            }
        }
        summary.totalSize = total
        do {
            try target.close()
        } catch {
            throw .writeFailed(path: target.path, reason: error.reason)
        }
    }
}
