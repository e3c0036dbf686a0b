import Foundation
import NewsstandFormat

/// Decides whether an issue's output is up to date with its sources, from the manifest of
/// its last build: same tool version, same set of input files, each with the same size and
/// modification time (or, when only the time differs, the same SHA-256), and every output
/// still present with its recorded size.
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
    static func upToDateManifest(for plan: IssuePlan, output: URL) -> BuildManifest? {
        guard var manifest = BuildManifest.read(in: output), manifest.toolVersion == ToolVersion.current,
            manifest.name == plan.name, manifest.metadata == plan.metadata,
            Set(manifest.inputs.map(\.path)) == inputPaths(of: plan)
        else { return nil }
        var touched = false
        for index in manifest.inputs.indices {
            let input = manifest.inputs[index]
            let url = plan.folder.appendingPathComponent(input.path)
            guard let status = try? FileStatus.of(url), status.size == input.size else { return nil }
            if status.modified != input.modified {
                guard (try? SHA256.hex(ofFileAt: url)) == input.sha256 else { return nil }
                manifest.inputs[index].modified = status.modified
                touched = true
            }
        }
        for record in [manifest.bundle, manifest.retinaBundle, manifest.cover, manifest.retinaCover] {
            guard (try? FileStatus.of(output.appendingPathComponent(record.file)))?.size == record.size else { return nil }
        }
        if touched { try? manifest.write(in: output) }
        return manifest
    }
}
