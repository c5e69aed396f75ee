import Foundation
import Synchronization

/// Where this server keeps the uploads it is receiving: a folder of its own in the temporary
/// folder, named after the port it listens on, so that another server on this machine has
/// another. It is emptied when the server starts listening: nothing in it can be finished once
/// the process that wrote it is gone (killed, or the machine rebooted), and a file of several
/// gigabytes must not wait an hour to go. Until then (and for commands) uploads go to the
/// temporary folder itself.
enum UploadFolder {
    private static let current = Mutex(FileManager.default.temporaryDirectory)

    static var url: URL { current.withLock { $0 } }

    /// The folder of the server listening on `port`, inside `root`.
    static func folder(port: Int, in root: URL = FileManager.default.temporaryDirectory) -> URL {
        root.appendingPathComponent("tally-uploads-\(port)", isDirectory: true)
    }

    /// Makes the folder of the server listening on `port` (readable by this user alone), empties
    /// it, and puts the uploads there from now on. Returns how many files were left in it.
    @discardableResult
    static func claim(port: Int) throws -> Int {
        let (folder, removed) = try emptied(port: port)
        current.withLock { $0 = folder }
        return removed
    }

    /// The folder of the server listening on `port` in `root`, made if need be and emptied, and
    /// how many files were left in it.
    static func emptied(port: Int, in root: URL = FileManager.default.temporaryDirectory) throws -> (folder: URL, removed: Int) {
        let folder = folder(port: port, in: root)
        let files = FileManager.default
        try files.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        var removed = 0
        for name in try files.contentsOfDirectory(atPath: folder.path) where (try? files.removeItem(at: folder.appendingPathComponent(name))) != nil {
            removed += 1
        }
        return (folder, removed)
    }
}
