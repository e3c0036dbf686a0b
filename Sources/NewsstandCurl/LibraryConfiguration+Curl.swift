import NewsstandReader

extension LibraryConfiguration {
    /// The defaults with every request on libcurl where it is linked (Linux), URLSession elsewhere:
    /// what `newsstand library`, the reader's benchmark and the test apps run on.
    public static var onCurl: LibraryConfiguration {
        var configuration = LibraryConfiguration()
        #if canImport(CCurl)
            configuration.transport = CurlTransport()
        #endif
        return configuration
    }
}
