import CCRC32
import CZlib
import Foundation
import Testing

/// The zip writer's CRC-32 (`newsstand_crc32`, folded with carry-less multiplication) is
/// zlib's: for every length around the fold's steps (16-byte blocks, 64-byte rounds), at every
/// alignment, from any running value, and across chunks as the writer feeds it.
@Suite struct CRC32Tests {
    private static let bytes: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<(1 << 20) + 64).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }()

    private static func zlib(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(crc32_z(UInt(crc), bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count))
    }

    private static func ours(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        newsstand_crc32(crc, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    @Test func isZlibsForEveryShortLengthAndAlignment() {
        Self.bytes.withUnsafeBytes { all in
            for offset in 0..<17 {
                for length in 0...300 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
                    for start: UInt32 in [0, 0xFFFF_FFFF, 0x1234_5678] where Self.ours(start, slice) != Self.zlib(start, slice) {
                        Issue.record("offset \(offset), length \(length), from \(start)")
                        return
                    }
                }
            }
        }
    }

    @Test func isZlibsForLongRunsAndAcrossChunks() {
        Self.bytes.withUnsafeBytes { all in
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<200 {
                let offset = Int.random(in: 0..<64, using: &generator)
                let length = Int.random(in: 0..<(1 << 20), using: &generator)
                let slice = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
                #expect(Self.ours(0, slice) == Self.zlib(0, slice), "offset \(offset), length \(length)")
            }
            var (ours, zlib): (UInt32, UInt32) = (0, 0)
            var at = 0
            while at < 1 << 20 {
                let count = min(Int.random(in: 0..<70_000, using: &generator), (1 << 20) - at)
                let chunk = UnsafeRawBufferPointer(rebasing: all[at..<(at + count)])
                (ours, zlib) = (Self.ours(ours, chunk), Self.zlib(zlib, chunk))
                at += count
            }
            #expect(ours == zlib)
        }
    }
}
