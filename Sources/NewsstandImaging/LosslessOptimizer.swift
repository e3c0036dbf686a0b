/// Makes PNG and JPEG files smaller without changing a pixel, for `build --optimize`.
///
/// - PNG: re-encoded by libvips at zlib level 9, with libpng's adaptive filters and with no
///   filter (the better of the two is kept: flat artwork often prefers none), and, for a palette
///   or low-bit-depth grey original, at its own depth (a palette built at full quality without
///   dithering: kept only when it gives back every pixel).
/// - JPEG: rewritten by libjpeg without decoding (the DCT coefficients are copied), with
///   optimised Huffman tables.
///
/// Both drop EXIF, XMP, text and comments, and a colour profile that behaves as sRGB; a profile
/// that is not sRGB is kept (see ``MetadataPolicy``). The result is kept only when it is smaller
/// and libvips decodes it to exactly the original's pixels; otherwise the outcome says to keep the
/// original. Blocking: call it from a thread of your own.
public struct LosslessOptimizer: Sendable {
    public let limits: ImagingLimits

    public init(limits: ImagingLimits = ImagingLimits()) {
        self.limits = limits
    }

    /// Optimises `input` into `output` (which must be new or empty: see ``ImageOutput``).
    public func optimize(_ input: ImageInput, to output: ImageOutput) throws(ImagingError) -> OptimizationOutcome {
        let source = try OpenedInput(input)
        return try withExtendedLifetime(source) { () throws(ImagingError) -> OptimizationOutcome in
            let (image, format) = try ImageLoader.load(source, accepting: [.png, .jpeg, .webp, .heif], limits: limits)
            if let orientation = image.int("orientation"), orientation > 1, orientation <= 8 {
                return .keptOriginal(bytes: source.size, reason: .orientationTag(orientation))
            }
            switch format {
            case .png:
                return try PNGOptimizer(limits: limits).optimize(source, header: image, to: output)
            case .jpeg:
                return try JPEGOptimizer(limits: limits).optimize(
                    source, keepingProfile: MetadataPolicy.keepsProfile(of: image), to: output)
            default:
                return .keptOriginal(bytes: source.size, reason: .formatNotOptimized(format))
            }
        }
    }
}

/// Checks a rewritten file against the original and keeps it when it shows the same pixels.
func keepIfIdentical(
    _ source: OpenedInput, _ destination: OpenedOutput, bytes: Int64, limits: ImagingLimits
) throws(ImagingError) -> OptimizationOutcome {
    let written = try OpenedInput(.descriptor(destination.descriptor, name: destination.name))
    let comparison = try withExtendedLifetime(written) { () throws(ImagingError) -> PixelComparison in
        try PixelComparer.compare(source, written, limits: limits)
    }
    guard comparison == .identical else {
        try destination.reset()
        return .keptOriginal(bytes: source.size, reason: .pixelsDiffer(comparison))
    }
    try destination.keep(length: bytes)
    return .optimized(bytesBefore: source.size, bytesAfter: bytes)
}
