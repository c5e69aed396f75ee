import Foundation
import TallyCore

/// Whether a server uses a SQLite database file. `tally serve` holds a shared lock on the file
/// while it runs (a BSD `flock`, which SQLite's own POSIX locks never meet), so that `tally
/// restore-server` can tell that no server has it open before it puts another file in its place.
package final class ServingLock: Sendable {
    private let descriptor: Int32

    private init(_ path: String, _ operation: Int32, refusal: Phrase) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TallyError.invalid("Cannot open \(path): \(String(cString: strerror(errno))).") }
        guard flock(descriptor, operation | LOCK_NB) == 0 else {
            Foundation.close(descriptor)
            throw TallyError.conflict(refusal)
        }
    }

    /// Held by a running server: any number of them may share the file.
    package static func serving(_ path: String) throws -> ServingLock {
        try ServingLock(path, LOCK_SH, refusal: Phrase("\(path) is being restored: start the server once that is done."))
    }

    /// Taken before the file is replaced: refused while a server holds it.
    static func replacing(_ path: String) throws -> ServingLock {
        try ServingLock(path, LOCK_EX, refusal: Phrase("A server is running on \(path): stop it first, then restore."))
    }

    deinit { Foundation.close(descriptor) }
}
