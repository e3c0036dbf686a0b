/// What the lossless optimiser did with one file.
public enum OptimizationOutcome: Sendable, Equatable {
    /// The output holds a smaller file with the same pixels.
    case optimized(bytesBefore: Int64, bytesAfter: Int64)
    /// Use the original: the output was removed (a `.newFile`) or is to be ignored (a descriptor).
    case keptOriginal(bytes: Int64, reason: KeepReason)

    /// Bytes saved (0 when the original is kept).
    public var bytesSaved: Int64 {
        if case .optimized(let before, let after) = self { return before - after }
        return 0
    }
}

/// Why the optimiser kept a file as it was.
public enum KeepReason: Sendable, Equatable {
    /// The smallest lossless encoding found was `bestBytes`, no smaller than the original.
    case notSmaller(bestBytes: Int64)
    /// The image carries an EXIF orientation other than "up": stripping EXIF would turn it.
    case orientationTag(Int)
    /// A format the optimiser does not rewrite (WebP, HEIF).
    case formatNotOptimized(ImageFormat)
    /// The rewritten file did not decode to the same pixels (never expected: a safety net).
    case pixelsDiffer(PixelComparison)
}
