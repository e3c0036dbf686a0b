/// What an extraction wrote.
public struct ZipExtractionSummary: Sendable, Equatable {
    /// Regular files written.
    public var fileCount: Int
    /// Folders created (explicit folder entries and implied parents).
    public var folderCount: Int
    /// Bytes written to all files.
    public var totalSize: Int64

    /// Creates a summary.
    public init(fileCount: Int = 0, folderCount: Int = 0, totalSize: Int64 = 0) {
        self.fileCount = fileCount
        self.folderCount = folderCount
        self.totalSize = totalSize
    }
}
