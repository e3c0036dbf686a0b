/// How far a download has come: what an app binds to a progress bar.
public struct DownloadProgress: Sendable, Equatable, Codable {
    /// Bytes of the bundle on disk so far (including bytes kept from an earlier attempt).
    public var bytesReceived: Int64
    /// The bundle's full size, when the server or the catalog tells it.
    public var bytesExpected: Int64?

    /// Creates a progress value.
    public init(bytesReceived: Int64, bytesExpected: Int64?) {
        self.bytesReceived = bytesReceived
        self.bytesExpected = bytesExpected
    }

    /// The fraction done, from 0 to 1, when the expected size is known.
    public var fractionCompleted: Double? {
        guard let bytesExpected, bytesExpected > 0 else { return nil }
        return min(1, Double(bytesReceived) / Double(bytesExpected))
    }
}
