import NewsstandReader
import Testing

/// The transports the download suites run on: libcurl (the Linux default) and URLSession (the
/// Apple default, compiled and run here too, so that path cannot rot unseen).
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl
    case urlSession

    var testDescription: String { rawValue }

    /// The transport itself.
    var transport: any HTTPTransport {
        switch self {
        case .curl:
            #if os(Linux)
                CurlTransport()
            #else
                LibraryConfiguration.platformTransport
            #endif
        case .urlSession: URLSessionTransport()
        }
    }

    /// What a library uses unless told otherwise on this platform.
    static var platformDefault: Transport {
        #if os(Linux)
            .curl
        #else
            .urlSession
        #endif
    }
}
