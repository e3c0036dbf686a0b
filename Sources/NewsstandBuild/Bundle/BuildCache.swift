import Foundation
import NewsstandCore
import NewsstandFormat

/// Decides whether an issue's output is up to date with its sources, from the manifest of
/// its last build: same tool version, same set of input files, configs with the SHA-256 just
/// validated, every other input with the same size and modification time (or, when only the
/// time differs, the same SHA-256), and every output still present with its recorded size.
/// Inputs and outputs are opened without following links, as the build opens them.
enum BuildCache {
    /// The relative paths of every file the plan's build reads.
    static func inputPaths(of plan: IssuePlan) -> Set<String> {
        var paths: Set<String> = ["issue.plist", "pages.plist"]
        for retina in [false, true] {
            for asset in plan.assets { paths.insert("assets/\(asset.fileName(retina: retina))") }
            paths.insert("assets/\(retina ? RetinaName.of(plan.metadata.cover) : plan.metadata.cover)")
        }
        return paths
    }

    /// The manifest of the last build when the output is up to date (with modification times
    /// refreshed where only they changed), or nil when the issue must be built.
    static func upToDateManifest(for plan: IssuePlan, output: IssueOutputFolder) -> BuildManifest? {
        guard var manifest = try? BuildManifest.load(from: output.folder), manifest.toolVersion == ToolVersion.current,
            manifest.name == plan.name, manifest.metadata == plan.metadata,
            Set(manifest.inputs.map(\.path)) == inputPaths(of: plan),
            let source = try? IssueSource(plan), let assets = try? source.assets()
        else { return nil }
        var touched = false
        for index in manifest.inputs.indices {
            let input = manifest.inputs[index]
            if let validated = plan.configDigests[input.path] {
                guard validated == input.sha256 else { return nil }
                continue
            }
            let name = String(input.path.dropFirst("assets/".count))
            guard let file = try? source.file(name, in: assets), file.size == input.size else { return nil }
            if file.modified != input.modified {
                guard (try? file.sha256()) == input.sha256 else { return nil }
                manifest.inputs[index].modified = file.modified
                touched = true
            }
        }
        for record in manifest.outputs {
            guard (try? output.folder.file(record.file))?.size == record.size else { return nil }
        }
        if touched { try? manifest.write(in: output.folder) }
        return manifest
    }
}
