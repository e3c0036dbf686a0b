import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why the system cancelled a background transfer: the number a failed task's error carries
/// under `NSURLErrorBackgroundTaskCancelledReasonKey` (the same constants on Apple platforms and
/// in FoundationNetworking, which never sets it).
public enum SystemCancelReason: Sendable, Equatable, CustomStringConvertible {
    /// The user force-quit the app from the app switcher: iOS cancels the app's background
    /// transfers and relaunches nothing; the next launch may start them again.
    case userForceQuit
    /// Background App Refresh is off for the app (or for the device): background transfers
    /// cannot run until it is on again.
    case backgroundUpdatesDisabled
    /// The device lacked what the transfer needed (battery, heat, the network, the data plan).
    case insufficientSystemResources
    /// A reason this library does not know yet, with its number.
    case other(Int)

    /// The reason `number` stands for.
    public init(_ number: Int) {
        switch number {
        case NSURLErrorCancelledReasonUserForceQuitApplication: self = .userForceQuit
        case NSURLErrorCancelledReasonBackgroundUpdatesDisabled: self = .backgroundUpdatesDisabled
        case NSURLErrorCancelledReasonInsufficientSystemResources: self = .insufficientSystemResources
        default: self = .other(number)
        }
    }

    /// Whether starting the transfer again later may work: not while background transfers are off.
    public var mayRetry: Bool { self != .backgroundUpdatesDisabled }

    /// What happened, for logs and errors.
    public var description: String {
        switch self {
        case .userForceQuit: "the user force-quit the app"
        case .backgroundUpdatesDisabled: "background transfers are turned off for the app (Background App Refresh)"
        case .insufficientSystemResources: "the device lacked the resources (battery, heat, network)"
        case .other(let number): "reason \(number)"
        }
    }
}
