import Foundation

/// Appends values to a compact binary record (the build index): unsigned numbers as LEB128
/// varints, signed ones zigzagged first, doubles as their 8 bytes (little-endian), strings
/// as their UTF-8 length and bytes. Read back by `RecordReader`.
struct RecordWriter {
    private(set) var bytes: [UInt8] = []

    mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func count(_ value: Int) { unsigned(UInt64(max(0, value))) }

    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func string(_ value: String) {
        count(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    mutating func optional<T>(_ value: T?, _ write: (inout RecordWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    mutating func raw(_ more: some Sequence<UInt8>) { bytes.append(contentsOf: more) }
}

/// Reads what `RecordWriter` wrote, checking every length against what is left: a record cut
/// short or with a length that runs past its end throws, never reads outside it.
struct RecordReader {
    /// The record is shorter than its contents say, or holds a value that is not valid.
    struct Malformed: Error {}

    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < bytes.count else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func unsigned() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64, shift < 63 || next <= 1 else { throw Malformed() }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
    }

    /// A count or length: at most what is left to read (each element takes a byte at least).
    mutating func count() throws(Malformed) -> Int {
        let value = try unsigned()
        guard value <= UInt64(bytes.count - offset) else { throw Malformed() }
        return Int(value)
    }

    mutating func signed() throws(Malformed) -> Int64 {
        let value = try unsigned()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    mutating func double() throws(Malformed) -> Double {
        guard bytes.count - offset >= 8 else { throw Malformed() }
        var pattern: UInt64 = 0
        for index in 0..<8 { pattern |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += 8
        return Double(bitPattern: pattern)
    }

    mutating func bool() throws(Malformed) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }

    /// A string; bytes that are not UTF-8 are refused (a record newsstand wrote never has them).
    mutating func string() throws(Malformed) -> String {
        let length = try count()
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        offset += length
        // ASCII (nearly every name and digest) needs no validation; `String(validating:)`
        // takes a slow, generic path (6% of a no-change build), so it is kept for the rest.
        let text: String? = slice.withMemoryRebound(to: UInt8.self) { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        }
        guard let text else { throw Malformed() }
        return text
    }

    mutating func optional<T>(_ read: (inout RecordReader) throws(Malformed) -> T) throws(Malformed) -> T? {
        try bool() ? try read(&self) : nil
    }

    /// The next `length` bytes' range, skipped.
    mutating func skip(_ length: Int) throws(Malformed) -> Range<Int> {
        guard length >= 0, bytes.count - offset >= length else { throw Malformed() }
        defer { offset += length }
        return offset..<(offset + length)
    }
}
