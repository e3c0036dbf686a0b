import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// Applies a `NetworkPolicy` to a URLSession request, on Linux: FoundationNetworking has
    /// `allowsCellularAccess` and `isDiscretionary` (neither changes anything there) and none of
    /// the rest (`waitsForConnectivity` is marked unavailable, the expensive and constrained
    /// settings do not exist), and its errors carry no `networkUnavailableReason`.
    enum URLSessionPolicy {
        static func apply(_ policy: NetworkPolicy, to configuration: URLSessionConfiguration, _ request: inout URLRequest) {
            configuration.allowsCellularAccess = policy.allowsCellularAccess
            configuration.isDiscretionary = policy.isDiscretionary
            request.allowsCellularAccess = policy.allowsCellularAccess
        }

        static func unavailability(of error: URLError) -> NetworkUnavailableReason? { nil }
    }
#else
    /// Applies a `NetworkPolicy` to a URLSession request on Apple platforms: every field, on the
    /// session's configuration and on the request (iOS 13 and macOS 10.15 for the expensive and
    /// constrained settings, below the reader's floor), and reads why a task found no network it
    /// may use (`URLError.networkUnavailableReason`).
    enum URLSessionPolicy {
        static func apply(_ policy: NetworkPolicy, to configuration: URLSessionConfiguration, _ request: inout URLRequest) {
            configuration.allowsCellularAccess = policy.allowsCellularAccess
            configuration.allowsExpensiveNetworkAccess = policy.allowsExpensiveNetworkAccess
            configuration.allowsConstrainedNetworkAccess = policy.allowsConstrainedNetworkAccess
            configuration.isDiscretionary = policy.isDiscretionary
            configuration.waitsForConnectivity = policy.waitsForConnectivity
            request.allowsCellularAccess = policy.allowsCellularAccess
            request.allowsExpensiveNetworkAccess = policy.allowsExpensiveNetworkAccess
            request.allowsConstrainedNetworkAccess = policy.allowsConstrainedNetworkAccess
        }

        static func unavailability(of error: URLError) -> NetworkUnavailableReason? {
            switch error.networkUnavailableReason {
            case .cellular?: .cellularNotAllowed
            case .expensive?: .expensiveNotAllowed
            case .constrained?: .constrainedNotAllowed
            case nil: nil
            // A reason of a later SDK (ultra-constrained networks, iOS 26.1): still no network it
            // may use.
            @unknown default: .constrainedNotAllowed
            }
        }
    }
#endif
