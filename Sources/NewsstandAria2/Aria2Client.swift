import Foundation
import NewsstandReader

/// The daemon's JSON-RPC methods the engine uses, each one POST (`Aria2Connection`) carrying
/// the secret as aria2 wants it (`token:<secret>`, the first parameter). Blocking.
struct Aria2Client: Sendable {
    let connection: Aria2Connection
    let secret: Aria2Secret

    /// What `downloads()` asks of each download: enough to map it back to a key and judge it.
    static let statusKeys = ["gid", "status", "totalLength", "completedLength", "errorCode", "errorMessage", "files"]
    /// How many waiting and stopped downloads one listing takes (aria2 keeps 1,000 results).
    static let listLimit = 1_000

    /// Hands `uri` to aria2 under `gid`, written to the file `out` in its folder.
    func addUri(_ uri: String, gid: String, out: String) throws(Aria2Error) {
        try addUri(uri, options: ["gid": gid, "out": out])
    }

    /// Hands `uri` to aria2 with these per-download options.
    func addUri(_ uri: String, options: [String: String]) throws(Aria2Error) {
        let _: String = try call("aria2.addUri", [.list([uri]), .options(options)])
    }

    /// One download; nil when aria2 has no such GID.
    func status(of gid: String) throws(Aria2Error) -> Aria2Status? {
        do throws(Aria2Error) {
            let raw: Aria2Status.Raw = try call("aria2.tellStatus", [.text(gid), .list(Self.statusKeys)])
            return Aria2Status(raw)
        } catch .refused(_, _, let message) where Self.isUnknownGID(message) {
            return nil
        }
    }

    /// Every download aria2 holds, waiting first, then active, then stopped, in one call: a
    /// download only ever moves forward through these, so none is missed between the lists.
    /// Entries that do not parse are left out.
    func downloads() throws(Aria2Error) -> [Aria2Status] {
        let token = Aria2Param.text("token:\(secret.hex)")
        let keys = Aria2Param.list(Self.statusKeys)
        let calls: [Aria2Param] = [
            .call("aria2.tellWaiting", [token, .number(0), .number(Self.listLimit), keys]),
            .call("aria2.tellActive", [token, keys]),
            .call("aria2.tellStopped", [token, .number(0), .number(Self.listLimit), keys]),
        ]
        let results: [Aria2Multicall<[Aria2Status.Raw]>] = try call("system.multicall", [.calls(calls)], authenticated: false)
        var statuses: [Aria2Status] = []
        for result in results {
            switch result {
            case .value(let list): statuses += list.compactMap(Aria2Status.init)
            case .failure(let code, let message): throw .refused(method: "system.multicall", code: code, message: message)
            }
        }
        return statuses
    }

    /// Stops a download at once (`forceRemove`); false when aria2 has no such GID.
    @discardableResult
    func forceRemove(_ gid: String) throws(Aria2Error) -> Bool {
        try ignoringUnknownGID { () throws(Aria2Error) in let _: String = try call("aria2.forceRemove", [.text(gid)]) }
    }

    /// Forgets a stopped download's result; false when aria2 has no such result.
    @discardableResult
    func removeDownloadResult(_ gid: String) throws(Aria2Error) -> Bool {
        try ignoringUnknownGID { () throws(Aria2Error) in let _: String = try call("aria2.removeDownloadResult", [.text(gid)]) }
    }

    /// Resumes a paused download.
    func unpause(_ gid: String) throws(Aria2Error) {
        let _: String = try call("aria2.unpause", [.text(gid)])
    }

    /// The daemon's settings (its folder, session file), to tell it is this engine's.
    func globalOptions() throws(Aria2Error) -> [String: String] {
        try call("aria2.getGlobalOption", [])
    }

    // MARK: The call

    private func call<Result: Decodable>(_ method: String, _ params: [Aria2Param], authenticated: Bool = true) throws(Aria2Error)
        -> Result
    {
        let id = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        let request = Aria2Request(id: id, method: method, params: (authenticated ? [.text("token:\(secret.hex)")] : []) + params)
        // Strings, numbers, lists and dictionaries of them: they always encode.
        guard let body = try? JSONEncoder().encode(request) else {
            throw .badResponse(method: method, reason: "cannot encode the request")
        }
        let answer = try connection.post(body, method: method)
        guard answer.status == 200 || answer.status == 400 || answer.status == 500 else {
            throw .badResponse(method: method, reason: "HTTP status \(answer.status)")
        }
        guard let response = try? JSONDecoder().decode(Aria2Response<Result>.self, from: answer.body) else {
            throw .badResponse(method: method, reason: "not the JSON-RPC answer expected")
        }
        if let failure = response.error {
            throw .refused(method: method, code: failure.code, message: Aria2Text.printable(failure.message))
        }
        guard response.id == id, let result = response.result else {
            throw .badResponse(method: method, reason: "an answer to another request")
        }
        return result
    }

    private func ignoringUnknownGID(_ body: () throws(Aria2Error) -> Void) throws(Aria2Error) -> Bool {
        do throws(Aria2Error) {
            try body()
            return true
        } catch .refused(_, _, let message) where Self.isUnknownGID(message) {
            return false
        }
    }

    /// aria2 answers every failure with code 1; "GID … is not found" is how it says "no such
    /// download".
    static func isUnknownGID(_ message: String) -> Bool {
        message.hasPrefix("GID ") && message.hasSuffix(" is not found")
    }
}
