/// Why a request found no network it may use: none at all, or only ones its `NetworkPolicy`
/// refuses. Another attempt cannot help until that changes, so a download that meets one ends at
/// once (`LibraryError.networkUnavailable`) instead of retrying.
public enum NetworkUnavailableReason: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The device has no network connection (`notConnectedToInternet`; no route, on Linux).
    case offline
    /// Only a cellular network is there, and the policy does not allow cellular access (or the
    /// user turned cellular data off for the app: `dataNotAllowed`).
    case cellularNotAllowed
    /// Only an expensive network is there, and the policy does not allow expensive access.
    case expensiveNotAllowed
    /// Only a Low Data Mode network is there, and the policy does not allow constrained access.
    case constrainedNotAllowed
    /// Data roaming is off while the device is abroad (`internationalRoamingOff`).
    case roamingOff
    /// A call is using the cellular network, which cannot carry data at once (`callIsActive`).
    case callIsActive

    /// A short reason for messages.
    public var description: String {
        switch self {
        case .offline: "no network connection"
        case .cellularNotAllowed: "only a cellular network, which this download may not use"
        case .expensiveNotAllowed: "only an expensive network, which this download may not use"
        case .constrainedNotAllowed: "only a Low Data Mode network, which this download may not use"
        case .roamingOff: "data roaming is off"
        case .callIsActive: "a call is using the cellular network"
        }
    }
}
