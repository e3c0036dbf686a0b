import Foundation
import NewsstandCore

/// `ZipLocalRecord` (the update path's reader of one fetched record) on any bytes. The index
/// entry it is checked against is read from the input's own first 30 bytes by this check (the
/// claims a server would make about its record), so the fuzzer reaches the inflating and the
/// CRC check, not only the header comparison; a spare byte after the header's fields flips one
/// claim so that disagreements are tried too. Invariants: the bytes handed over never pass the
/// entry's size; a read that succeeds handed over exactly the entry's size with the entry's
/// CRC-32 (computed here bit by bit, not by zlib as the reader does),
/// and, for a stored record, exactly the record's data.
enum ZipRecordCheck {
    static let spool = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("newsstand-fuzz-record-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")

    static func check(_ data: Data) -> String? {
        do {
            try data.write(to: spool)
        } catch {
            fatalError("cannot write \(spool.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: spool) }
        guard let file = try? OpenFile.open(spool) else { return "cannot open the spool" }
        let entry = claims(data)
        var handed = Data()
        let result = Result { () throws(ZipExtractionError) in
            try ZipLocalRecord.read(entry, at: 0, in: file) { (bytes: UnsafeRawBufferPointer) throws(ZipExtractionError) in
                handed.append(contentsOf: bytes)
            }
        }
        guard Int64(handed.count) <= entry.size else { return "\(handed.count) bytes handed over for an entry of \(entry.size)" }
        guard case .success = result else { return nil }
        guard Int64(handed.count) == entry.size else { return "accepted with \(handed.count) bytes, the entry has \(entry.size)" }
        let crc = crc32(handed)
        guard crc == entry.crc32 else { return "accepted with CRC-32 \(crc), the entry says \(entry.crc32)" }
        if entry.method == .stored, handed != data.subdata(in: Int(entry.dataOffset)..<Int(entry.dataOffset + entry.dataLength)) {
            return "a stored record's bytes are not its data"
        }
        return nil
    }

    /// CRC-32 (the polynomial 0xEDB88320, reflected), one bit at a time.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The entry the input's own header describes (name as UTF-8, lossy), one claim flipped by
    /// the byte after the fixed header when it is odd.
    static func claims(_ data: Data) -> BundleIndex.Entry {
        let bytes = [UInt8](data)
        func u16(_ at: Int) -> Int { at + 2 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : 0 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        let nameLength = u16(26)
        let extraLength = u16(28)
        let nameEnd = min(bytes.count, 30 + nameLength)
        let name = nameEnd > 30 ? String(decoding: bytes[30..<nameEnd], as: UTF8.self) : "a.png"
        var entry = BundleIndex.Entry(
            name: name, size: Int64(u32(22)), sha256: "", crc32: u32(14), method: u16(8) == 0 ? .stored : .deflated,
            headerOffset: 0, dataOffset: Int64(30 + nameLength + extraLength), dataLength: Int64(u32(18)))
        let flip = bytes.count > 30 ? bytes[30 + min(nameLength + extraLength, bytes.count - 31)] : 0
        if flip & 1 == 1 {
            switch flip >> 1 & 3 {
            case 0: entry.crc32 ^= 1
            case 1: entry.size += 1
            case 2: entry.method = entry.method == .stored ? .deflated : .stored
            default: entry.name += "x"
            }
        }
        return entry
    }
}
