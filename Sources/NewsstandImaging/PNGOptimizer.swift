import CVips

/// The PNG half of ``LosslessOptimizer``.
struct PNGOptimizer {
    let limits: ImagingLimits

    /// One way of writing the image: an encoding, of the image itself or of its grey channel.
    struct Candidate {
        let encoding: ImageEncoding
        var asGrey = false

        /// Palettes and reduced depths can lose colours: checked on their own before trusted.
        var mayLoseColours: Bool {
            if case .png(_, _, let palette, let depth) = encoding { return palette || depth > 0 }
            return false
        }
    }

    /// Encodings tried, smallest kept. The first two change nothing but compression; an RGB image
    /// that is grey everywhere is also tried as grey (a page of text: a third of the samples); a
    /// palette or low-bit-depth grey original is also tried at its own depth.
    func candidates(for header: PNGHeader?, isGrey: Bool) -> [Candidate] {
        var list = [
            Candidate(encoding: .png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_ALL)),
            Candidate(encoding: .png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_NONE)),
        ]
        if isGrey {
            list.append(Candidate(encoding: .png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_ALL), asGrey: true))
            list.append(Candidate(encoding: .png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_NONE), asGrey: true))
        }
        if let header, header.colourType == 3 {
            list.append(
                Candidate(
                    encoding: .png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_NONE, palette: true, bitDepth: header.bitDepth)
                ))
        } else if let header, header.colourType == 0, header.bitDepth < 8 {
            list.append(
                Candidate(encoding: .png(compression: 9, filter: VIPS_FOREIGN_PNG_FILTER_NONE, bitDepth: header.bitDepth)))
        }
        return list
    }

    func optimize(_ source: OpenedInput, header image: VipsImageRef, to output: ImageOutput) throws(ImagingError)
        -> OptimizationOutcome
    {
        let header = PNGHeader(source.read(count: 33))
        // A kept colour profile describes colour: it cannot go with grey samples.
        let greyCandidate = (header?.colourType == 2 || header?.colourType == 6) && !MetadataPolicy.keepsProfile(of: image)
        var isGrey = false
        if greyCandidate {
            isGrey = try Greyscale.isGrey(ImageLoader.load(source, accepting: [.png], limits: limits).image, input: source)
        }
        let destination = try OpenedOutput(output)
        var inFile: (candidate: Candidate, bytes: Int64)?
        var bestLossless: Candidate?
        for candidate in candidates(for: header, isGrey: isGrey) {
            if let current = inFile {
                let size = try encode(source, as: candidate, to: nil)
                guard size < current.bytes else { continue }
            }
            try destination.reset()
            let size = try encode(source, as: candidate, to: destination)
            if candidate.mayLoseColours {
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
                bestLossless = candidate
            }
            inFile = (candidate, size)
        }
        guard let best = inFile, best.bytes < source.size else {
            return .keptOriginal(bytes: source.size, reason: .notSmaller(bestBytes: inFile?.bytes ?? source.size))
        }
        return try keepIfIdentical(source, destination, bytes: best.bytes, limits: limits)
    }

    /// Decodes the original again (streaming) and encodes it, into the file or only counting.
    private func encode(_ source: OpenedInput, as candidate: Candidate, to destination: OpenedOutput?) throws(ImagingError)
        -> Int64
    {
        var image = try ImageLoader.load(source, accepting: [.png], limits: limits).image
        if candidate.asGrey { image = try Greyscale.reduce(image, input: source) }
        let prepared: (image: VipsImageRef, strip: Bool)
        do throws(VipsFailure) {
            prepared = try MetadataPolicy.prepare(image)
        } catch {
            throw .processingFailed(path: source.name, step: "reading the colour profile", reason: error.reason)
        }
        return try write(prepared.image, as: candidate.encoding, strip: prepared.strip, to: destination, input: source)
    }
}
