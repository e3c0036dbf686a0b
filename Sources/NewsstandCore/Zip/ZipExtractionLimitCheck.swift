/// The total-size and compression-ratio limits, judged on a running total.
struct ZipExtractionLimitCheck {
    let limits: ZipExtractionLimits
    let archive: String
    let archiveSize: Int64

    func check(_ total: Int64) throws(ZipExtractionError) {
        if total > limits.maxTotalSize { throw .tooLarge(archive: archive, limit: limits.maxTotalSize) }
        if total > limits.ratioGraceSize, Double(total) / Double(max(archiveSize, 1)) > limits.maxCompressionRatio {
            throw .suspiciousCompressionRatio(archive: archive, limit: limits.maxCompressionRatio)
        }
    }
}
