import NewsstandCurl
import NewsstandReader
import Testing

/// The transports the download suites run on: libcurl (what `newsstand` uses on Linux) and
/// URLSession (the library's default, compiled and run here too, so that path cannot rot unseen).
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
                URLSessionTransport()
            #endif
        case .urlSession: URLSessionTransport()
        }
    }

    /// What the suites use unless a test runs on both: what `newsstand` uses on this platform.
    static var platformDefault: Transport {
        #if os(Linux)
            .curl
        #else
            .urlSession
        #endif
    }
}
