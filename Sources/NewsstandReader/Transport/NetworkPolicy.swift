/// Which networks one request may use and how it waits for one: what `download(_:policy:…)` takes
/// for each download (the configuration's `networkPolicy` by default) and what every
/// `HTTPRequest` carries to its transport. A plain value, so that a background download engine
/// can keep it with a transfer and apply it later.
///
/// `URLSessionTransport` applies every field on Apple platforms (`URLSessionConfiguration` and
/// `URLRequest`); on Linux, where there are no cellular, expensive or constrained networks to tell
/// apart, FoundationNetworking has `allowsCellularAccess` and `isDiscretionary` only, and libcurl
/// none of them. A request that is refused a network fails with
/// `TransferFailure.networkUnavailable`, at once and without retries.
public struct NetworkPolicy: Sendable, Equatable, Hashable, Codable {
    /// Whether the request may use a cellular interface.
    public var allowsCellularAccess: Bool
    /// Whether it may use a network the system considers expensive (most cellular networks and
    /// personal hotspots, on iOS).
    public var allowsExpensiveNetworkAccess: Bool
    /// Whether it may use the network while the user has turned on Low Data Mode.
    public var allowsConstrainedNetworkAccess: Bool
    /// Whether the system may defer it to a moment it finds better (power, network): for downloads
    /// the user did not ask for (a new issue found by a background fetch). URLSession honours it
    /// for background sessions, which the background engine (#22) uses.
    public var isDiscretionary: Bool
    /// Whether it waits for a network instead of failing at once when there is none (URLSession
    /// on Apple platforms; the transfer's deadline and stall rule start once it connects).
    public var waitsForConnectivity: Bool

    /// A policy with every field given.
    public init(
        allowsCellularAccess: Bool = true, allowsExpensiveNetworkAccess: Bool = true,
        allowsConstrainedNetworkAccess: Bool = true, isDiscretionary: Bool = false, waitsForConnectivity: Bool = false
    ) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
        self.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
        self.isDiscretionary = isDiscretionary
        self.waitsForConnectivity = waitsForConnectivity
    }

    /// Any network, at once: what a user waiting for a download wants (the default).
    public static let interactive = NetworkPolicy()

    /// For a download the user did not ask for: no expensive or Low Data Mode network, at the
    /// system's discretion, waiting for a network rather than failing.
    public static let automatic = NetworkPolicy(
        allowsExpensiveNetworkAccess: false, allowsConstrainedNetworkAccess: false, isDiscretionary: true,
        waitsForConnectivity: true)
}

extension TransferJob {
    /// Takes the network settings of `policy`: what a download was asked with, handed to an
    /// engine (`isDiscretionary` is the job's `intent`, `waitsForConnectivity` the engine's own).
    public mutating func apply(_ policy: NetworkPolicy) {
        allowsCellularAccess = policy.allowsCellularAccess
        allowsExpensiveNetworkAccess = policy.allowsExpensiveNetworkAccess
        allowsConstrainedNetworkAccess = policy.allowsConstrainedNetworkAccess
    }
}
