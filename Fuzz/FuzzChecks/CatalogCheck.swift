import Foundation
import NewsstandCore

/// `CatalogStreamParser`, the reader's one catalog parser: the same entries, problems or error
/// however the bytes arrive (whole, one at a time, or in chunks the input picks), and on an XML
/// property list Foundation reads as an array, the entries Foundation's reading gives.
enum CatalogCheck {
    typealias Outcome = Result<[CatalogEntry], CatalogError>

    static func check(_ data: Data) -> String? {
        let whole = outcome(data, chunks: [data.count])
        let bytewise = outcome(data, chunks: Array(repeating: 1, count: data.count))
        guard same(whole, bytewise) else { return "whole and byte by byte differ: \(whole) vs \(bytewise)" }
        // Chunk sizes from the input itself, so the fuzzer explores where the cuts fall.
        let sizes = data.prefix(16).map { Int($0 % 13) + 1 }
        var chunks: [Int] = []
        var left = data.count
        var index = 0
        while left > 0, !sizes.isEmpty {
            let size = min(left, sizes[index % sizes.count])
            chunks.append(size)
            left -= size
            index += 1
        }
        let chunked = outcome(data, chunks: chunks)
        guard same(whole, chunked) else { return "whole and in chunks \(chunks.prefix(8)) differ: \(whole) vs \(chunked)" }
        return agreesWithFoundation(data, whole)
    }

    /// Entries and problems as the parser gives them fed `chunks` bytes at a time.
    static func outcome(_ data: Data, chunks: [Int]) -> (Outcome, [CatalogError]) {
        var parser = CatalogStreamParser()
        let failure: CatalogError? = data.withUnsafeBytes { bytes in
            var start = 0
            do throws(CatalogError) {
                for size in chunks {
                    try parser.consume(UnsafeRawBufferPointer(rebasing: bytes[start..<start + size]))
                    start += size
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { return (.failure(failure), []) }
        do throws(CatalogError) {
            let (entries, problems) = try parser.finish()
            return (.success(entries), problems)
        } catch {
            return (.failure(error), [])
        }
    }

    static func same(_ a: (Outcome, [CatalogError]), _ b: (Outcome, [CatalogError])) -> Bool {
        a.0 == b.0 && a.1 == b.1
    }

    /// Where Foundation reads the bytes as an XML property list whose root is an array, the
    /// parser reads the same entries; where it reads none, the parser reads none either.
    static func agreesWithFoundation(_ data: Data, _ ours: (Outcome, [CatalogError])) -> String? {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        guard format == .xml else { return nil }  // binary and OpenStep text are not catalogs
        switch (object, ours.0) {
        case (let array as [Any], .success(let entries)):
            let theirs = foundationEntries(of: array)
            guard theirs == entries else { return "Foundation reads entries \(theirs), the parser \(entries)" }
            return nil
        case (let array as [Any], .failure(let error)):
            // The one leniency of Foundation's we refuse on purpose: it parses the first element
            // and ignores every byte after it (CFPropertyList: "we do not verify that there was
            // only one element"), be it text, a second root, a `</plist>` never opened or half a
            // tag; the parser allows only white space, comments and instructions there. A
            // catalog like that is not one our build writes. So the failure must lie after a
            // complete root: some prefix of the bytes, ending at a `>`, reads as exactly
            // Foundation's entries. Any other failure is a real disagreement.
            let theirs = foundationEntries(of: array)
            if completeRoot(of: data, before: failureOffset(error), matching: theirs) != nil { return nil }
            return "Foundation reads an array, the parser fails inside it: \(error)"
        case (.some(let other), .success(let entries)) where !(other is [Any]):
            return "Foundation reads a \(type(of: other)) root, the parser \(entries.count) entries"
        case (.none, .success(let entries)):
            return "Foundation refuses the catalog, the parser reads \(entries.count) entries"
        default:
            return nil
        }
    }

    /// The entries of Foundation's reading: each dictionary element `CatalogEntry` accepts.
    static func foundationEntries(of array: [Any]) -> [CatalogEntry] {
        array.compactMap { element -> CatalogEntry? in
            guard case .dictionary(let d)? = PlistValue(foundationObject: element) else { return nil }
            return try? CatalogEntry(plist: d)
        }
    }

    /// The length of the shortest prefix of `data` that ends at a `>` at or before `limit` and
    /// that the parser reads, whole, as exactly `entries`: where the root Foundation read ends.
    static func completeRoot(of data: Data, before limit: Int?, matching entries: [CatalogEntry]) -> Int? {
        let bytes = [UInt8](data)
        let last = min(limit ?? bytes.count - 1, bytes.count - 1)
        guard last >= 0 else { return nil }
        for end in 0...last where bytes[end] == UInt8(ascii: ">") {
            let prefix = Data(bytes[...end])
            if case .success(let read) = outcome(prefix, chunks: [prefix.count]).0, read == entries { return end + 1 }
        }
        return nil
    }

    /// The byte a malformed-catalog error points at ("… (at byte 231)").
    static func failureOffset(_ error: CatalogError) -> Int? {
        guard case .malformed(let reason) = error, let range = reason.range(of: "(at byte ", options: .backwards) else {
            return nil
        }
        return Int(reason[range.upperBound...].prefix { $0.isNumber })
    }
}
