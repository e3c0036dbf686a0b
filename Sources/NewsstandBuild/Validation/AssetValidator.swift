import Foundation
import NewsstandFormat

/// Checks an issue's asset references against its `assets/` folder: presence (and names that
/// differ only in case), the `@2x` variant of every image and its exact doubled size, content
/// that matches the extension, unreferenced files and unportable names.
struct AssetValidator {
    let folder: URL
    /// How the folder is shown in diagnostics (`issues/f-2/assets`).
    let displayFolder: String
    private(set) var diagnostics: [Diagnostic] = []

    init(folder: URL, displayFolder: String) {
        self.folder = folder
        self.displayFolder = displayFolder
    }

    /// Checks `references`; returns the assets the bundles will hold.
    mutating func validate(_ references: [AssetReference]) -> [PlannedAsset] {
        let listing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { !$0.hasPrefix(".") }
        guard let files = listing.map(Set.init) else {
            if !references.isEmpty {
                diagnostics.append(
                    Diagnostic(.fileMissing, "\(displayFolder)/ is missing", at: SourceLocation(file: displayFolder)))
            }
            return []
        }
        let byLowercase = Dictionary(files.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var planned: [String: PlannedAsset] = [:]
        var checked: Set<String> = []
        var used: Set<String> = []

        for reference in references {
            guard Self.isPlainFileName(reference.name) else {
                report(
                    .assetNameInvalid,
                    "asset reference '\(reference.name)' must be a plain file name in assets/ (no folders, not hidden)",
                    at: reference.location)
                continue
            }
            guard files.contains(reference.name) else {
                if let other = byLowercase[reference.name.lowercased()] {
                    used.insert(other)
                    report(
                        .assetCaseMismatch,
                        "'\(reference.name)' is not in \(displayFolder)/, but '\(other)' is: names differ only in letter case, which works on a Mac and fails on a device",
                        at: reference.location)
                } else {
                    report(
                        .assetMissing, "\(reference.kind.rawValue) '\(reference.name)' is not in \(displayFolder)/",
                        at: reference.location)
                }
                continue
            }
            used.insert(reference.name)
            let asset = PlannedAsset(name: reference.name, kind: reference.kind)
            if let earlier = planned[reference.name], earlier.kind != reference.kind {
                // An image somewhere and a plain file elsewhere: the image needs a @2x file, which wins.
                planned[reference.name] = earlier.kind == .image ? earlier : asset
            } else {
                planned[reference.name] = asset
            }
            if reference.kind == .image {
                used.insert(RetinaName.of(reference.name))
            }
            if checked.insert("\(reference.kind):\(reference.name)").inserted {
                checkFile(reference, files: files, byLowercase: byLowercase)
            }
        }
        reportUnreferenced(files.subtracting(used))
        reportUnportableNames(files)
        return planned.values.sorted()
    }

    private mutating func checkFile(_ reference: AssetReference, files: Set<String>, byLowercase: [String: String]) {
        let normal = ImageSize.probe(folder.appendingPathComponent(reference.name))
        checkContent(name: reference.name, normal, at: reference.location)
        guard reference.kind == .image else { return }
        let retinaName = RetinaName.of(reference.name)
        guard files.contains(retinaName) else {
            if let other = byLowercase[retinaName.lowercased()] {
                report(
                    .assetCaseMismatch,
                    "@2x image '\(retinaName)' is not in \(displayFolder)/, but '\(other)' is: names differ only in letter case",
                    at: reference.location)
            } else {
                report(
                    .retinaMissing,
                    "image '\(reference.name)' has no @2x variant '\(retinaName)' in \(displayFolder)/; the @2x bundle would be incomplete",
                    at: reference.location)
            }
            return
        }
        let retina = ImageSize.probe(folder.appendingPathComponent(retinaName))
        checkContent(name: retinaName, retina, at: reference.location)
        guard let normalSize = imageSize(reference.name, normal, at: reference.location),
            let retinaSize = imageSize(retinaName, retina, at: reference.location)
        else { return }
        if retinaSize.width != normalSize.width * 2 || retinaSize.height != normalSize.height * 2 {
            report(
                .retinaWrongSize,
                "'\(retinaName)' is \(retinaSize), but '\(reference.name)' is \(normalSize): a @2x image must be exactly \(normalSize.width * 2)×\(normalSize.height * 2)",
                at: reference.location)
        }
    }

    private mutating func checkContent(name: String, _ probe: ImageSize.Probe, at location: SourceLocation) {
        guard probe.isReadable else {
            report(.fileUnreadable, "'\(name)' cannot be read", at: location)
            return
        }
        let actual = probe.signature
        guard let expected = FileSignature.expected(forFileName: name), actual != expected else { return }
        let what = actual == .unknown ? "not \(expected.rawValue) data" : "\(actual.rawValue) data"
        report(.contentMismatch, "'\(name)' is \(what), but its extension says \(expected.rawValue)", at: location)
    }

    private mutating func imageSize(_ name: String, _ probe: ImageSize.Probe, at location: SourceLocation) -> ImageSize? {
        switch probe.size {
        case .success(let size):
            return size
        case .failure(.unsupportedFormat):
            report(
                .imageUnreadable, "cannot check the size of '\(name)': only PNG, JPEG and GIF headers are read",
                at: location, severity: .warning)
        case .failure(.corrupt(let reason)):
            report(.imageUnreadable, "cannot read the size of '\(name)': \(reason)", at: location)
        }
        return nil
    }

    private mutating func reportUnreferenced(_ names: Set<String>) {
        for name in names.sorted() {
            report(
                .assetUnreferenced, "'\(name)' is never referenced; it is left out of the bundles",
                at: SourceLocation(file: "\(displayFolder)/\(name)"))
        }
    }

    private mutating func reportUnportableNames(_ names: Set<String>) {
        for name in names.sorted() where name.contains(" ") || !name.allSatisfy(\.isASCII) {
            report(
                .assetNameUnportable,
                "'\(name)' has spaces or non-ASCII characters, which need escaping in URLs and break some tools",
                at: SourceLocation(file: "\(displayFolder)/\(name)"))
        }
    }

    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\") && !name.contains("\0")
    }

    private mutating func report(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, severity: Severity? = nil
    ) {
        diagnostics.append(Diagnostic(code, message, at: location, severity: severity))
    }
}
