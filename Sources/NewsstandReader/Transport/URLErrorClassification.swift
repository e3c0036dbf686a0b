import Foundation

/// What a URLSession task's error means for the library (`TransferFailure`), by its code: the
/// same on every platform, so the Linux tests check the mapping the Apple build uses.
enum URLErrorClassification {
    /// The failure for `error`, which ended a URLSession task.
    static func failure(for error: Error) -> TransferFailure {
        let urlError = error as? URLError
        if let urlError, let reason = URLSessionPolicy.unavailability(of: urlError) { return .networkUnavailable(reason) }
        let code = urlError?.code.rawValue ?? (error as NSError).code
        switch code {
        case URLError.Code.notConnectedToInternet.rawValue: return .networkUnavailable(.offline)
        case URLError.Code.dataNotAllowed.rawValue: return .networkUnavailable(.cellularNotAllowed)
        case URLError.Code.internationalRoamingOff.rawValue: return .networkUnavailable(.roamingOff)
        case URLError.Code.callIsActive.rawValue: return .networkUnavailable(.callIsActive)
        case URLError.Code.cancelled.rawValue: return .cancelled
        case URLError.Code.timedOut.rawValue: return .stalled
        case URLError.Code.unsupportedURL.rawValue, URLError.Code.badURL.rawValue:
            return .unsupportedURL(reason: error.localizedDescription)
        case URLError.Code.appTransportSecurityRequiresSecureConnection.rawValue:
            return .insecureConnectionRefused(reason: "App Transport Security requires a secure connection (https)")
        case URLError.Code.serverCertificateUntrusted.rawValue, URLError.Code.serverCertificateHasBadDate.rawValue,
            URLError.Code.serverCertificateHasUnknownRoot.rawValue, URLError.Code.serverCertificateNotYetValid.rawValue,
            URLError.Code.clientCertificateRejected.rawValue, URLError.Code.clientCertificateRequired.rawValue:
            return .insecureConnectionRefused(reason: error.localizedDescription)
        default: return .network(code: code, reason: error.localizedDescription)
        }
    }
}
