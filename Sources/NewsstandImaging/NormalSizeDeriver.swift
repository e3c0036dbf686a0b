import CVips

/// What a derivation wrote.
public struct DerivedImage: Sendable, Equatable {
    /// The master's format, which the derived image keeps.
    public let format: ImageFormat
    public let width: Int
    public let height: Int
    /// Bytes written.
    public let byteCount: Int64

    public init(format: ImageFormat, width: Int, height: Int, byteCount: Int64) {
        self.format = format
        self.width = width
        self.height = height
        self.byteCount = byteCount
    }
}

/// Makes the normal-size image from an `@2x` master: exactly half its width and height, with
/// Lanczos3, in the master's format (PNG, JPEG or WebP), metadata stripped (a colour profile
/// that is not sRGB is kept: see ``MetadataPolicy``).
///
/// Deterministic: the same master gives the same bytes on every run (fixed encoder settings,
/// no timestamps; libvips resamples 8-bit images in fixed-point arithmetic). Streaming: the
/// master is decoded strip by strip, never whole, unless an EXIF orientation asks for a
/// rotation. Blocking: call it from a thread of your own, not from Swift's cooperative pool.
public struct NormalSizeDeriver: Sendable {
    /// JPEG quality of derived JPEGs (no chroma subsampling at 90 and above).
    public static let jpegQuality = 90
    /// WebP quality of derived WebPs (lossy).
    public static let webpQuality = 90
    /// PNG settings of derived PNGs: zlib level 6 with libpng's adaptive row filters. Level 9
    /// saved 6% more on a photographic page and took ten times as long (13 s instead of 1.3 s
    /// for 1536x2048 here): that is `build --optimize`'s job, not every first build's.
    static let pngEncoding = ImageEncoding.png(compression: 6, filter: VIPS_FOREIGN_PNG_FILTER_ALL)

    public let limits: ImagingLimits

    public init(limits: ImagingLimits = ImagingLimits()) {
        self.limits = limits
    }

    /// Derives the normal size of `master` into `output`.
    ///
    /// An EXIF orientation other than "up" is applied first, so the derived image shows the
    /// same way as the master without carrying the tag. Throws ``ImagingError/oddSize(path:width:height:)``
    /// for an odd width or height, ``ImagingError/unsupportedFormat(path:found:accepted:)`` for
    /// anything but PNG, JPEG and WebP.
    public func derive(from master: ImageInput, to output: ImageOutput) throws(ImagingError) -> DerivedImage {
        let input = try OpenedInput(master)
        return try withExtendedLifetime(input) { () throws(ImagingError) -> DerivedImage in
            var (image, format) = try ImageLoader.load(input, accepting: [.png, .jpeg, .webp], limits: limits)
            if let orientation = image.int("orientation"), orientation > 1, orientation <= 8 {
                // A rotation reads the image out of order: load it for random access.
                image = try ImageLoader.load(input, accepting: [format], limits: limits, sequential: false).image
                image = try step("applying the EXIF orientation", input) { cvips_autorot(image.pointer, $0) }
            }
            let width = image.width
            let height = image.height
            guard width % 2 == 0, height % 2 == 0 else { throw .oddSize(path: input.name, width: width, height: height) }
            var half = try Self.halve(image, input: input)
            if half.width != width / 2 || half.height != height / 2 {
                half = try step("trimming to half size", input) {
                    cvips_crop(half.pointer, $0, 0, 0, Int32(width / 2), Int32(height / 2))
                }
            }
            let prepared: (image: VipsImageRef, strip: Bool)
            do throws(VipsFailure) {
                prepared = try MetadataPolicy.prepare(half)
            } catch {
                throw .processingFailed(path: input.name, step: "reading the colour profile", reason: error.reason)
            }
            let encoding: ImageEncoding
            switch format {
            case .jpeg: encoding = .jpeg(quality: Self.jpegQuality)
            case .webp: encoding = .webp(quality: Self.webpQuality)
            default: encoding = Self.pngEncoding
            }
            let destination = try OpenedOutput(output)
            let bytes = try write(prepared.image, as: encoding, strip: prepared.strip, to: destination, input: input)
            try destination.keep(length: bytes)
            return DerivedImage(format: format, width: width / 2, height: height / 2, byteCount: bytes)
        }
    }

    /// Halves an image with Lanczos3. With alpha, colours are premultiplied first so that
    /// transparent pixels' colours do not bleed into their neighbours, and the result is cast
    /// back to the master's sample format.
    static func halve(_ image: VipsImageRef, input: OpenedInput) throws(ImagingError) -> VipsImageRef {
        guard image.hasAlpha else {
            return try step("resizing", input) { cvips_resize(image.pointer, $0, 0.5, 0.5) }
        }
        let format = image.bandFormat
        let premultiplied = try step("premultiplying alpha", input) { cvips_premultiply(image.pointer, $0) }
        let resized = try step("resizing", input) { cvips_resize(premultiplied.pointer, $0, 0.5, 0.5) }
        let straight = try step("unpremultiplying alpha", input) { cvips_unpremultiply(resized.pointer, $0) }
        return try step("converting back", input) { cvips_cast(straight.pointer, $0, format) }
    }
}

/// Runs one libvips step of an operation on `input`, naming the step when it fails.
func step(
    _ name: String, _ input: OpenedInput, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
) throws(ImagingError) -> VipsImageRef {
    do throws(VipsFailure) {
        return try vipsImage(body)
    } catch {
        throw .processingFailed(path: input.name, step: name, reason: error.reason)
    }
}

/// Writes an image to an output, telling a write failure (the output's) from a decoding one
/// (the input's: libvips decodes as it writes).
func write(
    _ image: VipsImageRef, as encoding: ImageEncoding, strip: Bool, to output: OpenedOutput?, input: OpenedInput
) throws(ImagingError) -> Int64 {
    do throws(ImageWriteFailure) {
        return try ImageWriter.write(image, as: encoding, strip: strip, to: output)
    } catch {
        switch error {
        case .system(let code): throw .cannotWrite(path: output?.name ?? "(counting)", reason: String(cString: strerror(code)))
        case .vips(let reason): throw .unreadable(path: input.name, reason: reason)
        }
    }
}
