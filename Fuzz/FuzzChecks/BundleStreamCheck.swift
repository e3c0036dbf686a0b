import Foundation
import NewsstandCore

/// `ZipRecordStream` (the reader's streamed download: each local record checked against the
/// bundle's index as its bytes arrive) on a bundle and its index mutated together. The input is
/// the index's JSON, then `\n%%bundle%%\n`, then the bundle's bytes; an index `BundleIndex.decode`
/// refuses is not a case (the reader never streams against one). Invariants:
/// - the bytes handed over for an entry never pass its size; an entry is ended only in the
///   index's order, with exactly its size, its SHA-256 and its CRC-32 (computed here bit by bit);
/// - every entry the stream ends is one `ZipLocalRecord` (the update path's reader of one
///   record, over the same bytes in a file) also accepts, with the same bytes;
/// - the same outcome (entries ended, their bytes, completion) whether the bytes come whole or
///   in chunks the input's length picks;
/// - a stream started at the end of half the entries it ended (a resumed download) ends the
///   rest the same, from the bytes after them;
/// - a complete stream took exactly the index's bundle size and ended every entry.
public enum BundleStreamCheck {
    static let separator = Data("\n%%bundle%%\n".utf8)
    static let spool = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("newsstand-fuzz-stream-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")

    static func check(_ data: Data) -> String? {
        guard let (index, bundle) = split(data) else { return nil }
        guard let whole = run(index, checked: 0, bundle, chunks: nil) else { return nil }
        if let violation = whole.violation { return "whole: \(violation)" }
        guard let chunked = run(index, checked: 0, bundle, chunks: UInt64(data.count)) else {
            return "a chunked stream refused the index"
        }
        if let violation = chunked.violation { return "chunked: \(violation)" }
        guard whole.ended == chunked.ended, whole.complete == chunked.complete else {
            return
                "whole: \(whole.ended.count) entries ended, complete \(whole.complete); chunked: \(chunked.ended.count), \(chunked.complete)"
        }
        if whole.complete {
            guard Int64(bundle.count) == index.bundleSize, whole.ended.count == index.entries.count else {
                return "complete with \(bundle.count) bytes and \(whole.ended.count) entries of \(index.entries.count)"
            }
        }
        if let violation = compareWithRecordReader(index, bundle, ended: whole.ended) { return violation }
        let half = whole.ended.count / 2
        if half > 0 {
            let start = Int(index.entries[half - 1].recordRange.upperBound)
            guard let resumed = run(index, checked: half, bundle.subdata(in: start..<bundle.count), chunks: UInt64(half)) else {
                return "a stream from entry \(half) refused the index"
            }
            if let violation = resumed.violation { return "resumed: \(violation)" }
            guard Array(whole.ended[half...]) == resumed.ended, resumed.complete == whole.complete else {
                return "resumed at entry \(half): \(resumed.ended.count) more ended, whole had \(whole.ended.count - half)"
            }
        }
        return nil
    }

    /// Whether the input's stream completes (the seeds of well-formed pairs must).
    public static func completes(_ data: Data) -> Bool {
        guard let (index, bundle) = split(data), let outcome = run(index, checked: 0, bundle, chunks: nil) else { return false }
        return outcome.complete && outcome.violation == nil
    }

    private static func split(_ data: Data) -> (BundleIndex, Data)? {
        guard let cut = data.range(of: separator),
            let index = try? BundleIndex.decode(
                data.subdata(in: data.startIndex..<cut.lowerBound),
                limits: BundleIndexLimits(maximumBytes: 1 << 20, maximumEntries: 512))
        else { return nil }
        // Bounded work: what the entries may inflate to.
        guard index.entries.reduce(Int64(0), { $0 + min($1.size, 1 << 30) }) <= 32 << 20 else { return nil }
        return (index, data.subdata(in: cut.upperBound..<data.endIndex))
    }

    struct Outcome {
        var ended: [Data] = []
        var complete = false
        var violation: String?
    }

    /// Feeds `bundle` (whole, or in chunks drawn from `seed`); nil when the stream refuses the index.
    static func run(_ index: BundleIndex, checked: Int, _ bundle: Data, chunks seed: UInt64?) -> Outcome? {
        guard let stream = try? ZipRecordStream(index: index, checked: checked, name: "fuzz") else { return nil }
        let output = Recorder(index: index, first: checked)
        var offset = 0
        var random = seed ?? 0
        var failed = false
        while offset < bundle.count, !failed {
            var size = bundle.count - offset
            if seed != nil {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                size = min(size, random >> 60 == 0 ? 4096 : Int(random >> 58) + 1)
            }
            let before = stream.position
            bundle.subdata(in: offset..<offset + size).withUnsafeBytes { bytes in
                do throws(ZipExtractionError) { try stream.feed(bytes, to: output) } catch { failed = true }
            }
            if !failed, stream.position != before + Int64(size) {
                output.violation = output.violation ?? "fed \(size) bytes at \(before), the position moved to \(stream.position)"
            }
            offset += size
        }
        if stream.position > index.bundleSize { output.violation = output.violation ?? "took bytes past the bundle's size" }
        let complete = !failed && stream.isComplete
        if complete != ((try? stream.finish()) != nil) {
            output.violation = output.violation ?? "finish disagrees with isComplete"
        }
        if stream.checked != checked + output.ended.count {
            output.violation = output.violation ?? "checked \(stream.checked), ended \(output.ended.count) from \(checked)"
        }
        return Outcome(ended: output.ended, complete: complete, violation: output.violation)
    }

    /// Every entry the stream ended is one `ZipLocalRecord` reads to the same bytes.
    private static func compareWithRecordReader(_ index: BundleIndex, _ bundle: Data, ended: [Data]) -> String? {
        guard !ended.isEmpty else { return nil }
        do {
            try bundle.write(to: spool)
        } catch {
            fatalError("cannot write \(spool.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: spool) }
        guard let file = try? OpenFile.open(spool) else { return "cannot open the spool" }
        for (position, bytes) in ended.enumerated() {
            let entry = index.entries[position]
            var read = Data()
            let result = Result { () throws(ZipExtractionError) in
                try ZipLocalRecord.read(entry, at: entry.headerOffset, in: file) {
                    (chunk: UnsafeRawBufferPointer) throws(ZipExtractionError) in
                    read.append(contentsOf: chunk)
                }
            }
            guard case .success = result, read == bytes else {
                return "the stream ended '\(entry.name)', ZipLocalRecord \(read == bytes ? "refuses it" : "reads other bytes")"
            }
        }
        return nil
    }

    /// Records what the stream hands over and checks each entry it ends.
    final class Recorder: ZipRecordStreamOutput {
        let index: BundleIndex
        var next: Int
        var current = Data()
        var begun: Int?
        var ended: [Data] = []
        var violation: String?

        init(index: BundleIndex, first: Int) {
            self.index = index
            next = first
        }

        func begin(_ entry: BundleIndex.Entry, position: Int) throws(ZipExtractionError) {
            if position != next || entry != index.entries[position] {
                violation = violation ?? "began entry \(position), expected \(next)"
            }
            begun = position
            current = Data()
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws(ZipExtractionError) {
            guard let begun else {
                violation = violation ?? "bytes before an entry began"
                return
            }
            current.append(contentsOf: bytes)
            if Int64(current.count) > index.entries[begun].size {
                violation =
                    violation
                    ?? "\(current.count) bytes handed over for '\(index.entries[begun].name)' of \(index.entries[begun].size)"
            }
        }

        func end(_ entry: BundleIndex.Entry, position: Int) throws(ZipExtractionError) {
            guard begun == position, position == next else {
                violation = violation ?? "ended entry \(position) out of order"
                return
            }
            if Int64(current.count) != entry.size {
                violation = violation ?? "'\(entry.name)' ended with \(current.count) bytes of \(entry.size)"
            }
            if ZipRecordCheck.crc32(current) != entry.crc32 {
                violation = violation ?? "'\(entry.name)' ended with another CRC-32"
            }
            if SHA256.hex(of: current) != entry.sha256 { violation = violation ?? "'\(entry.name)' ended with another SHA-256" }
            ended.append(current)
            begun = nil
            next += 1
        }
    }
}
