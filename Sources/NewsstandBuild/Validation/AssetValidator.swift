import Foundation
import NewsstandCore
import NewsstandFormat

/// Checks an issue's asset references against its `assets/` folder: presence (and names that
/// differ only in case, or in Unicode normalisation: `AssetNames`), the `@2x` variant of every
/// image and its exact doubled size, content that matches the extension, unreferenced files
/// and unportable names.
///
/// Assets are regular files inside `assets/`: a link there (to `/etc/passwd`, to an image
/// outside the magazine), a FIFO, socket or device is an error whether referenced or not, and
/// nothing it points to is ever opened. Files are opened relative to the open folder without
/// following links, and read without blocking.
struct AssetValidator: DiagnosticReporter {
    /// The open `assets/` folder, or nil when there is none.
    let folder: OpenFolder?
    /// How the folder is shown in diagnostics (`issues/f-2/assets`).
    let displayFolder: String
    var problems: DiagnosticList
    /// The digest of the folder's listing as checked (`AssetListing`); that of an absent folder
    /// until `validate` has read it.
    private(set) var listing = AssetListing.digest(nil)
    /// `magazine.plist` DeriveNormalSize: an image given only as its `@2x` master has its
    /// normal size made by the build.
    let derivesNormalSize: Bool
    /// The normal-size image names the build derives from their `@2x` masters (found by `validate`).
    private(set) var derived: Set<String> = []
    /// Names that a page which could not be read may reference (`PageConfigValidator.unreadNames`):
    /// neither they nor their `@2x` files are reported as never referenced.
    let unreadNames: Set<String>

    init(folder: OpenFolder?, displayFolder: String, derivesNormalSize: Bool = false, unreadNames: Set<String> = []) {
        self.folder = folder
        self.displayFolder = displayFolder
        self.derivesNormalSize = derivesNormalSize
        self.unreadNames = unreadNames
        problems = DiagnosticList(file: displayFolder)
    }

    /// Checks `references`; returns the assets the bundles will hold.
    mutating func validate(_ references: [AssetReference]) -> [PlannedAsset] {
        guard let folder else {
            if !references.isEmpty {
                problems.add(.fileMissing, "\(displayFolder)/ is missing", at: SourceLocation(file: displayFolder))
            }
            return []
        }
        let entries: [FolderEntry]
        do {
            entries = try folder.entries()
        } catch {
            problems.add(
                .fileUnreadable, "\(displayFolder)/ cannot be read: \(error.reason)", at: SourceLocation(file: displayFolder))
            return []
        }
        listing = AssetListing.digest(entries)
        var regular: [String] = []
        var refused: Set<String> = []
        var unreferencedOthers: [String] = []
        for entry in entries where !entry.isHidden {
            guard let name = entry.name else {
                unreferencedOthers.append(entry.displayName)  // no reference can name it: never packed
                continue
            }
            switch entry.kind {
            case .regularFile, .folder:
                regular.append(name)  // a folder is fine until something references it
            default:
                refused.insert(name)
                reportNotRegular(name, kind: entry.kind, in: folder, at: SourceLocation(file: "\(displayFolder)/\(name)"))
            }
        }
        self.refused = refused
        self.folders = Set(entries.filter { $0.kind == .folder }.compactMap(\.name))
        let names = AssetNames(regular)
        reportCollisions(names)
        var planned: [String: PlannedAsset] = [:]
        var checked: Set<String> = []
        // By bytes: two spellings of one text are two files here (`AssetNames`).
        var used: Set<[UInt8]> = []

        for reference in references {
            guard Self.isPlainFileName(reference.name) else {
                problems.add(
                    .assetNameInvalid,
                    "asset reference \(SourceText.quoted(reference.name)) must be a plain file name in assets/ (no folders, not hidden)",
                    at: reference.location)
                continue
            }
            if refused.contains(reference.name) {
                used.insert(Array(reference.name.utf8))
                continue  // reported where it is
            }
            let master = RetinaName.of(reference.name)
            if reference.kind == .image, derivesNormalSize, !names.contains(reference.name),
                names.otherCase(of: reference.name) == nil,
                names.contains(master) || refused.contains(master) || names.otherSpelling(of: master) != nil
            {
                // Only the @2x master is given: the build derives the normal size from it.
                if let other = names.otherSpelling(of: master) {
                    used.insert(Array(other.utf8))
                    reportSpelling(of: master, asOnDisk: other, what: "@2x master", at: reference.location)
                    continue
                }
                used.insert(Array(master.utf8))
                if refused.contains(master) { continue }  // reported where it is
                planned[reference.name] = PlannedAsset(name: reference.name, kind: .image)
                derived.insert(reference.name)
                if checked.insert("master:\(reference.name)").inserted { checkMaster(master, of: reference) }
                continue
            }
            guard names.contains(reference.name) else {
                if let other = names.otherSpelling(of: reference.name) {
                    used.insert(Array(other.utf8))
                    reportSpelling(of: reference.name, asOnDisk: other, what: reference.kind.rawValue, at: reference.location)
                } else if let other = names.otherCase(of: reference.name) {
                    used.insert(Array(other.utf8))
                    problems.add(
                        .assetCaseMismatch,
                        "\(SourceText.quoted(reference.name)) is not in \(displayFolder)/, but \(SourceText.quoted(other)) is: names differ only in letter case, which works on a Mac and fails on a device",
                        at: reference.location)
                } else {
                    problems.add(
                        .assetMissing,
                        "\(reference.kind.rawValue) \(SourceText.quoted(reference.name)) is not in \(displayFolder)/",
                        at: reference.location)
                }
                continue
            }
            used.insert(Array(reference.name.utf8))
            let asset = PlannedAsset(name: reference.name, kind: reference.kind)
            if let earlier = planned[reference.name], earlier.kind != reference.kind {
                // An image somewhere and a plain file elsewhere: the image needs a @2x file, which wins.
                planned[reference.name] = earlier.kind == .image ? earlier : asset
            } else {
                planned[reference.name] = asset
            }
            if reference.kind == .image {
                let retina = RetinaName.of(reference.name)
                used.insert(Array((names.otherSpelling(of: retina) ?? retina).utf8))
            }
            if checked.insert("\(reference.kind):\(reference.name)").inserted {
                checkFile(reference, names: names)
            }
        }
        reportUnreferenced(names.all.filter { !used.contains(Array($0.utf8)) } + unreferencedOthers)
        reportUnportableNames(names.all + unreferencedOthers)
        return planned.values.sorted()
    }

    /// Entries that are links or special files (reported once, where they are).
    private var refused: Set<String> = []
    /// Entries that are folders (an error only when referenced).
    private var folders: Set<String> = []

    private mutating func reportNotRegular(_ name: String, kind: EntryKind, in folder: OpenFolder, at location: SourceLocation) {
        if kind == .symbolicLink {
            let target = folder.linkTarget(of: name).map { " (to \(SourceText.quoted($0)))" } ?? ""
            problems.add(
                .assetNotRegularFile,
                "\(SourceText.quoted(name)) is a symbolic link\(target); assets must be regular files in assets/, and nothing a link points to is packed",
                at: location)
        } else {
            problems.add(
                .assetNotRegularFile,
                "\(SourceText.quoted(name)) is not a regular file (\(kind)); assets must be regular files in assets/",
                at: location)
        }
    }

    /// Opens and probes a referenced file; reports what keeps it from being packed.
    private mutating func probe(_ name: String, at location: SourceLocation) -> ImageSize.Probe? {
        guard let folder else { return nil }
        if folders.contains(name) {
            problems.add(
                .assetNotRegularFile, "\(SourceText.quoted(name)) is a folder; assets must be regular files in assets/",
                at: location)
            return nil
        }
        do {
            return ImageSize.probe(try folder.file(name))
        } catch .symbolicLink, .wrongKind {
            // Swapped since the folder was listed.
            reportNotRegular(name, kind: folder.kind(of: name) ?? .unknown, in: folder, at: location)
        } catch {
            problems.add(.fileUnreadable, "\(SourceText.quoted(name)) cannot be read: \(error.reason)", at: location)
        }
        return nil
    }

    private mutating func checkFile(_ reference: AssetReference, names: AssetNames) {
        guard let normal = probe(reference.name, at: reference.location) else { return }
        checkContent(name: reference.name, normal, at: reference.location)
        guard reference.kind == .image else { return }
        let retinaName = RetinaName.of(reference.name)
        if refused.contains(retinaName) { return }  // reported where it is
        guard names.contains(retinaName) else {
            if let other = names.otherSpelling(of: retinaName) {
                reportSpelling(of: retinaName, asOnDisk: other, what: "@2x image", at: reference.location)
            } else if let other = names.otherCase(of: retinaName) {
                problems.add(
                    .assetCaseMismatch,
                    "@2x image \(SourceText.quoted(retinaName)) is not in \(displayFolder)/, but \(SourceText.quoted(other)) is: names differ only in letter case",
                    at: reference.location)
            } else {
                problems.add(
                    .retinaMissing,
                    "image \(SourceText.quoted(reference.name)) has no @2x variant \(SourceText.quoted(retinaName)) in \(displayFolder)/; the @2x bundle would be incomplete",
                    at: reference.location)
            }
            return
        }
        guard let retina = probe(retinaName, at: reference.location) else { return }
        checkContent(name: retinaName, retina, at: reference.location)
        // Both sizes are read (and each problem reported) before either is used.
        let normalSize = imageSize(reference.name, normal, at: reference.location)
        let retinaSize = imageSize(retinaName, retina, at: reference.location)
        guard let normalSize, let retinaSize else { return }
        if retinaSize.width != normalSize.width * 2 || retinaSize.height != normalSize.height * 2 {
            problems.add(
                .retinaWrongSize,
                "\(SourceText.quoted(retinaName)) is \(retinaSize), but \(SourceText.quoted(reference.name)) is \(normalSize): a @2x image must be exactly \(normalSize.width * 2)×\(normalSize.height * 2)",
                at: reference.location)
        }
    }

    /// Checks an `@2x` master whose normal size the build derives: PNG or JPEG (what the
    /// deriver and the header probe both read), content that matches its name, a readable
    /// header and an even width and height. Only the header is read: the build decodes.
    private mutating func checkMaster(_ master: String, of reference: AssetReference) {
        guard let probe = probe(master, at: reference.location) else { return }
        checkContent(name: master, probe, at: reference.location)
        guard probe.signature == .png || probe.signature == .jpeg else {
            let found = probe.signature == .unknown ? "not an image format newsstand reads" : "\(probe.signature.rawValue) data"
            problems.add(
                .imageUnreadable,
                "cannot derive \(SourceText.quoted(reference.name)) from its @2x master \(SourceText.quoted(master)): it is \(found); a master must be PNG or JPEG (or give the normal-size file too)",
                at: reference.location)
            return
        }
        switch probe.size {
        case .success(let size) where size.width % 2 != 0 || size.height % 2 != 0:
            problems.add(
                .masterOddSize,
                "@2x master \(SourceText.quoted(master)) is \(size): an odd width or height cannot be halved exactly, so \(SourceText.quoted(reference.name)) cannot be derived; make the master \(size.width + size.width % 2)×\(size.height + size.height % 2) or give the normal-size file too",
                at: reference.location)
        case .success:
            return
        case .failure(.corrupt(let reason)):
            problems.add(
                .imageUnreadable, "cannot read the size of @2x master \(SourceText.quoted(master)): \(reason)",
                at: reference.location)
        case .failure(.unsupportedFormat):
            return  // PNG and JPEG sizes are always read
        }
    }

    private mutating func checkContent(name: String, _ probe: ImageSize.Probe, at location: SourceLocation) {
        let actual = probe.signature
        guard let expected = FileSignature.expected(forFileName: name), actual != expected else { return }
        let what = actual == .unknown ? "not \(expected.rawValue) data" : "\(actual.rawValue) data"
        problems.add(
            .contentMismatch, "\(SourceText.quoted(name)) is \(what), but its extension says \(expected.rawValue)", at: location)
    }

    private mutating func imageSize(_ name: String, _ probe: ImageSize.Probe, at location: SourceLocation) -> ImageSize? {
        switch probe.size {
        case .success(let size):
            return size
        case .failure(.unsupportedFormat):
            problems.add(
                .imageUnreadable, "cannot check the size of \(SourceText.quoted(name)): only PNG, JPEG and GIF headers are read",
                at: location, severity: .warning)
        case .failure(.corrupt(let reason)):
            problems.add(.imageUnreadable, "cannot read the size of \(SourceText.quoted(name)): \(reason)", at: location)
        }
        return nil
    }

    /// Names on disk that are one text in two spellings: one file on an Apple device, and a
    /// bundle unpacked there (or built on a Mac) would hold only one of the images.
    private mutating func reportCollisions(_ names: AssetNames) {
        for group in names.collisions {
            let spellings = group.map { "'\(AssetNames.spelling($0))'" }.joined(separator: " and ")
            problems.add(
                .assetNameNormalization,
                "\(SourceText.quoted(group[0])) is in \(displayFolder)/ \(group.count) times, spelled \(spellings): the same name in different Unicode normalisation forms, which is one file on Apple devices, so only one of them could reach a reader; rename all but one",
                at: SourceLocation(file: "\(displayFolder)/\(group[0])"))
        }
    }

    /// A reference whose text is a file's name, but in another normalisation form: the bundle
    /// entry would carry the reference's bytes and the file system has only the other ones.
    private mutating func reportSpelling(of name: String, asOnDisk other: String, what: String, at location: SourceLocation) {
        problems.add(
            .assetNameNormalization,
            "\(what) \(SourceText.quoted(name)) is spelled '\(AssetNames.spelling(name))', but the file in \(displayFolder)/ is '\(AssetNames.spelling(other))': the same name in another Unicode normalisation form; write the reference and the file name the same way (composed, NFC, is usual)",
            at: location)
    }

    private mutating func reportUnreferenced(_ names: [String]) {
        let unread = Set(unreadNames.flatMap { [$0, RetinaName.of($0)] })
        for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) where !unread.contains(name) {
            problems.add(
                .assetUnreferenced, "\(SourceText.quoted(name)) is never referenced; it is left out of the bundles",
                at: SourceLocation(file: "\(displayFolder)/\(name)"))
        }
    }

    private mutating func reportUnportableNames(_ names: [String]) {
        for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        where name.contains(" ") || !name.allSatisfy(\.isASCII) {
            problems.add(
                .assetNameUnportable,
                "\(SourceText.quoted(name)) has spaces or non-ASCII characters, which need escaping in URLs and break some tools",
                at: SourceLocation(file: "\(displayFolder)/\(name)"))
        }
    }

    /// One name in `assets/`: the rule for every name from outside (`SafeRelativePath`'s, for one component).
    static func isPlainFileName(_ name: String) -> Bool { SafeRelativePath.isSafeComponent(name) }
}
