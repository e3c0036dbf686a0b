import Foundation
import NewsstandArchive
import NewsstandFormat

/// What building one scale of an issue produced.
struct ScaleOutput: Sendable {
    var bundle: OutputRecord
    var cover: OutputRecord
    var inputs: [InputRecord]
}

/// Builds one scale of an issue: the bundle (`<name>.zip` or `<name>@2x.zip`) and the cover
/// (`cover.png` or `cover@2x.png`) in the issue's output folder.
///
/// The archive holds `issue.plist`, `pages.plist` and every referenced asset at its root, in a
/// fixed order, with the issue's date as every entry's time and fixed permissions, so the
/// same inputs give the same bytes. Inputs and the archive are hashed while they stream through.
struct BundleBuilder {
    let plan: IssuePlan
    let retina: Bool
    let outputFolder: URL

    func build() throws(BuildError) -> ScaleOutput {
        var inputs: [InputRecord] = []
        let bundleName = retina ? RetinaName.of("\(plan.name).zip") : "\(plan.name).zip"
        let bundle = try writeBundle(named: bundleName, inputs: &inputs)
        let coverName = retina ? RetinaName.of(plan.metadata.cover) : plan.metadata.cover
        let cover = try copyCover(named: coverName, inputs: &inputs)
        return ScaleOutput(bundle: bundle, cover: cover, inputs: inputs)
    }

    private func writeBundle(named name: String, inputs: inout [InputRecord]) throws(BuildError) -> OutputRecord {
        let destination = outputFolder.appendingPathComponent(name)
        var entries: [(source: URL, relative: String, entry: String)] = [
            (plan.folder.appendingPathComponent("issue.plist"), "issue.plist", "issue.plist"),
            (plan.folder.appendingPathComponent("pages.plist"), "pages.plist", "pages.plist"),
        ]
        for asset in plan.assets {
            let file = asset.fileName(retina: retina)
            entries.append((plan.assetsFolder.appendingPathComponent(file), "assets/\(file)", file))
        }
        let hasher = BackgroundHasher()
        do {
            let size = try AtomicFile.write(to: destination) { temporary in
                let writer = try ZipWriter(url: temporary) { hasher.update($0) }
                var recorders: [InputRecorder] = []
                for item in entries {
                    var recorder = InputRecorder(item.source, relative: item.relative)
                    try writer.addFile(
                        at: item.source, as: item.entry, modified: plan.metadata.date,
                        compression: .suited(toFileName: item.entry)
                    ) { recorder.observe($0) }
                    recorders.append(recorder)
                }
                let size = try writer.close()
                inputs += recorders.map { $0.finish() }
                return size
            }
            return OutputRecord(file: name, size: size, sha256: hasher.finalizeHex())
        } catch let error as ArchiveError {
            throw BuildError(issue: plan.name, path: error.path, reason: error.reason)
        } catch {
            throw BuildError(issue: plan.name, path: destination.path, reason: "\(error)")
        }
    }

    private func copyCover(named name: String, inputs: inout [InputRecord]) throws(BuildError) -> OutputRecord {
        let source = plan.assetsFolder.appendingPathComponent(name)
        let destination = outputFolder.appendingPathComponent(name)
        do {
            let record = try AtomicFile.write(to: destination) { temporary in
                var recorder = InputRecorder(source, relative: "assets/\(name)")
                try FileCopier.copy(source, to: temporary) { recorder.observe($0) }
                return recorder.finish()
            }
            inputs.append(record)
            return OutputRecord(file: name, size: record.size, sha256: record.sha256)
        } catch {
            throw BuildError(issue: plan.name, path: source.path, reason: Self.reason(error))
        }
    }

    static func reason(_ error: Error) -> String {
        if let error = error as? ArchiveError { return error.reason }
        return (error as NSError).localizedDescription
    }
}
