import CVips

/// Opens inputs with libvips, accepting only the formats an operation takes.
enum ImageLoader {
    /// Loads `input`'s header (pixels are decoded later, as they are pulled) after checking that
    /// libvips recognises it as one of `accepted` and that it is within the pixel limit.
    /// `sequential`: pixels are read top to bottom once, in strips (bounded memory); random access
    /// may make libvips decode the whole image first.
    static func load(
        _ input: OpenedInput, accepting accepted: [ImageFormat], limits: ImagingLimits, sequential: Bool = true
    ) throws(ImagingError) -> (image: VipsImageRef, format: ImageFormat) {
        try VipsRuntime.start()
        guard let source = cvips_source_new_pread(input.descriptor) else {
            throw .processingFailed(path: input.name, step: "opening", reason: VipsRuntime.takeError())
        }
        defer { cvips_unref(source) }
        let format = try detect(source, name: input.name, accepting: accepted)
        let image: VipsImageRef
        do throws(VipsFailure) {
            image = try vipsImage { cvips_load(source, $0, sequential ? 1 : 0) }
        } catch {
            throw .unreadable(path: input.name, reason: error.reason)
        }
        let pixels = image.width * image.height
        if pixels > limits.maximumInputPixels {
            throw .tooLarge(path: input.name, width: image.width, height: image.height, limit: limits.maximumInputPixels)
        }
        return (image, format)
    }

    /// The format libvips sniffs from the first bytes, when it is one of `accepted`.
    static func detect(_ source: UnsafeMutablePointer<VipsSource>, name: String, accepting accepted: [ImageFormat])
        throws(ImagingError) -> ImageFormat
    {
        guard let loader = cvips_foreign_find_load_source(source) else {
            _ = VipsRuntime.takeError()
            throw .unsupportedFormat(path: name, found: nil, accepted: accepted)
        }
        let nickname = String(cString: loader)
        guard let format = ImageFormat(loader: nickname), accepted.contains(format) else {
            let found = ImageFormat(loader: nickname)?.name ?? ImageFormat.loaderKind(nickname).uppercased()
            throw .unsupportedFormat(path: name, found: found, accepted: accepted)
        }
        return format
    }
}
