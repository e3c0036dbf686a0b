import Foundation
import NewsstandCore

/// A `TransferRecord` as a row of the `transfers` table, and back. Reading checks every value
/// as input from outside: a received file's name is deleted and unpacked later, so it must be
/// the one name the hand-off gives this issue's generation, nothing else.
enum TransferRow {
    /// The largest resume data kept (URLSession's is a few kilobytes).
    static let maxResumeDataBytes = 1 << 20
    /// What a refused transfer row's reason begins with (its `StateError.badRow` shares the case
    /// with an issue row's).
    static let refusalPrefix = "transfer: "

    static func values(of record: TransferRecord) -> [SQLiteValue?] {
        [
            .text(record.name), .integer(Int64(record.generation)), .text(record.stage.rawValue), .text(record.engine.rawValue),
            .text(record.intent.rawValue), .text(record.url.absoluteString), record.expectedSize.map { .integer(Int64($0)) },
            record.expectedSHA256.map(SQLiteValue.text), .text(record.scale.rawValue), record.receivedFile.map(SQLiteValue.text),
            .integer(Int64(record.restarts)), .integer(record.bytesReceived), record.bytesExpected.map(SQLiteValue.integer),
            record.resumeData.map { .text($0.base64EncodedString()) }, record.lastError.map(SQLiteValue.text),
        ]
    }

    /// Reads the current row of a `SELECT` of `StateSchema.transferColumns`.
    static func record(from row: SQLiteStatement) throws(IssueRow.Refusal) -> TransferRecord {
        guard let name = row.text(0, limit: 255) else { throw IssueRow.Refusal(name: "?", reason: "its name is not short text") }
        func fail(_ reason: String) -> IssueRow.Refusal { IssueRow.Refusal(name: name, reason: refusalPrefix + reason) }
        guard IssueName.isSafe(name) else { throw fail("the name is not safe as a file name") }
        func text(_ column: Int32, _ label: String, limit: Int = IssueRow.maxTextBytes) throws(IssueRow.Refusal) -> String? {
            if row.isNull(column) { return nil }
            guard let value = row.text(column, limit: limit) else {
                throw fail("\(label) is not UTF-8 text of at most \(limit) bytes")
            }
            return value
        }
        func required<Value>(_ column: Int32, _ label: String, _ make: (String) -> Value?) throws(IssueRow.Refusal) -> Value {
            guard let string = try text(column, label) else { throw fail("\(label) is missing") }
            guard let value = make(string) else { throw fail("\(label) '\(string)' is not one the library writes") }
            return value
        }
        func count(_ column: Int32, _ label: String) throws(IssueRow.Refusal) -> Int64? {
            if row.isNull(column) { return nil }
            guard let value = row.int64(column), value >= 0, Int(exactly: value) != nil else {
                throw fail("\(label) is not a whole number ≥ 0")
            }
            return value
        }
        guard let generation = try count(1, "generation").map(Int.init) else { throw fail("generation is missing") }
        var record = TransferRecord(
            name: name, generation: generation, stage: try required(2, "stage", TransferRecord.Stage.init(rawValue:)),
            engine: try required(3, "engine", TransferEngineKind.init(rawValue:)),
            intent: try required(4, "intent", TransferIntent.init(rawValue:)),
            url: try required(5, "url") { URL(string: $0).flatMap { $0.scheme == nil ? nil : $0 } },
            expectedSize: try count(6, "expected_size").map(Int.init), expectedSHA256: try text(7, "expected_sha256"),
            scale: try required(8, "scale", LibraryScale.init(rawValue:)))
        // Generation 0 is a row made ready for a transfer not yet asked (`prepareTransfer`).
        guard generation > 0 || record.stage == .ended else { throw fail("generation 0 is not an ended transfer's") }
        record.restarts = Int(try count(10, "restarts") ?? 0)
        if let file = try text(9, "received_file") {
            // Only the hand-off's name for this transfer's generation, or for an earlier one of
            // the same request whose file arrived after a restart (`IssueLifecycle.receive`):
            // anything else is not ours to touch.
            guard let id = TransferHandOff.transfer(ofReceived: file), id.name == name, id.generation <= generation,
                generation - id.generation <= record.restarts, file == TransferHandOff.receivedName(of: id)
            else { throw fail("received_file '\(file)' is not this transfer's") }
            record.receivedFile = file
        }
        guard (record.stage == .received) == (record.receivedFile != nil) else {
            throw fail("stage \(record.stage.rawValue) does not go with received_file")
        }
        record.bytesReceived = try count(11, "bytes_received") ?? 0
        record.bytesExpected = try count(12, "bytes_expected")
        if let encoded = try text(13, "resume_data", limit: maxResumeDataBytes * 4 / 3 + 4) {
            guard let data = Data(base64Encoded: encoded) else { throw fail("resume_data is not base64") }
            record.resumeData = data
        }
        record.lastError = try text(14, "last_error")
        return record
    }
}
