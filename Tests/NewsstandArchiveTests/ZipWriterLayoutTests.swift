import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing
@testable import NewsstandArchive

/// What the zip writer reports of its output (entry layouts, what its observer sees) and that it
/// is deterministic, checked by reading the bytes in this process. The output read by unzip,
/// bsdtar, zipinfo, Java and Python is in `ZipWriterTests`.
@Suite("Zip writer layout, read in process", .timeLimit(.minutes(2))) struct ZipWriterLayoutTests {
    let base = ZipWriterTests()

    /// What the writer reports of each entry (for a bundle's index) is where the test's own
    /// reading of the file finds it: the local header's offset, the data's offset after the
    /// name and extra fields (the Zip64 field too), the stored length, method and CRC-32.
    @Test(arguments: [false, true])
    func theReportedEntryLayoutsAreWhereTheEntriesAre(zip64: Bool) throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let items = ZipWriterTests.items()
        let sources = folder.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent("out.zip")
        let writer = try ZipWriter(url: archive, forcingZip64: zip64, onOutput: nil)
        for (index, item) in items.enumerated() {
            let source = sources.appendingPathComponent("\(index)")
            try item.bytes.write(to: source)
            if item.fromMemory {
                try writer.addData(item.bytes, as: item.name, modified: item.date, compression: item.compression)
            } else {
                try writer.addFile(at: source, as: item.name, modified: item.date, compression: item.compression)
            }
        }
        try writer.close()
        let layout = try ZipLayout(Data(contentsOf: archive))
        #expect(writer.entries.map(\.name) == items.map(\.name))
        #expect(writer.entries.count == layout.locals.count)
        for (entry, local) in zip(writer.entries, layout.locals) {
            let expected = ZipEntryLayout(
                headerOffset: Int64(local.offset), dataOffset: Int64(local.dataOffset),
                compressedSize: Int64(local.compressedSize),
                method: local.method, crc32: local.crc32, uncompressedSize: Int64(local.uncompressedSize))
            #expect(entry.layout == expected, "\(entry.name)")
        }
    }

    /// The observer sees the archive's final bytes, in file order: what it hashes is what is
    /// on disk, although local headers are completed after their data.
    @Test(arguments: [false, true])
    func theObserverSeesTheFileAsWritten(zip64: Bool) throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        nonisolated(unsafe) var seen = Data()
        let (archive, _, size) = try base.write(ZipWriterTests.items(), in: folder, zip64: zip64) { seen.append(contentsOf: $0) }
        let file = try Data(contentsOf: archive)
        #expect(Int64(file.count) == size)
        // Compared as a Bool: a failing `#expect` on two large Data values computes a diff for
        // minutes.
        let same = seen == file
        #expect(same, "the observer saw \(seen.count) bytes, the file holds \(file.count)")
    }

    /// The blocks tile the file in order and name the entry they belong to: each entry's data,
    /// gathered from its blocks, is what the file holds there (for a stored entry, its source's
    /// bytes), its last block says so, and the central directory's blocks name no entry.
    @Test func theObserversBlocksNameTheirEntries() throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let items = ZipWriterTests.items()
        let archive = folder.appendingPathComponent("blocks.zip")
        let descriptor = open(archive.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        nonisolated(unsafe) var next: Int64 = 0
        nonisolated(unsafe) var data: [Int: Data] = [:]
        nonisolated(unsafe) var ended: [Int] = []
        nonisolated(unsafe) var trailerBlocks = 0
        nonisolated(unsafe) var problems: [String] = []
        let writer = try ZipWriter(descriptor: descriptor, path: archive.path) { block in
            if block.offset != next { problems.append("a block at \(block.offset), expected \(next)") }
            next = block.offset + Int64(block.bytes.count)
            guard let (index, _) = block.entry else {
                trailerBlocks += 1
                return
            }
            if ended.contains(index) { problems.append("entry \(index) has a block after its last") }
            data[index, default: Data()].append(contentsOf: block.entryData)
            if block.endsEntry { ended.append(index) }
        }
        for item in items {
            try writer.addData(item.bytes, as: item.name, modified: item.date, compression: item.compression)
        }
        let size = try writer.close()
        #expect(problems == [])
        #expect(next == size)
        #expect(trailerBlocks >= 1)
        #expect(ended == Array(items.indices))
        let file = try Data(contentsOf: archive)
        for (index, entry) in writer.entries.enumerated() {
            let start = Int(entry.layout.dataOffset)
            let stored = file.subdata(in: start..<start + Int(entry.layout.compressedSize))
            #expect(data[index] == stored, "\(entry.name)")
            if items[index].compression == .store { #expect(data[index] == items[index].bytes, "\(entry.name)") }
        }
    }

    @Test func theSameEntriesGiveTheSameBytes() throws {
        let items = ZipWriterTests.items()
        let first = try base.write(items, in: try Shell.temporaryFolder("zipwriter"), zip64: false).archive
        let second = try base.write(items, in: try Shell.temporaryFolder("zipwriter"), zip64: false).archive
        let same = try Data(contentsOf: first) == Data(contentsOf: second)
        #expect(same)
    }
}
