import Foundation

extension LibraryConfiguration {
    #if canImport(CCurl)
        /// libcurl, where it is linked (Linux): FoundationNetworking's URLSession hands a body to
        /// its delegate in small chunks through an operation queue, without back-pressure.
        public static var platformTransport: any HTTPTransport { CurlTransport() }
    #else
        /// URLSession, on Apple platforms (where the SDKs have no libcurl).
        public static var platformTransport: any HTTPTransport { URLSessionTransport() }
    #endif
}
