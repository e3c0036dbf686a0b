import Foundation
import NewsstandCore

/// The URL to fetch for one catalog URL of one issue: the catalog's own for a free issue, the
/// provider's answer for a paid one, renewed once when the server refuses it. Errors name the
/// unsigned URL only: a signature never leaves this type but in requests.
struct AccessLink: Sendable {
    let issue: String
    let productID: String?
    /// The catalog's URL: the key of part files and the URL errors and logs name.
    let url: URL
    let resource: AccessRequest.Resource
    let isPaid: Bool
    let provider: (any AccessProvider)?
    /// Whether `renewed()` was used: only one renewal per link. Not private, so that the
    /// memberwise initializer stays internal.
    let renewal = Locked(false)

    /// The URL to request first.
    func signed() async throws(LibraryError) -> URL {
        try await ask(isRenewal: false)
    }

    /// A fresh URL after a 401 or 403, or nil when this link was already renewed once or the
    /// issue is free (the refusal then stands).
    func renewed() async throws(LibraryError) -> URL? {
        guard isPaid, !renewal.exchange(true) else { return nil }
        return try await ask(isRenewal: true)
    }

    /// Whether `failure` is the server refusing the link.
    static func refuses(_ failure: TransferFailure) -> Bool {
        if case .httpStatus(let status) = failure { return status == 401 || status == 403 }
        return false
    }

    private func ask(isRenewal: Bool) async throws(LibraryError) -> URL {
        guard isPaid else { return url }
        guard let provider else {
            throw .notEntitled(name: issue, reason: "the issue is paid and the library has no access provider")
        }
        let request = AccessRequest(name: issue, productID: productID, url: url, resource: resource, isRenewal: isRenewal)
        let answer: URL
        do {
            answer = try await provider.authorize(request)
        } catch {
            throw .notEntitled(name: issue, reason: error.reason)
        }
        guard let scheme = answer.scheme?.lowercased(), scheme == "http" || scheme == "https", answer.host != nil else {
            throw .notEntitled(name: issue, reason: "the access provider answered a URL that is not http or https")
        }
        return answer
    }
}
