import CVips

/// Turns an image file (PNG, JPEG, WebP, HEIF) into a page image of a given width, for importing a
/// folder of page images: EXIF orientation applied, scaled with Lanczos3 (up or down), height made
/// even, saved as PNG or JPEG. Streaming, except for an orientation that needs a rotation and for
/// ``PageEncoding/automatic``, which holds the scaled page in memory (bounded by
/// ``ImagingLimits/maximumPagePixels``). Blocking.
public struct PageImageScaler: Sendable {
    public let limits: ImagingLimits

    public init(limits: ImagingLimits = ImagingLimits()) {
        self.limits = limits
    }

    /// Scales `input` to `width` pixels wide (default 1536) and writes it to `output`.
    public func scale(
        _ input: ImageInput, toWidth width: Int = 1536, encoding: PageEncoding = .automatic, to output: ImageOutput
    ) throws(ImagingError) -> RenderedPage {
        guard width > 0 else { throw .invalidArgument("a page width must be positive, not \(width)") }
        let source = try OpenedInput(input)
        return try withExtendedLifetime(source) { () throws(ImagingError) -> RenderedPage in
            let formats: [ImageFormat] = [.png, .jpeg, .webp, .heif]
            var (image, format) = try ImageLoader.load(source, accepting: formats, limits: limits)
            if let orientation = image.int("orientation"), orientation > 1, orientation <= 8 {
                image = try ImageLoader.load(source, accepting: [format], limits: limits, sequential: false).image
                image = try step("applying the EXIF orientation", source) { cvips_autorot(image.pointer, $0) }
            }
            let factor = Double(width) / Double(image.width)
            let height = Int((Double(image.height) * factor).rounded())
            let evenHeight = height + height % 2
            if width * evenHeight > limits.maximumPagePixels {
                throw .tooLarge(path: source.name, width: width, height: evenHeight, limit: limits.maximumPagePixels)
            }
            let srgb = try Self.toSRGB(image, input: source)
            let scaled = try Self.resize(srgb, by: factor, input: source)
            let shaped = try PageWriter.shape(scaled, width: width, input: source)
            return try PageWriter.write(shaped, encoding: encoding, to: output, input: source)
        }
    }

    /// 8-bit sRGB (or grey) for a page: a CMYK JPEG or 16-bit PNG becomes what a page image is.
    static func toSRGB(_ image: VipsImageRef, input: OpenedInput) throws(ImagingError) -> VipsImageRef {
        var result = image
        let interpretation = result.interpretation
        if interpretation != VIPS_INTERPRETATION_sRGB && interpretation != VIPS_INTERPRETATION_B_W {
            // CMYK, 16-bit RGB or grey, Lab…: libvips converts and scales to 8-bit sRGB.
            result = try step("converting to sRGB", input) { cvips_colourspace_srgb(result.pointer, $0) }
        }
        if result.bandFormat != VIPS_FORMAT_UCHAR {
            result = try step("converting to 8 bits", input) { cvips_cast(result.pointer, $0, VIPS_FORMAT_UCHAR) }
        }
        return result
    }

    /// Lanczos3 by `factor`, premultiplied when there is alpha.
    static func resize(_ image: VipsImageRef, by factor: Double, input: OpenedInput) throws(ImagingError) -> VipsImageRef {
        guard image.hasAlpha else { return try step("resizing", input) { cvips_resize(image.pointer, $0, factor, factor) } }
        let format = image.bandFormat
        let premultiplied = try step("premultiplying alpha", input) { cvips_premultiply(image.pointer, $0) }
        let resized = try step("resizing", input) { cvips_resize(premultiplied.pointer, $0, factor, factor) }
        let straight = try step("unpremultiplying alpha", input) { cvips_unpremultiply(resized.pointer, $0) }
        return try step("converting back", input) { cvips_cast(straight.pointer, $0, format) }
    }
}
