import Foundation
import Testing

/// `tally expenses receipt` end to end: a photo attached from a file comes back without its
/// metadata, a file that is neither a photo nor a PDF is refused, a receipt is removed, and
/// nobody reaches another person's entry; on the local database and through a server.
@Suite("receipt command")
struct ReceiptCommandTests {
    /// A phone's photo whose Exif names its camera ("TallyCam") and the shop's GPS position.
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../TallyServerTests/Fixtures/Receipts/gps.jpg").standardized

    /// A page that would run its script if it were ever served as one, named like a photo.
    static let disguised = Data("<html><script>alert(document.cookie)</script></html>".utf8)

    static let notTaken = "A receipt must be a photo (JPEG, PNG, WebP or HEIC) or a PDF; this file is none of them."

    func sandbox() throws -> Sandbox {
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        try tally.ok(["ledger", "create", "Home", "--member", "Alex", "--member", "Sam"])
        return tally
    }

    /// The first 8 characters of the id of an entry as `--json` printed it.
    static func short(_ entry: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        String(try #require(entry["id"] as? String, sourceLocation: sourceLocation).prefix(8)).lowercased()
    }

    /// A JPEG with nothing left of the photo's metadata.
    static func expectCleanJPEG(_ bytes: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]), "not a JPEG", sourceLocation: sourceLocation)
        #expect(bytes.range(of: Data("TallyCam".utf8)) == nil, "the camera's name is kept", sourceLocation: sourceLocation)
        #expect(bytes.range(of: Data("Exif".utf8)) == nil, "Exif is kept", sourceLocation: sourceLocation)
    }

    @Test func theFixtureCarriesMetadata() throws {
        let original = try Data(contentsOf: Self.photo)
        #expect(original.range(of: Data("TallyCam".utf8)) != nil && original.range(of: Data("Exif".utf8)) != nil)
    }

    // Attached from a file, listed with its 📎, described, saved without its metadata, removed.
    @Test func attachSaveAndRemove() throws {
        let tally = try sandbox()
        let id = try Self.short(try tally.object(["spend", "30", "Groceries"]))
        #expect(try tally.ok(["expenses", "receipt", id]).stdout
            == "No receipt is kept with Groceries 30.00 EUR, paid by Alex, split equally.\nAttach one with: tally expenses receipt \(id) FILE\n")
        let none = try tally.object(["expenses", "receipt", id])
        #expect(none["receipt"] is NSNull && none["bytes"] is NSNull && none["file"] == nil, "\(none)")

        #expect(try tally.ok(["expenses", "receipt", id, Self.photo.path]).stdout
            == "Attached a receipt to Groceries 30.00 EUR, paid by Alex, split equally.\n")
        #expect(try tally.ok(["expenses"]).stdout.contains("  \(id)  Groceries 30.00 EUR, paid by Alex, split equally  📎\n"))
        let shown = try tally.object(["expenses", "receipt", id])
        #expect(shown["receipt"] as? String == "image/jpeg")
        let size = try #require(shown["bytes"] as? Int)
        let text = try tally.ok(["expenses", "receipt", id]).stdout
        #expect(text.hasPrefix("Receipt of Groceries 30.00 EUR, paid by Alex, split equally: image/jpeg, ")
                && text.hasSuffix("\nSave it with: tally expenses receipt \(id) --save FILE\n"), "\(text)")

        let saved = tally.folder.appendingPathComponent("saved.jpg")
        let said = try tally.object(["expenses", "receipt", id, "--save", saved.path])
        #expect(said["file"] as? String == saved.path && said["bytes"] as? Int == size && said["receipt"] as? String == "image/jpeg")
        let bytes = try Data(contentsOf: saved)
        #expect(bytes.count == size)
        Self.expectCleanJPEG(bytes)
        #expect(try tally.ok(["expenses", "receipt", id, "--save", saved.path]).stdout.hasPrefix("Saved the receipt (image/jpeg, "))
        #expect(try tally.ok(["ledger", "log"]).stdout.contains("Attached a receipt to Groceries (30.00 EUR)."))

        let removed = try tally.object(["expenses", "receipt", id, "--remove"])
        #expect(removed["receipt"] is NSNull && removed["description"] as? String == "Groceries", "\(removed)")
        let listed = try tally.ok(["expenses"]).stdout
        #expect(!listed.contains("📎"), "\(listed)")
        #expect(try tally.refused(["expenses", "receipt", id, "--remove"], exit: 2) == "This entry has no receipt.")
        #expect(try tally.refused(["expenses", "receipt", id, "--save", saved.path], exit: 2) == "This entry has no receipt.")
    }

    // Every file that cannot be a receipt is refused in a sentence before anything changes; the
    // receipt before stays. A deleted entry keeps its receipt as it is; a stranger's is not found.
    @Test func refused() throws {
        let tally = try sandbox()
        let entry = try tally.object(["spend", "30", "Groceries"])
        let id = try Self.short(entry)
        try tally.ok(["expenses", "receipt", id, Self.photo.path])

        let page = tally.folder.appendingPathComponent("receipt.jpg")
        try Self.disguised.write(to: page)
        #expect(try tally.refused(["expenses", "receipt", id, page.path]) == Self.notTaken)
        #expect(try tally.object(["expenses", "receipt", id])["receipt"] as? String == "image/jpeg", "the receipt before stays")

        let missing = tally.folder.appendingPathComponent("nowhere.jpg")
        #expect(try tally.refused(["expenses", "receipt", id, missing.path], exit: 2)
                == "Cannot read \(missing.path): there is no such file, or it cannot be opened.")
        #expect(try tally.refused(["expenses", "receipt", id, tally.folder.path], exit: 2).hasPrefix("Cannot read "))
        let empty = tally.folder.appendingPathComponent("empty.pdf")
        try Data().write(to: empty)
        #expect(try tally.refused(["expenses", "receipt", id, empty.path]) == "\(empty.path) is empty: attach a photo or a PDF.")
        let huge = tally.folder.appendingPathComponent("huge.jpg")
        try (Data([0xFF, 0xD8, 0xFF]) + Data(count: 10 << 20)).write(to: huge)
        #expect(try tally.refused(["expenses", "receipt", id, huge.path]).hasPrefix("A receipt can be at most 10 MB; this file is bigger."))
        #expect(try tally.refused(["expenses", "receipt", id, Self.photo.path, "--remove"])
                == "Give a file to attach, --save or --remove: one of them, not several.")
        // Refused before the ledger is looked at: the file is named first.
        #expect(try tally.refused(["expenses", "receipt", "ffffffff", missing.path], exit: 2).hasPrefix("Cannot read "))

        try tally.ok(["expenses", "delete", id])
        #expect(try tally.refused(["expenses", "receipt", id, Self.photo.path], exit: 3)
                == "This entry is deleted; restore it to change its receipt.")
        #expect(try tally.refused(["expenses", "receipt", id, "--remove"], exit: 3)
                == "This entry is deleted; restore it to change its receipt.")
        #expect(try tally.object(["expenses", "receipt", id])["receipt"] as? String == "image/jpeg")

        // Kim has a ledger of her own, and no way into Alex's entry, by its short id or its whole one.
        try tally.ok(["ledger", "create", "Kim's", "--user", "kim"])
        let whole = try #require(entry["id"] as? String)
        for reference in [id, whole] {
            for action in [[Self.photo.path], ["--remove"], ["--save", tally.folder.appendingPathComponent("stolen.jpg").path], []] {
                let arguments = ["expenses", "receipt", reference] + action + ["--user", "kim"]
                #expect(try tally.refused(arguments, exit: 2).contains("has an id starting with"), "\(arguments)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: tally.folder.appendingPathComponent("stolen.jpg").path))
    }

    // The same through a server: the photo goes as the body, the answer's type says what came back.
    @Test func throughAServer() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        try server.ok(["ledger", "create", "Home", "--member", "Alex", "--member", "Sam"])
        let entry = try server.ok(["spend", "30", "Groceries", "--json"]).object()
        let id = try Self.short(entry)
        #expect(try server.ok(["expenses", "receipt", id]).stdout.hasPrefix("No receipt is kept with Groceries 30.00 EUR"))

        #expect(try server.ok(["expenses", "receipt", id, Self.photo.path]).stdout
            == "Attached a receipt to Groceries 30.00 EUR, paid by Alex, split equally.\n")
        #expect(try server.ok(["expenses"]).stdout.contains("Groceries 30.00 EUR, paid by Alex, split equally  📎"))
        let saved = server.folder.appendingPathComponent("saved.jpg")
        let said = try server.ok(["expenses", "receipt", id, "--save", saved.path, "--json"]).object()
        let bytes = try Data(contentsOf: saved)
        #expect(said["receipt"] as? String == "image/jpeg" && said["bytes"] as? Int == bytes.count, "\(said)")
        Self.expectCleanJPEG(bytes)

        let page = server.folder.appendingPathComponent("receipt.jpg")
        try Self.disguised.write(to: page)
        let disguised = try server.run(["expenses", "receipt", id, page.path])
        #expect(disguised.exitCode == 1 && disguised.stderr == Self.notTaken + "\n", "\(disguised)")
        RemoteModeTests.expectSentence(disguised)
        #expect(try server.ok(["expenses", "receipt", id, "--json"]).object()["receipt"] as? String == "image/jpeg")

        // Bob, another account of the same server, cannot reach Ada's entry.
        let bob = try Self.account("bob", on: server)
        let ledger = try server.run(["ledger", "create", "Bob's"], token: bob)
        try #require(ledger.exitCode == 0, "\(ledger)")
        for action in [[Self.photo.path], ["--remove"], []] {
            let stranger = try server.run(["expenses", "receipt", try #require(entry["id"] as? String)] + action, token: bob)
            #expect(stranger.exitCode == 2 && stranger.stderr.contains("has an id starting with"), "\(stranger)")
            RemoteModeTests.expectSentence(stranger)
        }

        #expect(try server.ok(["expenses", "receipt", id, "--remove"]).stdout
            == "Removed the receipt of Groceries 30.00 EUR, paid by Alex, split equally.\n")
        #expect(try server.ok(["expenses", "receipt", id, "--json"]).object()["receipt"] is NSNull)
        let again = try server.run(["expenses", "receipt", id, "--remove"])
        #expect(again.exitCode == 2 && again.stderr == "This entry has no receipt.\n", "\(again)")
        #expect(!FileManager.default.fileExists(atPath: server.decoyDatabase))
    }

    /// A second account on the server's database, and a token of theirs.
    static func account(_ name: String, on server: ServeProcess, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let env = ["TALLY_DATABASE": server.database]
        let created = try CLI.run(["user", "create", name], env: env, in: server.folder, input: "correct horse battery staple\n")
        try #require(created.exitCode == 0, "\(created)", sourceLocation: sourceLocation)
        let token = try CLI.run(["token", "create", "--user", name, "--json"], env: env, in: server.folder)
        try #require(token.exitCode == 0, "\(token)", sourceLocation: sourceLocation)
        return try #require(try token.object()["secret"] as? String, sourceLocation: sourceLocation)
    }
}
