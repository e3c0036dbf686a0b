import Foundation

/// Collects a build's warnings and hands each on as it arises.
final class WarningSink {
    private(set) var messages: [String] = []
    private let forward: (String) -> Void

    init(forward: @escaping (String) -> Void) {
        self.forward = forward
    }

    func warn(_ message: String) {
        messages.append(message)
        forward(message)
    }

    func warn(_ messages: [String]) {
        for message in messages { warn(message) }
    }
}
