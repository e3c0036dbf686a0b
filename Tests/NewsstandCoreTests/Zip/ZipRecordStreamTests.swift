import Foundation
import Testing

@testable import NewsstandCore

/// `ZipRecordStream`, the push parser of a streamed download (issue 38): each local record
/// checked against the index as its bytes arrive, whatever the chunks.
@Suite("Zip record stream")
struct ZipRecordStreamTests {
    /// A page config deflated by Python's zlib (level 9, raw): 1,150 bytes in 78.
    static let config = Data(
        ("<plist><array>" + String(repeating: "<dict><key>class</key><string>SimplePage</string></dict>", count: 20)
            + "</array></plist>").utf8)
    static let deflated = Data([
        0xb3, 0x29, 0xc8, 0xc9, 0x2c, 0x2e, 0xb1, 0xb3, 0x49, 0x2c, 0x2a, 0x4a, 0xac, 0xb4, 0xb3, 0x49, 0xc9, 0x4c, 0x06, 0x72,
        0xb2, 0x53, 0x2b, 0xed, 0x92, 0x73, 0x12, 0x8b, 0x8b, 0x6d, 0xf4, 0x41, 0x4c, 0x9b, 0xe2, 0x92, 0xa2, 0xcc, 0xbc, 0x74,
        0xbb, 0xe0, 0xcc, 0xdc, 0x82, 0x9c, 0xd4, 0x80, 0xc4, 0xf4, 0x54, 0x1b, 0x7d, 0xa8, 0x90, 0x8d, 0x3e, 0x44, 0xc7, 0xa8,
        0xbe, 0x51, 0x7d, 0xa3, 0xfa, 0x46, 0xf5, 0x11, 0xd2, 0xa7, 0x0f, 0x2d, 0x67, 0xf4, 0x21, 0xc5, 0x0e, 0x00,
    ])
    static let image = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })

    /// One file of a hand-made bundle: its name, content, and stored or deflated bytes.
    struct File {
        var name: String
        var content: Data
        var stored: Data
        var method: BundleIndex.Method
        var flags: UInt16 = 0
        var headerName: String?
    }

    static let files = [
        File(name: "pages.plist", content: config, stored: deflated, method: .deflated),
        File(name: "pages/1-0.png", content: image, stored: image, method: .stored),
    ]

    /// The bundle (records back to back, then an end of central directory record) and its index.
    static func bundle(_ files: [File]) -> (Data, BundleIndex) {
        var bytes = Data()
        var entries: [BundleIndex.Entry] = []
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        for file in files {
            let header = Int64(bytes.count)
            let name = Data((file.headerName ?? file.name).utf8)
            let crc = ZipCRC.of(file.content)
            u32(0x0403_4b50)
            u16(20)
            u16(file.flags)
            u16(file.method == .stored ? 0 : 8)
            u32(0)
            u32(crc)
            u32(UInt32(file.stored.count))
            u32(UInt32(file.content.count))
            u16(UInt16(name.count))
            u16(0)
            bytes.append(name)
            let data = Int64(bytes.count)
            bytes.append(file.stored)
            entries.append(
                BundleIndex.Entry(
                    name: file.name, size: Int64(file.content.count), sha256: SHA256.hex(of: file.content), crc32: crc,
                    method: file.method, headerOffset: header, dataOffset: data, dataLength: Int64(file.stored.count)))
        }
        u32(0x0605_4b50)
        bytes.append(Data(count: 18))
        return (bytes, BundleIndex(bundleSize: Int64(bytes.count), bundleSHA256: SHA256.hex(of: bytes), entries: entries))
    }

    final class Collector: ZipRecordStreamOutput {
        var files: [String: Data] = [:]
        var current = Data()
        func begin(_ entry: BundleIndex.Entry, position: Int) throws(ZipExtractionError) { current = Data() }
        func write(_ bytes: UnsafeRawBufferPointer) throws(ZipExtractionError) { current.append(contentsOf: bytes) }
        func end(_ entry: BundleIndex.Entry, position: Int) throws(ZipExtractionError) { files[entry.name] = current }
    }

    /// Feeds `bytes` in chunks of `size`; the error, if any.
    static func feed(_ stream: ZipRecordStream, _ bytes: Data, chunk size: Int, to output: Collector) -> ZipExtractionError? {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            var failure: ZipExtractionError?
            bytes.subdata(in: offset..<end).withUnsafeBytes { chunk in
                do throws(ZipExtractionError) { try stream.feed(chunk, to: output) } catch { failure = error }
            }
            if let failure { return failure }
            offset = end
        }
        return nil
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func storedAndDeflatedRecordsStreamWhateverTheChunks(chunk: Int) throws {
        let (bytes, index) = Self.bundle(Self.files)
        let stream = try ZipRecordStream(index: index, name: "test")
        let output = Collector()
        #expect(Self.feed(stream, bytes, chunk: chunk, to: output) == nil)
        #expect(stream.isComplete)
        #expect(stream.checked == 2)
        #expect(output.files == ["pages.plist": Self.config, "pages/1-0.png": Self.image])
    }

    @Test func aStreamResumedAfterTheFirstEntryReadsTheRest() throws {
        let (bytes, index) = Self.bundle(Self.files)
        let stream = try ZipRecordStream(index: index, checked: 1, name: "test")
        #expect(stream.position == index.entries[0].recordRange.upperBound)
        let output = Collector()
        #expect(Self.feed(stream, bytes.subdata(in: Int(stream.position)..<bytes.count), chunk: 100, to: output) == nil)
        #expect(stream.isComplete)
        #expect(output.files == ["pages/1-0.png": Self.image])
    }

    @Test func aDataDescriptorIsRefused() throws {
        var files = Self.files
        files[1].flags = 1 << 3
        let (bytes, index) = Self.bundle(files)
        let output = Collector()
        let failure = Self.feed(try ZipRecordStream(index: index, name: "test"), bytes, chunk: 512, to: output)
        #expect(failure?.description.contains("data descriptor") == true)
        #expect(output.files.keys.sorted() == ["pages.plist"])
    }

    @Test func aRecordNamedOtherwiseThanTheIndexIsRefused() throws {
        var files = Self.files
        files[1].headerName = "pages/../x.png"
        files[1].name = "pages/abcdefg.png"
        let (bytes, index) = Self.bundle(files)
        let output = Collector()
        let failure = Self.feed(try ZipRecordStream(index: index, name: "test"), bytes, chunk: 512, to: output)
        #expect(failure?.description.contains("the record is of") == true)
        #expect(output.files["pages/abcdefg.png"] == nil)
    }

    @Test func aDamagedByteIsRefusedInItsEntry() throws {
        var (bytes, index) = Self.bundle(Self.files)
        bytes[Int(index.entries[1].dataOffset) + 99] ^= 1
        let output = Collector()
        let failure = Self.feed(try ZipRecordStream(index: index, name: "test"), bytes, chunk: 512, to: output)
        guard case .checksumMismatch(_, let entry, _, _) = failure else {
            Issue.record("expected a CRC-32 mismatch, got \(String(describing: failure))")
            return
        }
        #expect(entry == "pages/1-0.png")
        #expect(output.files.keys.sorted() == ["pages.plist"])
    }

    @Test func bytesPastTheBundleAreRefused() throws {
        let (bytes, index) = Self.bundle(Self.files)
        let stream = try ZipRecordStream(index: index, name: "test")
        #expect(Self.feed(stream, bytes + Data([0]), chunk: 512, to: Collector()) != nil)
    }

    @Test func anIndexWhoseRecordsAreNotBackToBackCannotBeStreamed() throws {
        var (_, index) = Self.bundle(Self.files)
        index.entries[1].headerOffset += 1
        index.entries[1].dataOffset += 1
        #expect(throws: ZipExtractionError.self) { try ZipRecordStream(index: index, name: "test") }
    }
}
