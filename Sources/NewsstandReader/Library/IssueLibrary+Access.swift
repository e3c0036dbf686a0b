import Foundation
import NewsstandCore

extension IssueLibrary {
    /// The link to fetch `url` of `record`'s issue through: signed by the configuration's
    /// `AccessProvider` when the catalog sells the issue, the URL itself when it is free.
    func accessLink(_ record: IssueRecord, url: URL, resource: AccessRequest.Resource) -> AccessLink {
        AccessLink(
            issue: record.name, productID: record.productID, url: url, resource: resource, isPaid: record.access == .paid,
            provider: configuration.accessProvider)
    }

    /// The error for a paid issue whose renewed link the server refused too.
    static func refusedAfterRenewal(_ name: String, _ failure: TransferFailure) -> LibraryError {
        .notEntitled(name: name, reason: "the server refused the renewed link (\(failure))")
    }
}
