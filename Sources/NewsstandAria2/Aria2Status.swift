import NewsstandReader

/// One download as aria2 reports it (`tellStatus` and the lists), checked: a GID of 16 hex
/// digits, a known state, lengths that are numbers, at most one file. What it says is still
/// aria2's word: which key it belongs to and where its file is are decided by `Aria2Files`.
struct Aria2Status: Equatable, Sendable {
    /// aria2's states.
    enum State: String, Sendable {
        case active, waiting, paused, error, complete, removed

        /// Whether aria2 still works on it (or will, once a slot is free or it is unpaused).
        var isUnfinished: Bool { self == .active || self == .waiting || self == .paused }
    }

    var gid: String
    var state: State
    var totalLength: Int64
    var completedLength: Int64
    /// aria2's error code and message for a failed download (`Aria2ErrorCode`).
    var errorCode: Int?
    var errorMessage: String
    /// The output file's path, as aria2 says it.
    var path: String?
    /// The URIs aria2 fetches it from.
    var uris: [String]

    /// What aria2 sent, all strings (aria2 writes numbers as strings).
    struct Raw: Decodable {
        var gid: String?
        var status: String?
        var totalLength: String?
        var completedLength: String?
        var errorCode: String?
        var errorMessage: String?
        var files: [File]?

        struct File: Decodable {
            var path: String?
            var uris: [URI]?
        }

        struct URI: Decodable {
            var uri: String?
        }
    }

    /// The checked status; nil for anything that is not a download as aria2 describes one.
    init?(_ raw: Raw) {
        guard let gid = raw.gid, gid.utf8.count == 16, gid.utf8.allSatisfy({ Self.isHexDigit($0) }),
            let state = raw.status.flatMap(State.init(rawValue:)),
            let total = raw.totalLength.flatMap({ Int64($0) }), total >= 0,
            let completed = raw.completedLength.flatMap({ Int64($0) }), completed >= 0,
            (raw.files ?? []).count <= 1
        else { return nil }
        self.gid = gid
        self.state = state
        totalLength = total
        completedLength = completed
        errorCode = raw.errorCode.flatMap { Int($0) }
        errorMessage = Aria2Text.printable(raw.errorMessage ?? "")
        path = raw.files?.first?.path
        uris = raw.files?.first?.uris?.compactMap(\.uri) ?? []
    }

    /// Bytes so far, and the size when aria2 knows it.
    var progress: DownloadProgress {
        DownloadProgress(bytesReceived: completedLength, bytesExpected: totalLength > 0 ? totalLength : nil)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...102).contains(byte)
    }
}
