// The floor to measure `tally today` against, beside the sqlite3 shell (bench/hydration.sh): a
// process that links the same runtime, Foundation and GRDB, opens a Tally file and prints one
// day's drinks of one person with their kinds' names, and nothing else: no argument parser, no
// language, no schema check, no text layout.
//
// Run: bare-today DB_PATH DAY (a day as its number, such as 20261120), for the person "local".
import Foundation
import GRDB

let arguments = CommandLine.arguments
guard arguments.count == 3, let day = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: bare-today DB_PATH DAY\n".utf8))
    exit(1)
}
var configuration = Configuration()
configuration.readonly = true
let database = try DatabaseQueue(path: arguments[1], configuration: configuration)
let rows = try database.read { db in
    try Row.fetchAll(db, sql: """
        SELECT intake.at, intake.volumeMl, intake.effectiveMl, drinkKind.name FROM intake
        JOIN drinkKind ON drinkKind.id = intake.kindId
        WHERE intake.userId = (SELECT id FROM user WHERE name = 'local') AND intake.day = ? ORDER BY intake.at
        """, arguments: [day])
}
for row in rows {
    let at: Date = row[0]
    let volume: Double = row[1]
    let effective: Double = row[2]
    let kind: String = row[3]
    print("\(at) \(volume) ml \(kind) +\(effective) ml")
}
