import Foundation
import NewsstandCore
import NewsstandFormat

/// Decides whether an issue's output is up to date with its sources, from the manifest of
/// its last build: same tool version, same set of input files, configs with the SHA-256 just
/// validated, every input with the same size and times (or, when a time differs, the same
/// XXH3), and every output still present with its recorded size. Inputs and outputs are
/// opened without following links, as the build opens them.
enum BuildCache {
    /// The relative paths of every file the plan's build reads (a derived normal size is
    /// read from its `@2x` master, which is in the list already).
    static func inputPaths(of plan: IssuePlan) -> Set<String> {
        var paths: Set<String> = ["issue.plist", "pages.plist"]
        for retina in [false, true] {
            for asset in plan.assets where !plan.isDerived(asset.name, retina: retina) {
                paths.insert("assets/\(asset.fileName(retina: retina))")
            }
            if !plan.isDerived(plan.metadata.cover, retina: retina) {
                paths.insert("assets/\(retina ? RetinaName.of(plan.metadata.cover) : plan.metadata.cover)")
            }
        }
        return paths
    }

    /// An input compared with its record.
    enum InputState {
        /// Same size and times.
        case same
        /// Same size and bytes, other times: the record, with the times of now.
        case touched(InputRecord)
        /// Missing, not a regular file, or other bytes.
        case changed
    }

    /// Compares the input `record` with the file now, in the issue's folder (`source`) or its
    /// `assets/`. The size and times decide when they match (the assumption make and rsync
    /// make, with `ctime`, which `touch` cannot set back, as git's index does); otherwise the
    /// bytes are read and their XXH3 decides.
    static func check(_ record: InputRecord, source: OpenFolder, assets: OpenFolder?) -> InputState {
        let folder: OpenFolder?
        let name: String
        if record.path.hasPrefix("assets/") {
            (folder, name) = (assets, String(record.path.dropFirst("assets/".count)))
        } else {
            (folder, name) = (source, record.path)
        }
        guard let folder, let status = folder.status(of: name), status.kind == .regularFile, status.size == record.size else {
            return .changed
        }
        if record.hasSameStatus(status) { return .same }
        guard let recorded = record.xxh3, let file = try? folder.file(name), file.size == record.size else { return .changed }
        let hasher = XXH3()
        guard (try? FileCopy.copy(file, to: nil, observe: { hasher.update($0) })) == record.size, hasher.finalizeHex() == recorded
        else {
            return .changed
        }
        var fresh = record
        fresh.modified = file.modified
        fresh.changed = file.changed
        return .touched(fresh)
    }

    /// Whether every output the manifest lists is where it belongs with its recorded size
    /// (the covers in the issue's `folder`, the rest in `content`: the same folder, or
    /// `paid/<name>` for a paid issue), both bundle indexes among them with their recorded
    /// SHA-256 (a record from before indexes has none: the issue is built again to get them).
    /// With the build index the manifest came from (`buildIndex`), a bundle index whose
    /// identity is the one its bytes were verified with is not read again, and one read and
    /// found right is remembered (`BuildIndex.verifiedIdentity`).
    static func outputsPresent(
        _ manifest: BuildManifest, in folder: OpenFolder, content: OpenFolder?, buildIndex: BuildIndex? = nil
    ) -> Bool {
        guard let index = manifest.index, let retinaIndex = manifest.retinaIndex, let content else { return false }
        let contentNames = Set(manifest.contentOutputs.map(\.file))
        let indexNames: Set<String> = [index.file, retinaIndex.file]
        return manifest.outputs.allSatisfy { record in
            guard !indexNames.contains(record.file) else { return true }
            let place = contentNames.contains(record.file) ? content : folder
            guard let status = place.status(of: record.file) else { return false }
            return status.kind == .regularFile && status.size == record.size
        } && [index, retinaIndex].allSatisfy { hasRecordedBytes($0, in: content, issue: manifest.name, buildIndex: buildIndex) }
    }

    /// `hasRecordedBytes(_:in:)`, or the identity the build index verified it with.
    private static func hasRecordedBytes(
        _ record: OutputRecord, in folder: OpenFolder, issue: String, buildIndex: BuildIndex?
    ) -> Bool {
        guard let buildIndex else { return hasRecordedBytes(record, in: folder) }
        guard let identity = FileIdentity.of(record.file, in: folder), identity.size == record.size else { return false }
        if buildIndex.verifiedIdentity(of: record.file, issue: issue) == identity { return true }
        guard hasRecordedBytes(record, in: folder) else { return false }
        buildIndex.recordVerified(record.file, identity: identity, issue: issue)
        return true
    }

    /// The content folder of the issue a manifest describes, opened without following links
    /// (`<output>/<name>` or `<output>/paid/<name>`); nil when it cannot be opened.
    static func contentFolder(of manifest: BuildManifest, issueFolder: OpenFolder, output: OpenFolder) -> OpenFolder? {
        manifest.metadata.access == .paid ? try? output.folder(IssueAccess.paidFolder).folder(manifest.name) : issueFolder
    }

    /// Whether the small file `record` names holds the bytes recorded (an index someone edited
    /// keeping its size is written again). Read without following links, within its size.
    static func hasRecordedBytes(_ record: OutputRecord, in folder: OpenFolder) -> Bool {
        guard record.size <= BundleIndexLimits().maximumBytes, let file = try? folder.file(record.file),
            let data = try? file.readAll(limit: Int(record.size))
        else { return false }
        return data.count == record.size && SHA256.hex(of: data) == record.sha256
    }

    /// The manifest of the last build when the output is up to date, or nil when the issue
    /// must be built. The manifest is brought up to date on the way (written again) where only
    /// input times moved or the validation differs (a new warning for an unreferenced file
    /// changes no bundle).
    static func upToDateManifest(for plan: IssuePlan, output: IssueOutputFolder, root: OpenFolder) -> BuildManifest? {
        guard var manifest = try? BuildManifest.load(from: output.folder), manifest.toolVersion == ToolVersion.current,
            manifest.name == plan.name, manifest.metadata == plan.metadata,
            Set(manifest.inputs.map(\.path)) == inputPaths(of: plan),
            let recordedDigests = manifest.validation?.configDigests, recordedDigests == plan.configDigests,
            let source = try? IssueSource(plan)
        else { return nil }
        let assets = try? source.assets()
        var touched = false
        for index in manifest.inputs.indices {
            switch check(manifest.inputs[index], source: source.folder, assets: assets) {
            case .same: continue
            case .touched(let fresh):
                manifest.inputs[index] = fresh
                touched = true
            case .changed: return nil
            }
        }
        let content = contentFolder(of: manifest, issueFolder: output.folder, output: root)
        guard outputsPresent(manifest, in: output.folder, content: content) else { return nil }
        if touched || manifest.validation != plan.validation {
            manifest.validation = plan.validation
            try? manifest.write(in: output.folder)
        }
        return manifest
    }
}
