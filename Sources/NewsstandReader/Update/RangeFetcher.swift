import Foundation
import NewsstandCore

/// Fetches ranges of a bundle into a spool file, one after the other in order (the spool holds
/// range `i` at the sum of the lengths before it), several per request while the server answers
/// `multipart/byteranges` properly, one per request otherwise. Memory stays flat: bytes go to
/// the file as they arrive. A paid issue's requests go to its signed link, renewed once when
/// the server refuses it (the ranges not yet fetched continue through the new one).
struct RangeFetcher: Sendable {
    /// Why the ranges could not all be fetched.
    enum Failure: Error, Sendable, Equatable {
        /// The server answered 200: it ignores `Range`.
        case ignoresRanges
        /// A 206 that does not answer what was asked (after falling back to single ranges).
        case refused(String)
        /// The transfer failed (network, stall, limit, disk, cancelled) after its retries.
        case transfer(TransferFailure)
        /// The access provider refused to renew the paid issue's link.
        case denied(LibraryError)
    }

    let link: AccessLink
    let bundleSize: Int64
    let ranges: [Range<Int64>]
    let spool: OpenFolder
    let spoolName: String
    let limits: TransferLimits
    let policy: NetworkPolicy
    let transport: any HTTPTransport
    let maxAttempts: Int
    let retryDelay: Double
    let clock: LibraryClock
    /// Most ranges asked in one request (a `Range` header stays short).
    static let rangesPerRequest = 32

    /// Fetches every range (all of `ranges`' bytes, when it returns); `received` is called with
    /// each chunk's size. Returns the number of requests made.
    func run(received: @escaping @Sendable (Int64) -> Void) async throws(Failure) -> Int {
        var offsets: [Int64] = [0]
        for range in ranges { offsets.append(offsets[offsets.count - 1] + Int64(range.count)) }
        var requests = 0
        var url: URL
        do {
            url = try await link.signed()
        } catch {
            throw .denied(error)
        }
        var multipart = true
        var next = 0
        while next < ranges.count {
            let count = multipart ? min(Self.rangesPerRequest, ranges.count - next) : 1
            let batch = Array(ranges[next..<(next + count)])
            var attempt = 0
            while true {
                attempt += 1
                requests += 1
                let (answer, failure) = await fetch(batch, from: url, at: offsets[next], received: received)
                guard let failure else { break }
                switch answer {
                case .ignoresRanges: throw .ignoresRanges
                case .refused(let reason):
                    // A server that cannot do multipart properly may still do one range at a time.
                    if batch.count > 1 {
                        multipart = false
                        break
                    }
                    throw .refused(reason)
                case .usable:
                    if failure == .cancelled || Task.isCancelled { throw .transfer(.cancelled) }
                    if AccessLink.refuses(failure) {
                        // nil for a free issue, and after the link's one renewal: the refusal stands.
                        let fresh: URL?
                        do {
                            fresh = try await link.renewed()
                        } catch {
                            throw .denied(error)
                        }
                        guard let fresh else { throw .transfer(failure) }
                        url = fresh
                        continue
                    }
                    guard failure.isTransient, attempt < maxAttempts else { throw .transfer(failure) }
                    await clock.sleep(retryDelay * pow(2, Double(attempt - 1)))
                    continue
                }
                break
            }
            if batch.count > 1, !multipart { continue }  // the same ranges again, one per request
            next += count
        }
        return requests
    }

    /// One request for `batch`, its bytes written at `offset` in the spool (cutting what an
    /// earlier failed attempt left there).
    private func fetch(
        _ batch: [Range<Int64>], from url: URL, at offset: Int64, received: @escaping @Sendable (Int64) -> Void
    ) async -> (RangeAnswer, TransferFailure?) {
        let file: WritableFile
        do {
            file = try spool.openForWriting(spoolName, at: offset)
        } catch {
            return (.usable, .file(error))
        }
        defer { try? file.close() }
        let header = "bytes=" + batch.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ",")
        let request = HTTPRequest(
            url: url, headers: ["Range": header], acceptsCompression: false, limits: limits,
            policy: policy)
        if batch.count == 1 {
            let sink = SingleRangeSink(range: batch[0], total: bundleSize, file: file, received: received)
            do { try await request.perform(into: sink, on: transport) } catch { return (sink.answer, error) }
            return (.usable, nil)
        }
        let sink = MultipartRangeSink(ranges: batch, total: bundleSize, file: file, received: received)
        do { try await request.perform(into: sink, on: transport) } catch { return (sink.answer, error) }
        return (.usable, nil)
    }
}
