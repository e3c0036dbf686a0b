import CJPEGLossless
import Foundation

/// The JPEG half of ``LosslessOptimizer``: libjpeg's coefficient copy, as `jpegtran -copy none
/// -optimize` does (with an ICC profile kept when it is not sRGB).
struct JPEGOptimizer {
    let limits: ImagingLimits

    func optimize(_ source: OpenedInput, keepingProfile: Bool, to output: ImageOutput) throws(ImagingError) -> OptimizationOutcome
    {
        let destination = try OpenedOutput(output)
        var result = NJPEGResult()
        njpeg_optimize(
            source.descriptor, destination.descriptor, keepingProfile ? 1 : 0, UInt64(limits.maximumInputPixels),
            limits.maximumJPEGMemory, &result)
        if result.failed != 0 {
            let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if result.write_error != 0 { throw .cannotWrite(path: destination.name, reason: message) }
            let width = Int(result.width)
            let height = Int(result.height)
            if width * height > limits.maximumInputPixels {
                throw .tooLarge(path: source.name, width: width, height: height, limit: limits.maximumInputPixels)
            }
            if message.contains("Backing store") {
                // libjpeg needed more memory than it was allowed for the coefficients.
                throw .exceedsMemoryLimit(path: source.name, limit: limits.maximumJPEGMemory)
            }
            throw .unreadable(path: source.name, reason: message)
        }
        guard result.bytes_written < source.size else {
            return .keptOriginal(bytes: source.size, reason: .notSmaller(bestBytes: result.bytes_written))
        }
        return try keepIfIdentical(source, destination, bytes: result.bytes_written, limits: limits)
    }
}
