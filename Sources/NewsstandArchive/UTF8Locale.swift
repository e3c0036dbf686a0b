#if canImport(Glibc)
    import Glibc
#endif

/// libarchive converts entry names between UTF-8 and the calling thread's locale, and in the C
/// locale (any program that never calls `setlocale`) it cannot: a name like `été.png` comes back
/// as nothing. Our archives and the zips a reader meets name their entries in UTF-8, so the
/// archive code runs its libarchive calls under a UTF-8 locale set for the calling thread only
/// (`uselocale`), never the process's: an app's own locale and its other threads are untouched.
enum UTF8Locale {
    #if canImport(Glibc)
        /// `C.UTF-8` (glibc ships it since 2.35; Debian always has it), created once and never freed.
        nonisolated(unsafe) private static let utf8: locale_t? =
            newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)
    #endif

    /// Runs `body` with the calling thread's character type set to UTF-8, then restores it.
    /// Where no UTF-8 locale exists, `body` runs as it is (non-ASCII names then fail clearly).
    static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        #if canImport(Glibc)
            guard let utf8 else { return try body() }
            let previous = uselocale(utf8)
            defer { uselocale(previous) }
        #endif
        return try body()
    }
}
