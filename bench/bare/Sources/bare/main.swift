// This is the floor Tally is measured against (bench/server.sh runs both in one run and prints
// each of Tally's figures as a ratio of this app's same request). Keep its code as it is: it is the
// minimum the same framework and database can do, not a copy of Tally.
//
// The floor to measure Tally's API against: the same framework and database, nothing else.
// GET /health answers a constant; GET /today looks the bearer token up and reads one row of a
// per-day total; POST /intakes looks the token up and, in one write transaction, inserts a drink
// and updates that total. Run: swift run -c release bare [DB_PATH] [PORT] (listens on 127.0.0.1:PORT, default 8090);
// BARE_SYNCHRONOUS=FULL for durable writes.
import Foundation
import GRDB
import Hummingbird

struct Today: ResponseEncodable { var totalMl: Double; var entryCount: Int }
struct NewIntake: Decodable { var volumeMl: Double }

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "bare.sqlite"
let port = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 8090
let pool = try DatabasePool(path: path)
try await pool.write { db in
    try db.execute(sql: """
        CREATE TABLE IF NOT EXISTS token(hash TEXT PRIMARY KEY, userId INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS intake(id TEXT PRIMARY KEY, userId INTEGER NOT NULL, day INTEGER NOT NULL, volumeMl REAL NOT NULL);
        CREATE TABLE IF NOT EXISTS dayTotal(userId INTEGER, day INTEGER, totalMl REAL, entryCount INTEGER, PRIMARY KEY(userId, day)) WITHOUT ROWID;
        INSERT OR IGNORE INTO token VALUES('secret', 1);
        """)
}
// BARE_SYNCHRONOUS=FULL makes every acknowledged write durable, as a server that loses nothing must;
// GRDB's WAL set-up leaves the writer at NORMAL otherwise.
if let mode = ProcessInfo.processInfo.environment["BARE_SYNCHRONOUS"], ["FULL", "NORMAL", "EXTRA"].contains(mode.uppercased()) {
    try await pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = \(mode.uppercased())") }
}

func user(_ request: Request) async throws -> Int64 {
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw HTTPError(.unauthorized) }
    let token = String(header.dropFirst(7))
    guard let id = try await pool.read({ try Int64.fetchOne($0, sql: "SELECT userId FROM token WHERE hash = ?", arguments: [token]) })
    else { throw HTTPError(.unauthorized) }
    return id
}
func today() -> Int { Int(Date().timeIntervalSince1970 / 86400) }

let router = Router()
router.get("health") { _, _ in "ok" }
router.get("today") { request, _ -> Today in
    let id = try await user(request)
    return try await pool.read { db in
        let row = try Row.fetchOne(db, sql: "SELECT totalMl, entryCount FROM dayTotal WHERE userId = ? AND day = ?", arguments: [id, today()])
        return Today(totalMl: row?["totalMl"] ?? 0, entryCount: row?["entryCount"] ?? 0)
    }
}
router.post("intakes") { request, context -> Today in
    let id = try await user(request)
    let body = try await request.decode(as: NewIntake.self, context: context)
    return try await pool.write { db in
        try db.execute(sql: "INSERT INTO intake VALUES (?, ?, ?, ?)", arguments: [UUID().uuidString, id, today(), body.volumeMl])
        try db.execute(sql: """
            INSERT INTO dayTotal VALUES (?, ?, ?, 1) ON CONFLICT(userId, day)
            DO UPDATE SET totalMl = totalMl + excluded.totalMl, entryCount = entryCount + 1
            """, arguments: [id, today(), body.volumeMl])
        let row = try Row.fetchOne(db, sql: "SELECT totalMl, entryCount FROM dayTotal WHERE userId = ? AND day = ?", arguments: [id, today()])!
        return Today(totalMl: row["totalMl"], entryCount: row["entryCount"])
    }
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
