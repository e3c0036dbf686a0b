import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// A bundle index is read from a server: every field is checked, and the canonical encoding
/// round-trips and is what Python's json module reads.
@Suite("Bundle index") struct BundleIndexTests {
    static let hash = String(repeating: "ab", count: 32)

    static func entry(_ name: String, header: Int64, size: Int64 = 10, method: BundleIndex.Method = .stored) -> BundleIndex.Entry
    {
        BundleIndex.Entry(
            name: name, size: size, sha256: hash, crc32: 0xDEAD_BEEF, method: method, headerOffset: header,
            dataOffset: header + 30 + Int64(name.utf8.count), dataLength: method == .stored ? size : 4)
    }

    static let sample = BundleIndex(
        bundleSize: 500, bundleSHA256: hash,
        entries: [
            entry("pages.plist", header: 0, size: 40, method: .deflated), entry("1-0.png", header: 100),
            entry("dir/\"q\".png", header: 200),
        ])

    @Test func roundTripsAndIsCanonical() throws {
        let data = Self.sample.encoded()
        #expect(try BundleIndex.decode(data) == Self.sample)
        #expect(data == Self.sample.encoded())
        #expect(BundleIndex.fileName(forBundle: "a-1.3fa9c1e2.zip") == "a-1.3fa9c1e2.index.json")
        #expect(RetinaName.of(BundleIndex.fileName(forBundle: "a-1.zip")) == "a-1.index@2x.json")
    }

    static func refusal(_ mutate: (inout BundleIndex) -> Void) -> BundleIndexError? {
        var index = sample
        mutate(&index)
        do {
            _ = try BundleIndex.decode(index.encoded())
            return nil
        } catch {
            return error
        }
    }

    @Test func refusesHostileEntries() {
        #expect(Self.refusal { $0.entries[1].name = "../../etc/passwd" }?.reason == "name has a '..' component")
        #expect(Self.refusal { $0.entries[1].name = "/etc/passwd" }?.reason == "name is an absolute path")
        #expect(Self.refusal { $0.entries[1].name = "pages.plist" }?.reason == "name appears twice")
        #expect(Self.refusal { $0.entries[2].dataLength = 1_000 }?.reason.hasPrefix("its data ends past the end") == true)
        #expect(Self.refusal { $0.entries[2].dataLength = .max }?.reason.hasPrefix("its data ends past the end") == true)
        #expect(Self.refusal { $0.entries[1].headerOffset = 10 }?.reason.hasPrefix("its record overlaps") == true)
        #expect(Self.refusal { $0.entries[1].dataOffset = 101 }?.reason.hasPrefix("its data does not follow") == true)
        #expect(Self.refusal { $0.entries[1].size = 11 }?.reason.hasPrefix("stored data of 10 bytes") == true)
        #expect(Self.refusal { $0.entries[1].sha256 = "AB" }?.reason.hasPrefix("sha256 is not") == true)
        #expect(Self.refusal { $0.entries[1].size = -1 }?.reason == "a size or offset is negative")
        #expect(Self.refusal { $0.bundleSize = 0 }?.reason.hasPrefix("bundle size 0") == true)
        #expect(Self.refusal { $0.entries[1].name = "../x" }?.entry == "#2")
    }

    /// A name that is a file of the index and a folder of another entry (issue 23 §9): no
    /// folder can hold both, so an update would end on a bare file error. Refused either way
    /// round, the entry that meets the other named.
    @Test func refusesAFileThatIsAlsoAFolder() {
        let inside = Self.refusal { $0.entries[2].name = "1-0.png/e.png" }
        #expect(inside?.entry == "1-0.png/e.png")
        #expect(inside?.reason == "name is inside '1-0.png', which is a file of the bundle")
        let around = Self.refusal {
            $0.entries[1].name = "dir/sub/e.png"
            $0.entries[2].name = "dir"
        }
        #expect(around?.entry == "dir")
        #expect(around?.reason == "name is a file of the bundle and the folder of 'dir/sub/e.png'")
        #expect(
            Self.refusal {
                $0.entries[1].name = "dir/a.png"
                $0.entries[2].name = "dir/b/c.png"
            } == nil, "a folder of two entries")
        #expect(
            Self.refusal {
                $0.entries[1].name = "d"
                $0.entries[2].name = "de/e.png"
            } == nil, "a prefix that is no folder")
    }

    @Test func refusesWrongShapesAndSizes() {
        func reason(_ text: String, limits: BundleIndexLimits = BundleIndexLimits()) -> String? {
            do {
                _ = try BundleIndex.decode(Data(text.utf8), limits: limits)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason("[[[[") == "is not an index of this format (not valid JSON)")
        #expect(
            reason(#"{"format":"zip","version":1,"bundle":{"size":1,"sha256":"x"},"entries":[]}"#)
                == "format is 'zip', not 'newsstand-bundle-index'")
        #expect(
            reason(#"{"format":"newsstand-bundle-index","version":2,"bundle":{"size":1,"sha256":"x"},"entries":[]}"#)
                == "version 2 is not 1")
        #expect(
            reason(#"{"format":"newsstand-bundle-index","version":1,"entries":[]}"#)
                == "is not an index of this format ('bundle' is missing)")
        let data = Self.sample.encoded()
        #expect(
            reason(String(decoding: data, as: UTF8.self), limits: BundleIndexLimits(maximumBytes: 100))
                == "is \(data.count) bytes, more than the limit of 100")
        #expect(
            reason(String(decoding: data, as: UTF8.self), limits: BundleIndexLimits(maximumEntries: 2))
                == "has 3 entries, more than the limit of 2")
    }

    @Test func catalogCarriesTheIndexKeys() throws {
        var entry = CatalogEntry(
            name: "a-1", title: "A", date: Date(timeIntervalSince1970: 0), cover: "a-1.png", content: "a-1.zip")
        entry.contentIndex = "a-1.index.json"
        entry.contentIndexSize = 321
        entry.contentIndexSHA256 = Self.hash
        entry.retinaContentIndexSize = 654
        entry.retinaContentIndexSHA256 = Self.hash
        let decoded = try Catalog.decode(Catalog.encode([entry]))
        #expect(decoded.entries == [entry])
        #expect(decoded.entries[0].contentIndexURL(retina: true) == "a-1.index@2x.json")
        #expect(decoded.entries[0].contentIndexSize(retina: true) == 654)
    }
}
