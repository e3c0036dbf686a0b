import CVips

/// Colour images whose three channels are equal everywhere, and their grey equivalents: an RGB
/// page of black text is stored in a third of the samples as grey, and shows the same.
enum Greyscale {
    /// Whether every pixel of an RGB or RGBA image has red = green = blue. Reads the image once.
    static func isGrey(_ image: VipsImageRef, input: OpenedInput) throws(ImagingError) -> Bool {
        guard image.bands == 3 || image.bands == 4 else { return false }
        let red = try step("reading red", input) { cvips_extract_bands(image.pointer, $0, 0, 1) }
        let green = try step("reading green", input) { cvips_extract_bands(image.pointer, $0, 1, 1) }
        let blue = try step("reading blue", input) { cvips_extract_bands(image.pointer, $0, 2, 1) }
        let redGreen = try step("comparing channels", input) { cvips_equal(red.pointer, green.pointer, $0) }
        let greenBlue = try step("comparing channels", input) { cvips_equal(green.pointer, blue.pointer, $0) }
        let both = try join([redGreen, greenBlue], input: input)
        var smallest = 0.0
        var x: Int32 = 0
        var y: Int32 = 0
        let status = withExtendedLifetime(both) { cvips_min(both.pointer, &smallest, &x, &y) }
        guard status == 0 else { throw .unreadable(path: input.name, reason: VipsRuntime.takeError()) }
        return smallest == 255
    }

    /// The grey (and alpha) bands of an RGB(A) image known to be grey.
    static func reduce(_ image: VipsImageRef, input: OpenedInput) throws(ImagingError) -> VipsImageRef {
        let grey = try step("taking the grey channel", input) { cvips_extract_bands(image.pointer, $0, 0, 1) }
        var bands = [grey]
        if image.bands == 4 { bands.append(try step("taking alpha", input) { cvips_extract_bands(image.pointer, $0, 3, 1) }) }
        let joined = try join(bands, input: input)
        let interpretation = image.bandFormat == VIPS_FORMAT_USHORT ? VIPS_INTERPRETATION_GREY16 : VIPS_INTERPRETATION_B_W
        return try step("marking it grey", input) { cvips_set_interpretation(joined.pointer, $0, interpretation) }
    }

    /// An RGB(A) image from a grey (and alpha) one: the grey band three times.
    static func expand(_ image: VipsImageRef, input: OpenedInput) throws(ImagingError) -> VipsImageRef {
        let grey = try step("taking the grey channel", input) { cvips_extract_bands(image.pointer, $0, 0, 1) }
        var bands = [grey, grey, grey]
        if image.bands == 2 { bands.append(try step("taking alpha", input) { cvips_extract_bands(image.pointer, $0, 1, 1) }) }
        return try join(bands, input: input)
    }

    private static func join(_ images: [VipsImageRef], input: OpenedInput) throws(ImagingError) -> VipsImageRef {
        if images.count == 1 { return images[0] }
        return try withExtendedLifetime(images) { () throws(ImagingError) -> VipsImageRef in
            var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map(\.pointer)
            return try step("joining bands", input) { out in
                pointers.withUnsafeMutableBufferPointer { cvips_bandjoin($0.baseAddress, Int32($0.count), out) }
            }
        }
    }
}
