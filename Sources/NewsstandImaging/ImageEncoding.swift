import CVips

/// How an image is written: the encoder and every setting that changes its bytes, fixed so that
/// the same pixels give the same file on every run.
enum ImageEncoding: Equatable {
    /// `filter`: libpng's row filters (`VIPS_FOREIGN_PNG_FILTER_*`; ALL lets libpng choose per
    /// row). `palette` with `bitDepth`: an indexed PNG (only kept after a pixel check).
    /// `bitDepth` 0 keeps the image's own.
    case png(compression: Int, filter: VipsForeignPngFilter, palette: Bool = false, bitDepth: Int = 0)
    case jpeg(quality: Int)
    case webp(quality: Int)

    var format: ImageFormat {
        switch self {
        case .png: return .png
        case .jpeg: return .jpeg
        case .webp: return .webp
        }
    }
}

/// Why writing failed: the system refused a write (`errno`), or libvips failed, most often
/// because the input's pixels could not be decoded as they were pulled through.
enum ImageWriteFailure: Error {
    case system(errno: Int32)
    case vips(String)
}

/// Encodes images into files or into a byte counter.
enum ImageWriter {
    /// Writes `image` from offset 0 of `output` (or only counts the bytes when it is nil) and
    /// returns the byte count. `strip` drops every metadata field libvips would write (ICC,
    /// EXIF, XMP, comments).
    static func write(_ image: VipsImageRef, as encoding: ImageEncoding, strip: Bool, to output: OpenedOutput?)
        throws(ImageWriteFailure) -> Int64
    {
        var state = CVipsWriteState(fd: output?.descriptor ?? -1, written: 0, error: 0)
        let status: Int32 = withUnsafeMutablePointer(to: &state) { statePointer in
            guard let target = cvips_target_new(statePointer) else { return -1 }
            defer { cvips_unref(target) }
            let strip: gboolean = strip ? 1 : 0
            switch encoding {
            case .png(let compression, let filter, let palette, let bitDepth):
                return cvips_pngsave(
                    image.pointer, target, Int32(compression), Int32(filter.rawValue), strip, palette ? 1 : 0, Int32(bitDepth))
            case .jpeg(let quality):
                return cvips_jpegsave(image.pointer, target, Int32(quality), strip)
            case .webp(let quality):
                return cvips_webpsave(image.pointer, target, Int32(quality), strip)
            }
        }
        if state.error != 0 {
            _ = VipsRuntime.takeError()
            throw .system(errno: state.error)
        }
        if status != 0 { throw .vips(VipsRuntime.takeError()) }
        return Int64(state.written)
    }
}
