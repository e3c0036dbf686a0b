import CVips

/// Facts about the engine for callers that cache its results.
public enum ImagingEngine {
    /// "libvips 8.14.1", or the reason libvips cannot be opened.
    public static var libraryVersion: String {
        do throws(ImagingError) {
            return "libvips " + (try VipsRuntime.version())
        } catch {
            return error.description
        }
    }

    /// Changes whenever a derived image's bytes could: the libvips version and every fixed
    /// encoder setting. A build that caches derived images keyed by the master's hash should add
    /// this to the key, so that a libvips upgrade derives again instead of mixing outputs.
    public static var derivationFingerprint: String {
        "\(libraryVersion); lanczos3 0.5, premultiplied alpha, no vector code; png 6 all-filters; "
            + "jpeg q\(NormalSizeDeriver.jpegQuality) optimize-coding auto-subsample; webp q\(NormalSizeDeriver.webpQuality) effort 4"
    }

    /// Limits glibc to two malloc arenas (`mallopt(M_ARENA_MAX, 2)`; nothing elsewhere).
    /// libvips' worker threads and poppler's allocations fragmented glibc's default eight per
    /// core: rendering PDF pages one at a time peaked at 119 MB after 10 pages and 179 MB after
    /// 100; with two, 100-104 MB whatever the count, at the same speed. The setting is
    /// process-wide, so the engine never sets it itself: an executable calls this at start-up
    /// (`newsstand` does); an app embedding the engine keeps its own allocator settings.
    public static func limitMallocArenas() {
        cvips_limit_malloc_arenas()
    }

    /// For a process that runs one imaging job and nothing else (the import's page renderer):
    /// every message a library logs through GLib (poppler's complaints about a PDF, GLib's own
    /// warnings) is written to `descriptor` as a line ``LibraryMessage`` reads, instead of being
    /// printed to standard error or, for poppler's, dropped; and libvips works on `threads`
    /// threads (the process renders one page while others render theirs). Process-wide, so an
    /// app embedding the engine never calls it.
    public static func dedicateProcess(messagesTo descriptor: Int32, threads: Int) throws(ImagingError) {
        cvips_log_to(descriptor)
        try VipsRuntime.start()
        cvips_set_concurrency(Int32(max(1, threads)))
    }
}
