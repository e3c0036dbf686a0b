import Foundation
import NewsstandCore
import NewsstandReader

/// What a failed aria2 download's error code and message mean for the library. aria2 folds
/// HTTP statuses into a few codes (3 is a 404; 22, 24 and 29 say `status=NNN` in the message):
/// those become `httpStatus`, so a 404 is not resumable and a 503 is retried; a full disk is
/// `file`; everything else is `network`, with aria2's code and words.
enum Aria2ErrorCode {
    /// The failure of a download aria2 reports as `error`, and whether a later start can
    /// continue what it got.
    static func failure(of status: Aria2Status, folder: String) -> (failure: TransferFailure, resumable: Bool) {
        let failure = failure(code: status.errorCode ?? 1, message: status.errorMessage, path: status.path ?? folder)
        return (failure, failure.isTransient)
    }

    static func failure(code: Int, message: String, path: String) -> TransferFailure {
        switch code {
        case 3: return .httpStatus(404)
        case 22, 24, 29:
            if let status = httpStatus(in: message) { return .httpStatus(status) }
            return code == 24 ? .httpStatus(401) : .network(code: code, reason: "aria2 error \(code): \(message)")
        case 5: return .stalled
        case 8: return .rangeNotSatisfiable
        case 9: return .file(.system(path: Aria2Text.printable(path), code: ENOSPC))
        default: return .network(code: code, reason: "aria2 error \(code): \(message)")
        }
    }

    /// The status in aria2's "The response status is not successful. status=403".
    static func httpStatus(in message: String) -> Int? {
        guard let range = message.range(of: "status=", options: .backwards) else { return nil }
        let digits = message[range.upperBound...]
        guard digits.count == 3, let status = Int(digits), (100...599).contains(status) else { return nil }
        return status
    }
}
