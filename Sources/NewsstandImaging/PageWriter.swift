import CVips

/// Brings a page to its final shape and writes it: exact width, an even height, PNG or JPEG.
enum PageWriter {
    /// PNG settings of page images: the same as derived images.
    static let pngEncoding = NormalSizeDeriver.pngEncoding

    /// Makes `image` exactly `width` wide (libvips rounds a scaled size; at most a column is
    /// trimmed or repeated) and an even number of rows high (a row repeated at the bottom), so
    /// the page can be an `@2x` master whose normal size is exactly half.
    static func shape(_ image: VipsImageRef, width: Int, input: OpenedInput) throws(ImagingError) -> VipsImageRef {
        var result = image
        if result.width > width {
            result = try step("trimming to \(width) pixels", input) {
                cvips_crop(result.pointer, $0, 0, 0, Int32(width), Int32(result.height))
            }
        }
        let evenHeight = result.height + result.height % 2
        if result.width < width || evenHeight != result.height {
            result = try step("extending to an even size", input) {
                cvips_extend(result.pointer, $0, Int32(width), Int32(evenHeight))
            }
        }
        return result
    }

    /// Writes a shaped page. For `.automatic` the page is first held in memory (bounded by
    /// ``ImagingLimits/maximumPagePixels``) so that it is rendered once and encoded twice.
    static func write(
        _ page: VipsImageRef, encoding: PageEncoding, to output: ImageOutput, input: OpenedInput
    ) throws(ImagingError) -> RenderedPage {
        let prepared: (image: VipsImageRef, strip: Bool)
        do throws(VipsFailure) {
            prepared = try MetadataPolicy.prepare(page)
        } catch {
            throw .processingFailed(path: input.name, step: "reading the colour profile", reason: error.reason)
        }
        var image = prepared.image
        let destination = try OpenedOutput(output)
        let choice: PageEncoding = (encoding == .automatic && image.hasAlpha) ? .png : encoding
        switch choice {
        case .png, .jpeg:
            let format: ImageEncoding = choice == .png ? pngEncoding : .jpeg(quality: PageEncoding.jpegQuality)
            let bytes = try NewsstandImaging.write(image, as: format, strip: prepared.strip, to: destination, input: input)
            try destination.keep(length: bytes)
            return RenderedPage(
                format: format.format, width: image.width, height: image.height, byteCount: bytes, alternativeByteCount: nil)
        case .automatic:
            let inMemory = image
            image = try step("rendering", input) { out in
                out.pointee = cvips_image_copy_memory(inMemory.pointer)
                return out.pointee == nil ? -1 : 0
            }
            let jpegBytes = try NewsstandImaging.write(
                image, as: .jpeg(quality: PageEncoding.jpegQuality), strip: prepared.strip, to: nil, input: input)
            let pngBytes = try NewsstandImaging.write(
                image, as: pngEncoding, strip: prepared.strip, to: destination, input: input)
            if Double(jpegBytes) <= Double(pngBytes) * PageEncoding.jpegShareLimit {
                try destination.reset()
                let written = try NewsstandImaging.write(
                    image, as: .jpeg(quality: PageEncoding.jpegQuality), strip: prepared.strip, to: destination, input: input)
                try destination.keep(length: written)
                return RenderedPage(
                    format: .jpeg, width: image.width, height: image.height, byteCount: written, alternativeByteCount: pngBytes)
            }
            try destination.keep(length: pngBytes)
            return RenderedPage(
                format: .png, width: image.width, height: image.height, byteCount: pngBytes, alternativeByteCount: jpegBytes)
        }
    }
}
