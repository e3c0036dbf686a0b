import Foundation

/// What an app implements to let the library fetch paid issues: it asks the publisher's
/// entitlement service (with the store receipt or the reader's login) for a signed, expiring
/// URL. The library asks before a paid issue's bundle, index or range requests, and once more
/// when the server refuses the link (401 or 403: it expired mid-download); free issues never
/// call it. Keep expiries in seconds and long enough for a whole download: a background
/// engine cannot ask mid-transfer, only on the relaunch that reports its failure.
public protocol AccessProvider: Sendable {
    /// The URL to fetch instead of `request.url` (usually the same URL with a signature in its
    /// query), or `AccessDenial` when the reader is not entitled to the issue.
    func authorize(_ request: AccessRequest) async throws(AccessDenial) -> URL
}

/// One question to an `AccessProvider`.
public struct AccessRequest: Sendable, Equatable {
    /// What the URL is.
    public enum Resource: String, Sendable, Equatable {
        /// The bundle (a whole download, or the ranges of an update).
        case bundle
        /// The bundle's index (the start of an update by ranges).
        case index
    }

    /// The name in the catalog.
    public var name: String
    /// The catalog's `ProductID` for it, when it gives one.
    public var productID: String?
    /// The catalog's unsigned URL.
    public var url: URL
    /// What `url` is.
    public var resource: Resource
    /// Whether the server refused an earlier answer for the same URL (the link expired).
    public var isRenewal: Bool

    /// A request for `url` of issue `name`.
    public init(name: String, productID: String?, url: URL, resource: Resource, isRenewal: Bool = false) {
        self.name = name
        self.productID = productID
        self.url = url
        self.resource = resource
        self.isRenewal = isRenewal
    }
}

/// An `AccessProvider`'s refusal: the reader is not entitled to the issue (or the entitlement
/// service cannot say so now). `reason` is shown to the user; it must carry no secret.
public struct AccessDenial: Error, Sendable, Equatable {
    /// Why, in a few words.
    public var reason: String

    /// A refusal for `reason`.
    public init(reason: String) { self.reason = reason }
}
