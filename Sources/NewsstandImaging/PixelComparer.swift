import CVips

/// The shape of a decoded image: what must match before pixels can be compared.
public struct ImageLayout: Sendable, Equatable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// Channels: 1 grey, 2 grey and alpha, 3 colour, 4 colour and alpha.
    public let bands: Int
    /// Bits per sample as decoded: 8 or 16 (32 and 64 for float formats).
    public let bitsPerSample: Int

    public init(width: Int, height: Int, bands: Int, bitsPerSample: Int) {
        self.width = width
        self.height = height
        self.bands = bands
        self.bitsPerSample = bitsPerSample
    }

    init(_ image: VipsImageRef) {
        self.init(
            width: image.width, height: image.height, bands: image.bands,
            bitsPerSample: Int(cvips_format_sizeof(image.bandFormat)) * 8)
    }

    public var description: String { "\(width)x\(height), \(bands) bands of \(bitsPerSample) bits" }
}

/// What comparing two images found.
public enum PixelComparison: Sendable, Equatable {
    /// Same dimensions, bands, sample format and every sample of every pixel.
    case identical
    /// Their shapes differ, so their pixels cannot be the same.
    case differentLayout(ImageLayout, ImageLayout)
    /// Same shape; the pixel at (`x`, `y`) is the first found that differs (found by libvips'
    /// minimum search over the equality image: any differing pixel, not necessarily the first
    /// in reading order).
    case differentPixels(x: Int, y: Int)
}

/// Decodes two image files with libvips and compares them pixel by pixel. Streaming: both are
/// decoded strip by strip in step, so memory does not grow with the images. Blocking.
public struct PixelComparer: Sendable {
    public let limits: ImagingLimits

    public init(limits: ImagingLimits = ImagingLimits()) {
        self.limits = limits
    }

    /// Compares the pixels of two PNG, JPEG, WebP or HEIF files (of any two of those formats:
    /// what is compared is what they decode to, so a palette PNG equals the RGB PNG of its
    /// colours, and a grey PNG the RGB PNG whose three channels equal its grey).
    public func compare(_ first: ImageInput, _ second: ImageInput) throws(ImagingError) -> PixelComparison {
        let a = try OpenedInput(first)
        let b = try OpenedInput(second)
        return try withExtendedLifetime((a, b)) { () throws(ImagingError) -> PixelComparison in
            try Self.compare(a, b, limits: limits)
        }
    }

    static func compare(_ a: OpenedInput, _ b: OpenedInput, limits: ImagingLimits) throws(ImagingError) -> PixelComparison {
        let formats: [ImageFormat] = [.png, .jpeg, .webp, .heif]
        var left = try ImageLoader.load(a, accepting: formats, limits: limits).image
        var right = try ImageLoader.load(b, accepting: formats, limits: limits).image
        let layouts = (ImageLayout(left), ImageLayout(right))
        // Grey shows as the colour whose three channels equal it: compare it as that.
        if left.bands + 2 == right.bands, left.bands <= 2 { left = try Greyscale.expand(left, input: a) }
        if right.bands + 2 == left.bands, right.bands <= 2 { right = try Greyscale.expand(right, input: b) }
        guard ImageLayout(left) == ImageLayout(right), left.bandFormat == right.bandFormat else {
            return .differentLayout(layouts.0, layouts.1)
        }
        let equal: VipsImageRef
        do throws(VipsFailure) {
            equal = try vipsImage { cvips_equal(left.pointer, right.pointer, $0) }
        } catch {
            throw .processingFailed(path: a.name, step: "comparing with '\(b.name)'", reason: error.reason)
        }
        var smallest = 0.0
        var x: Int32 = 0
        var y: Int32 = 0
        // Decoding happens here, as the minimum is searched: a damaged file fails now.
        // withExtendedLifetime: an optimised build may otherwise release `equal` (and free the
        // image) between reading its pointer and the call that uses it.
        let status = withExtendedLifetime(equal) { cvips_min(equal.pointer, &smallest, &x, &y) }
        guard status == 0 else {
            throw .processingFailed(path: a.name, step: "decoding it and '\(b.name)' to compare", reason: VipsRuntime.takeError())
        }
        return smallest == 255 ? .identical : .differentPixels(x: Int(x), y: Int(y))
    }
}
