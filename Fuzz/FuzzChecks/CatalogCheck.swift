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
            let theirs = array.compactMap { element -> CatalogEntry? in
                guard case .dictionary(let d)? = PlistValue(foundationObject: element) else { return nil }
                return try? CatalogEntry(plist: d)
            }
            guard theirs == entries else { return "Foundation reads entries \(theirs), the parser \(entries)" }
            return nil
        case (_ as [Any], .failure(let error)):
            // Foundation stops at the end of the root value and ignores what follows (bytes
            // after `</plist>`, or a `</plist>` never opened); the parser refuses anything but
            // white space, comments and instructions there. A catalog like that is not one our
            // build writes: a failure from the first `</plist>` on is that leniency.
            if let close = data.range(of: Data("</plist>".utf8))?.lowerBound, let at = failureOffset(error),
                at >= close - data.startIndex
            {
                return nil
            }
            return "Foundation reads an array, the parser fails: \(error)"
        case (.some(let other), .success(let entries)) where !(other is [Any]):
            return "Foundation reads a \(type(of: other)) root, the parser \(entries.count) entries"
        case (.none, .success(let entries)):
            return "Foundation refuses the catalog, the parser reads \(entries.count) entries"
        default:
            return nil
        }
    }

    /// The byte a malformed-catalog error points at ("… (at byte 231)").
    static func failureOffset(_ error: CatalogError) -> Int? {
        guard case .malformed(let reason) = error, let range = reason.range(of: "(at byte ", options: .backwards) else { return nil }
        return Int(reason[range.upperBound...].prefix { $0.isNumber })
    }
}
