/// The answer to a background fetch or a silent push, as an app hands it to the system
/// (`UIBackgroundFetchResult`).
public enum NewContentResult: String, Sendable, Equatable {
    /// New issues or content were found (and downloaded when asked).
    case newData
    /// Nothing changed.
    case noData
    /// The catalog or a download failed.
    case failed
}
