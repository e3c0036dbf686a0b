import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request of a background download task, and what a task's request says back after a
/// relaunch, when the job that made it is gone.
enum BackgroundSessionRequest {
    /// The GET for `job`, continuing the part file from `point` when it is `partial`.
    static func make(for job: TransferJob, from point: PartResumePoint) -> URLRequest {
        var request = URLRequest(url: job.url, cachePolicy: .reloadIgnoringLocalCacheData)
        // A bundle as stored: `Range` offsets must be offsets in the file.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if case .partial(let offset, let validator) = point {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        BackgroundSessionPlatform.applyNetworkPolicy(of: job, to: &request)
        return request
    }

    /// The part bytes `request` continues (its `Range: bytes=<offset>-`), 0 for a request of
    /// the whole file. The system keeps a task's request across relaunches, so this is known
    /// for every task, also one the process did not start.
    static func offset(of request: URLRequest?) -> Int64 {
        guard let range = request?.value(forHTTPHeaderField: "Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
            let offset = Int64(range.dropFirst(6).dropLast()), offset > 0
        else { return 0 }
        return offset
    }
}
