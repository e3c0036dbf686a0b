import Foundation
import NewsstandCore

/// A paid issue's content on an object store, checked as the store serves it signed: a
/// presigned URL (`rclone link --expire`: S3's query-string signature with the remote's
/// credentials, GCS's signed URL) for each bundle, asked for with a HEAD. newsstand signs
/// nginx's `secure_link` form only; a CDN in front (CloudFront signed URLs) signs its own way,
/// with keys publish does not hold, so this checks the bucket behind it.
extension RcloneDestination {
    /// Problems found with `entry`'s bundles (both sizes) fetched presigned; a remote that makes
    /// no links is one problem saying so.
    func checkPresigned(_ entry: CatalogEntry, timeouts: PublishTimeouts) async -> [String] {
        var problems: [String] = []
        for retina in [false, true] {
            let url = entry.contentURL(retina: retina)
            guard let start = url.range(of: "/\(IssueAccess.paidFolder)/") else { continue }
            let path = String(url[url.index(after: start.lowerBound)...])
            let link: String
            do {
                let result = try await run(
                    ["link", "--expire", "10m", target(path)], step: "verify", path: path, allowFailure: true)
                guard result.status == 0 else {
                    return [
                        "'\(entry.name)' is a paid issue and \(description) makes no presigned links (\(PrintableText.escaped(result.error))): its content is not verified; give the host's signing secret with --secret-file"
                    ]
                }
                link = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                return ["\(url): \(error)"]
            }
            let request = HTTPExchange.Request(method: "HEAD", url: link)
            switch await BlockingWork.run({ HTTPExchange.perform(request, timeouts: timeouts) }) {
            case .success(let response) where response.status == 200:
                if let size = entry.contentSize(retina: retina), let length = response.contentLength, length != Int64(size) {
                    problems.append("\(url): \(length) bytes presigned from the bucket, the catalog says \(size)")
                }
            case .success(let response):
                problems.append("\(url): HTTP \(response.status) to the bucket's presigned URL")
            case .failure(let failure):
                problems.append("\(url): the bucket's presigned URL: \(failure)")
            }
        }
        return problems
    }
}
