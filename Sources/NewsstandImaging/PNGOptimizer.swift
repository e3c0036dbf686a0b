import CVips

/// The PNG half of ``LosslessOptimizer``.
struct PNGOptimizer {
    let limits: ImagingLimits

    /// Encodings tried, smallest kept. The first two change nothing but compression; a palette
    /// or reduced bit depth can lose colours, so it is checked on its own before it is trusted.
    func candidates(for header: PNGHeader?) -> [ImageEncoding] {
        var list: [ImageEncoding] = [
            .png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_ALL),
            .png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_NONE),
        ]
        if let header, header.colourType == 3 {
            list.append(.png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_NONE, palette: true, bitDepth: header.bitDepth))
        } else if let header, header.colourType == 0, header.bitDepth < 8 {
            list.append(.png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_NONE, bitDepth: header.bitDepth))
        }
        return list
    }

    func optimize(_ source: OpenedInput, header image: VipsImageRef, to output: ImageOutput) throws(ImagingError) -> OptimizationOutcome {
        let header = PNGHeader(source.read(count: 33))
        let destination = try OpenedOutput(output)
        var inFile: (encoding: ImageEncoding, bytes: Int64)?
        var bestLossless: ImageEncoding?
        for encoding in candidates(for: header) {
            let mayLoseColours: Bool
            if case .png(_, _, let palette, let depth) = encoding { mayLoseColours = palette || depth > 0 } else { mayLoseColours = false }
            if let current = inFile {
                let size = try encode(source, as: encoding, to: nil)
                guard size < current.bytes else { continue }
            }
            try destination.reset()
            let size = try encode(source, as: encoding, to: destination)
            if mayLoseColours {
                let written = try OpenedInput(.descriptor(destination.descriptor, name: destination.name))
                let same = try withExtendedLifetime(written) { () throws(ImagingError) -> Bool in
                    try PixelComparer.compare(source, written, limits: limits) == .identical
                }
                if !same {
                    // Put the best safe encoding back.
                    if let safe = bestLossless, let current = inFile {
                        try destination.reset()
                        _ = try encode(source, as: safe, to: destination)
                        inFile = (safe, current.bytes)
                    }
                    continue
                }
            } else {
                bestLossless = encoding
            }
            inFile = (encoding, size)
        }
        guard let best = inFile, best.bytes < source.size else {
            return .keptOriginal(bytes: source.size, reason: .notSmaller(bestBytes: inFile?.bytes ?? source.size))
        }
        return try keepIfIdentical(source, destination, bytes: best.bytes, limits: limits)
    }

    /// Decodes the original again (streaming) and encodes it, into the file or only counting.
    private func encode(_ source: OpenedInput, as encoding: ImageEncoding, to destination: OpenedOutput?) throws(ImagingError) -> Int64 {
        let image = try ImageLoader.load(source, accepting: [.png], limits: limits).image
        let prepared: (image: VipsImageRef, strip: Bool)
        do throws(VipsFailure) {
            prepared = try MetadataPolicy.prepare(image)
        } catch {
            throw .processingFailed(path: source.name, step: "reading the colour profile", reason: error.reason)
        }
        return try write(prepared.image, as: encoding, strip: prepared.strip, to: destination, input: source)
    }
}
