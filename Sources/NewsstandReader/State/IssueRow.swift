import Foundation
import NewsstandCore

/// An `IssueRecord` as a row of the `issues` table, and back. Reading checks every value as
/// input from outside: the database is a file anyone with access to the folder can edit.
enum IssueRow {
    /// The longest text a row may hold (a title, a URL, a checksum): 64 KiB.
    static let maxTextBytes = 64 << 10

    static func values(of record: IssueRecord) -> [SQLiteValue?] {
        let progress: DownloadProgress? = if case .downloading(let progress) = record.status { progress } else { nil }
        return [
            .text(record.name), .text(record.title), .real(record.date.timeIntervalSince1970),
            record.summary.map(SQLiteValue.text),
            record.productID.map(SQLiteValue.text), .text(record.remoteCoverURL.absoluteString),
            .text(record.remoteContentURL.absoluteString), record.contentSize.map { .integer(Int64($0)) },
            record.contentSHA256.map(SQLiteValue.text), record.coverSHA256.map(SQLiteValue.text), .text(record.status.label),
            progress.map { .integer($0.bytesReceived) }, progress?.bytesExpected.map(SQLiteValue.integer),
            .integer(record.hasUpdate ? 1 : 0), .integer(record.isInCatalog ? 1 : 0), record.coverFileName.map(SQLiteValue.text),
            record.cachedCoverURL.map { .text($0.absoluteString) }, record.cachedCoverSHA256.map(SQLiteValue.text),
            record.cachedCoverScale.map { .text($0.rawValue) }, record.installedSHA256.map(SQLiteValue.text),
            record.installedContentURL.map { .text($0.absoluteString) }, record.installedScale.map { .text($0.rawValue) },
            record.fallback.map { .text($0.coverURL.absoluteString) },
            record.fallback.map { .text($0.contentURL.absoluteString) },
            record.fallback?.contentSize.map { .integer(Int64($0)) }, record.fallback?.contentSHA256.map(SQLiteValue.text),
            record.fallback?.coverSHA256.map(SQLiteValue.text), record.missingRetinaContentURL.map { .text($0.absoluteString) },
            record.contentIndexURL.map { .text($0.absoluteString) }, record.contentIndexSize.map { .integer(Int64($0)) },
            record.contentIndexSHA256.map(SQLiteValue.text), record.updateBytes.map(SQLiteValue.integer),
            .text((record.access ?? .free).rawValue),
        ]
    }

    /// A reason a row is refused.
    struct Refusal: Error {
        var name: String
        var reason: String
    }

    /// Reads the current row of a `SELECT` of `StateSchema.issueColumns`.
    static func record(from row: SQLiteStatement) throws(Refusal) -> IssueRecord {
        guard let name = row.text(0, limit: 255) else { throw Refusal(name: "?", reason: "its name is not short text") }
        func fail(_ reason: String) -> Refusal { Refusal(name: name, reason: reason) }
        guard IssueName.isSafe(name) else { throw fail("the name is not safe as a file name") }
        func text(_ column: Int32, _ label: String) throws(Refusal) -> String? {
            if row.isNull(column) { return nil }
            guard let value = row.text(column, limit: maxTextBytes) else {
                throw fail("\(label) is not UTF-8 text of at most \(maxTextBytes) bytes")
            }
            return value
        }
        func required(_ column: Int32, _ label: String) throws(Refusal) -> String {
            guard let value = try text(column, label) else { throw fail("\(label) is missing") }
            return value
        }
        func url(_ column: Int32, _ label: String) throws(Refusal) -> URL? {
            guard let string = try text(column, label) else { return nil }
            guard let url = URL(string: string), url.scheme != nil else { throw fail("\(label) is not a URL") }
            return url
        }
        func requiredURL(_ column: Int32, _ label: String) throws(Refusal) -> URL {
            guard let value = try url(column, label) else { throw fail("\(label) is missing") }
            return value
        }
        func integer(_ column: Int32, _ label: String) throws(Refusal) -> Int64? {
            if row.isNull(column) { return nil }
            guard let value = row.int64(column), value >= 0 else { throw fail("\(label) is not a whole number ≥ 0") }
            return value
        }
        func size(_ column: Int32, _ label: String) throws(Refusal) -> Int? {
            guard let value = try integer(column, label) else { return nil }
            guard let size = Int(exactly: value) else { throw fail("\(label) is too large") }
            return size
        }
        func scale(_ column: Int32, _ label: String) throws(Refusal) -> LibraryScale? {
            guard let value = try text(column, label) else { return nil }
            guard let scale = LibraryScale(rawValue: value) else { throw fail("\(label) '\(value)' is not normal or retina") }
            return scale
        }
        func flag(_ column: Int32, _ label: String) throws(Refusal) -> Bool {
            switch row.int64(column) {
            case 0: return false
            case 1: return true
            default: throw fail("\(label) is not 0 or 1")
            }
        }
        guard let seconds = row.double(2), seconds.isFinite else { throw fail("date is not a number") }
        let status: IssueStatus
        switch try required(10, "status") {
        case "none": status = .none
        case "available": status = .available
        case "downloading":
            status = .downloading(
                DownloadProgress(
                    bytesReceived: try integer(11, "bytes_received") ?? 0, bytesExpected: try integer(12, "bytes_expected")))
        case let other: throw fail("status '\(other)' is not none, downloading or available")
        }
        var record = IssueRecord(
            name: name, title: try required(1, "title"), date: Date(timeIntervalSince1970: seconds),
            summary: try text(3, "summary"),
            productID: try text(4, "product_id"), remoteCoverURL: try requiredURL(5, "remote_cover_url"),
            remoteContentURL: try requiredURL(6, "remote_content_url"), contentSize: try size(7, "content_size"),
            contentSHA256: try text(8, "content_sha256"), coverSHA256: try text(9, "cover_sha256"), status: status,
            hasUpdate: try flag(13, "has_update"), isInCatalog: try flag(14, "in_catalog"))
        if let file = try text(15, "cover_file") {
            // A cover file is removed by this name later: one plain name inside Covers/.
            guard IssueName.isSafe(file) else { throw fail("cover_file '\(file)' is not a plain file name") }
            record.coverFileName = file
        }
        record.cachedCoverURL = try url(16, "cached_cover_url")
        record.cachedCoverSHA256 = try text(17, "cached_cover_sha256")
        record.cachedCoverScale = try scale(18, "cached_cover_scale")
        record.installedSHA256 = try text(19, "installed_sha256")
        record.installedContentURL = try url(20, "installed_content_url")
        record.installedScale = try scale(21, "installed_scale")
        if let cover = try url(22, "fallback_cover_url"), let content = try url(23, "fallback_content_url") {
            record.fallback = NormalScaleFallback(
                coverURL: cover, contentURL: content, contentSize: try size(24, "fallback_content_size"),
                contentSHA256: try text(25, "fallback_content_sha256"), coverSHA256: try text(26, "fallback_cover_sha256"))
        }
        record.missingRetinaContentURL = try url(27, "missing_retina_content_url")
        record.contentIndexURL = try url(28, "content_index_url")
        record.contentIndexSize = try size(29, "content_index_size")
        record.contentIndexSHA256 = try text(30, "content_index_sha256")
        record.updateBytes = try integer(31, "update_bytes")
        let access = try required(32, "access")
        guard let known = IssueAccess(rawValue: access) else { throw fail("access '\(access)' is not free or paid") }
        record.access = known
        return record
    }
}
