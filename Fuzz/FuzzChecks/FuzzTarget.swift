import Foundation

/// The parsers fuzzed, each with its check: bytes in, a broken invariant out (nil when every
/// invariant holds). A crash or a sanitizer report inside a check is a finding too.
///
/// The fuzzers (`Fuzz/<Target>/main.swift`, built by `make fuzz`) run one check per input and
/// stop on a broken invariant; `FuzzRegressionTests` replays every saved input through the
/// same check under the normal `swift test`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `PlistReader` (libxml2 with lines, and the binary parser): a list that parses is written
    /// by `PlistWriter` and reads back to the same value.
    case plist = "FuzzPlist"
    /// `SchemaParser`, `PageClassSchema` and `PageConfigValidator` on one issue's page config.
    case pageConfig = "FuzzPageConfig"
    /// `ImageSize.probe`: PNG, GIF and JPEG headers, against a second reading done in memory.
    case imageHeader = "FuzzImageHeader"
    /// `CatalogStreamParser`: the same result whatever the chunks, and Foundation's on valid input.
    case catalog = "FuzzCatalog"
    /// `ZipExtractor`: nothing written outside the destination, nothing left on failure.
    case zipExtract = "FuzzZipExtract"
    /// `ZipLocalRecord`: what a fetched record hands over is exactly the entry it claims to be.
    case zipRecord = "FuzzZipRecord"
    /// The records read back from disk: a build's manifest and a publish's state file.
    case records = "FuzzRecords"
    /// `ZipRecordStream`: a bundle and its index mutated together, the records checked as they
    /// stream, against `ZipLocalRecord` and whatever the chunks.
    case bundleStream = "FuzzBundleStream"

    /// Runs the check for this target on one input.
    public func check(_ data: Data) -> String? {
        switch self {
        case .plist: PlistCheck.check(data)
        case .pageConfig: PageConfigCheck.check(data)
        case .imageHeader: ImageHeaderCheck.check(data)
        case .catalog: CatalogCheck.check(data)
        case .zipExtract: ZipExtractCheck.check(data)
        case .zipRecord: ZipRecordCheck.check(data)
        case .records: RecordsCheck.check(data)
        case .bundleStream: BundleStreamCheck.check(data)
        }
    }

    /// The fuzzer's callback: a broken invariant stops the process, so that libFuzzer keeps
    /// the input as a crash.
    public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) {
        let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        if let violation = check(data) {
            FileHandle.standardError.write(Data("\(rawValue): invariant broken: \(violation)\n".utf8))
            abort()
        }
    }
}
