import Foundation
import NewsstandCore

/// Fetches a bundle's index and trusts it only as far as it proves: no larger than the catalog's
/// `ContentIndexSize` (and `BundleIndexLimits.maximumBytes`: the transfer is cut there), with the
/// catalog's `ContentIndexSHA256`, valid by `BundleIndex.decode`, and describing the bundle the
/// catalog lists (its size and SHA-256). A paid issue's index is fetched through its signed
/// link, renewed once when the server refuses it.
struct IndexFetch: Sendable {
    let link: AccessLink
    let size: Int
    let sha256: String
    let bundleSize: Int?
    let bundleSHA256: String?
    let limits: BundleIndexLimits
    let transferLimits: TransferLimits
    let policy: NetworkPolicy
    let transport: any HTTPTransport

    /// The verified index, or why it is unusable.
    func run() async -> Result<BundleIndex, FullDownloadReason> {
        guard size > 0, size <= limits.maximumBytes else {
            return .failure(.indexUnusable("the catalog gives it \(size) bytes, the limit is \(limits.maximumBytes)"))
        }
        return await fetch().flatMap(verify)
    }

    /// The fetched bytes as the index the catalog describes, or why they are not.
    private func verify(_ data: Data) -> Result<BundleIndex, FullDownloadReason> {
        guard data.count == size else {
            return .failure(.indexUnusable("it is \(data.count) bytes, the catalog says \(size)"))
        }
        let actual = SHA256.hex(of: data)
        guard actual == sha256.lowercased() else {
            return .failure(.indexUnusable("its SHA-256 is \(actual), the catalog says \(sha256)"))
        }
        let index: BundleIndex
        do {
            index = try BundleIndex.decode(data, limits: limits)
        } catch {
            return .failure(.indexUnusable(error.description))
        }
        if let bundleSHA256, index.bundleSHA256 != bundleSHA256.lowercased() {
            return .failure(
                .indexUnusable("it describes a bundle with SHA-256 \(index.bundleSHA256), the catalog's is \(bundleSHA256)"))
        }
        if let bundleSize, index.bundleSize != Int64(bundleSize) {
            return .failure(.indexUnusable("it describes a bundle of \(index.bundleSize) bytes, the catalog's is \(bundleSize)"))
        }
        return .success(index)
    }

    /// The index's bytes (at most `size`), through a link renewed once when refused.
    private func fetch() async -> Result<Data, FullDownloadReason> {
        do throws(LibraryError) {
            var requestURL = try await link.signed()
            while true {
                let sink = DataSink(limit: size)
                let request = HTTPRequest(url: requestURL, acceptsCompression: true, limits: transferLimits, policy: policy)
                do {
                    try await request.perform(into: sink, on: transport)
                    return .success(sink.data)
                } catch {
                    // `renewed()` is nil for a free issue, and after its one renewal: the refusal stands.
                    guard AccessLink.refuses(error), let fresh = try await link.renewed() else {
                        return .failure(.indexUnusable("\(link.url.absoluteString): \(error)"))
                    }
                    requestURL = fresh
                }
            }
        } catch {
            return .failure(.indexUnusable(error.description))
        }
    }
}

/// Collects a small body (an index) in memory, cut at `limit` bytes.
final class DataSink: ResponseSink, @unchecked Sendable {  // one transfer, one thread at a time
    private let limit: Int
    private(set) var data = Data()

    init(limit: Int) { self.limit = limit }

    func open(_ head: HTTPHead) throws(TransferFailure) {
        guard head.status == 200 else { throw .httpStatus(head.status) }
        if let length = head.contentLength, length > Int64(limit) { throw .tooLarge(limit: Int64(limit)) }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        guard data.count + chunk.count <= limit else { throw .tooLarge(limit: Int64(limit)) }
        data.append(contentsOf: chunk)
    }

    func finish() throws(TransferFailure) {}
    func close() {}
}
