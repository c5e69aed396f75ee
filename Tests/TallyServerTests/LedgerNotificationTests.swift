@preconcurrency import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyAPI
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// The other members hear of a ledger's changes by Web Push: checked with the loopback push
/// service of the reminders' tests, each message decrypted as the browser would.
@Suite("Ledger notifications")
struct LedgerNotificationTests {
    typealias Inbox = ReminderDeliveryTests.Inbox

    /// Keeps the changes a service tells, for the test to hand to a notifier when it chooses.
    final class Heard: EntryChangeListener, @unchecked Sendable {
        private let lock = NSLock()
        private var changes: [EntryChange] = []
        func entryChanged(_ change: EntryChange) { lock.withLock { changes.append(change) } }
        var all: [EntryChange] { lock.withLock { changes } }
    }

    /// A browser: its keys, to subscribe with and to read what it receives.
    struct Browser {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = WebPushMessage.randomBytes(16)

        func subscribe(_ f: ServerFixture, _ user: User, at endpoint: String) async throws {
            try await f.store.savePushSubscription(PushSubscription(endpoint: endpoint, p256dh: key.publicKey.x963Representation, auth: auth),
                                                   of: user.id, at: f.clock.now, limit: pushSubscriptionLimit)
        }

        /// The notification in a message, decrypted.
        func read(_ body: Data) throws -> [String: Any] {
            let text = try WebPushMessageTests.decrypt(body, browserKey: key, auth: auth)
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        }
    }

    /// Ada's "Flat" in EUR, which Bob joined; each with a spending service whose changes are heard.
    struct Flat {
        let f: ServerFixture
        let ledger: UUID
        let ada: SpendingService
        let bob: SpendingService
        let heard = Heard()
        let notifier: LedgerNotifier

        init(_ f: ServerFixture) async throws {
            self.f = f
            ada = SpendingService(store: f.store, clock: f.clock, user: f.ada.id, listener: heard)
            bob = SpendingService(store: f.store, clock: f.clock, user: f.bob.id, listener: heard)
            let created = try await ada.createLedger(name: "Flat", currency: "EUR", memberNames: ["Ada", "Bob"])
            ledger = created.ledger.id
            let code = try await ada.openInvite(ledger).newInviteCode!
            _ = try await bob.join(code: code, as: .name("Bob"))
            notifier = LedgerNotifier(store: f.store, clock: f.clock,
                                      push: PushCenter(store: f.store, contact: "mailto:tally@localhost", endpoints: .loopbackForTests))
        }

        func expense(_ amount: String, _ description: String, by service: SpendingService) async throws {
            _ = try await service.addExpense(to: ledger, NewExpense(amount: .text(amount), description: description))
        }

        /// Hands every change heard since the last call to the notifier, in order.
        func tell() async -> Int {
            var told = 0
            for change in heard.all.dropFirst(handed.value) { told += await notifier.notice(change) }
            handed.value = heard.all.count
            return told
        }

        final class Count: @unchecked Sendable { var value = 0 }
        let handed = Count()

        func listening(_ user: User, at path: String, _ body: @escaping @Sendable (Browser, Inbox) async throws -> Void) async throws {
            try await LedgerNotificationTests.listening(f, user, at: path, body)
        }
    }

    /// Runs `body` with a push service on loopback and a device of `user` subscribed to it at
    /// `path` (/push/… takes messages, /gone/… answers 410).
    static func listening(_ f: ServerFixture, _ user: User, at path: String,
                          _ body: @escaping @Sendable (Browser, Inbox) async throws -> Void) async throws {
        let (browser, inbox) = (Browser(), Inbox())
        try await ReminderDeliveryTests.pushService(inbox).test(.live) { client in
            let port = try #require(client.port)
            try await browser.subscribe(f, user, at: "http://127.0.0.1:\(port)\(path)")
            try await body(browser, inbox)
        }
    }

    @Test("A new expense is told to the other member with their share, in a message their browser decrypts; the author's devices get nothing")
    func toldToTheOthers() async throws {
        let f = try await ServerFixture(now: "2026-03-02T18:00:00Z")
        let flat = try await Flat(f)
        let (adas, bobs) = (Browser(), Browser())
        let inbox = Inbox()
        try await ReminderDeliveryTests.pushService(inbox).test(.live) { client in
            let port = try #require(client.port)
            try await adas.subscribe(f, f.ada, at: "http://127.0.0.1:\(port)/push/ada-phone")
            try await bobs.subscribe(f, f.bob, at: "http://127.0.0.1:\(port)/push/bob-phone")
            let sent = ReminderDeliveryTests.metric("tally_push_sent_total", "kind=\"ledger\"")
            try await flat.expense("42.80", "Groceries at Lidl", by: flat.ada)
            #expect(await flat.tell() == 1)
            let messages = await inbox.messages
            #expect(messages.map(\.path) == ["/push/bob-phone"], "only Bob's device; none of Ada's")
            let notification = try bobs.read(try #require(messages.first).body)
            #expect(notification["title"] as? String == "Flat")
            #expect(notification["body"] as? String == "Ada added Groceries at Lidl — €42.80, your share €21.40")
            #expect(notification["url"] as? String == "/spending/\(flat.ledger.uuidString)")
            #expect(ReminderDeliveryTests.metric("tally_push_sent_total", "kind=\"ledger\"") >= sent + 1)
            #expect(try await f.store.pushDevices(of: f.bob.id).first?.lastDeliveredAt == f.clock.now, "the delivery is kept for the settings page")
        }
    }

    @Test("Told in the reader's language, with their share in their locale's money")
    func inTheirLanguage() async throws {
        let f = try await ServerFixture(now: "2026-03-02T18:00:00Z")
        try await f.store.setLanguage(of: f.bob.id, to: "de")
        let flat = try await Flat(f)
        try await flat.listening(f.bob, at: "/push/bob-phone") { bobs, inbox in
            try await flat.expense("1234.50", "Miete", by: flat.ada)
            _ = await flat.tell()
            let notification = try bobs.read(try #require(await inbox.messages.first).body)
            #expect(notification["body"] as? String == "Ada hat Miete hinzugefügt – 1.234,50\u{00A0}€, dein Anteil 617,25\u{00A0}€")
        }
    }

    @Test("A burst: the first change at once, the rest summed in one more notification when the minute ends, by one of two instances")
    func burstSummedOnce() async throws {
        let f = try await ServerFixture(now: "2026-03-02T18:00:00Z")
        let flat = try await Flat(f)
        try await flat.listening(f.bob, at: "/push/bob-phone") { bobs, inbox in
            try await flat.expense("10.00", "Bread", by: flat.ada)
            for second in 1...6 {
                f.clock.advance(by: 5)
                try await flat.expense("3.50", "Item \(second)", by: flat.ada)
            }
            #expect(await flat.tell() == 1, "one notification for seven expenses within the minute")
            #expect(await inbox.messages.count == 1)
            // another instance on the same database
            let other = LedgerNotifier(store: f.store, clock: f.clock,
                                       push: PushCenter(store: f.store, contact: "mailto:tally@localhost", endpoints: .loopbackForTests))
            let start = f.clock.now.addingTimeInterval(-30)
            #expect(await flat.notifier.tick(now: start.addingTimeInterval(59)) == 0, "the minute has not ended")
            async let one = flat.notifier.tick(now: start.addingTimeInterval(61))
            async let two = other.tick(now: start.addingTimeInterval(61))
            #expect(await one + two == 1)
            let messages = await inbox.messages
            #expect(messages.count == 2)
            let summary = try bobs.read(messages[1].body)
            #expect(summary["body"] as? String == "Ada added 6 more expenses, €21.00")
            #expect(await flat.notifier.tick(now: start.addingTimeInterval(120)) == 0, "told once")
        }
    }

    @Test("Changes, deletes and payments are told as what they are; a burst of mixed changes is counted as changes")
    func kindsOfChange() async throws {
        let f = try await ServerFixture(now: "2026-03-02T18:00:00Z")
        let flat = try await Flat(f)
        try await flat.listening(f.ada, at: "/push/ada-phone") { adas, inbox in
            // Bob pays Ada back: a payment, told to Ada
            _ = try await flat.bob.recordPayment(in: flat.ledger, NewPayment(to: 1, amount: .text("20")))
            _ = await flat.tell()
            f.clock.advance(by: 120)
            _ = await flat.notifier.tick(now: f.clock.now)
            let entry = try await flat.bob.addExpense(to: flat.ledger, NewExpense(amount: .text("30"), description: "Pizza")).entry
            _ = try await flat.bob.editEntry(entry.id, in: flat.ledger, EntryChangeBody(amount: .text("36")))
            _ = try await flat.bob.deleteEntry(entry.id, in: flat.ledger)
            _ = await flat.tell()
            f.clock.advance(by: 120)
            _ = await flat.notifier.tick(now: f.clock.now)
            // a deletion that opens a burst says so
            _ = try await flat.bob.restoreEntry(entry.id, in: flat.ledger)
            _ = await flat.tell()
            let bodies = try await inbox.messages.map { try adas.read($0.body)["body"] as? String }
            #expect(bodies == [
                "Bob recorded a payment of €20.00 from Bob to Ada",
                "Bob added Pizza — €30.00, your share €15.00",
                "Bob made 2 more changes",
                "Bob restored Pizza — €36.00, your share €18.00",
            ])
        }
    }

    @Test("A member who turned the ledger's notifications off hears nothing; an edit that changes nothing is not told")
    func muted() async throws {
        let f = try await ServerFixture(now: "2026-03-02T18:00:00Z")
        let flat = try await Flat(f)
        try await flat.listening(f.bob, at: "/push/bob-phone") { bobs, inbox in
            try await flat.bob.setChangeNotifications(false, in: flat.ledger)
            try await flat.expense("12", "Soap", by: flat.ada)
            #expect(await flat.tell() == 0)
            f.clock.advance(by: 120)
            #expect(await flat.notifier.tick(now: f.clock.now) == 0)
            #expect(await inbox.messages.isEmpty)
            try await flat.bob.setChangeNotifications(true, in: flat.ledger)
            let soap = try await flat.ada.entries(in: flat.ledger).first!
            _ = try await flat.ada.editEntry(soap.id, in: flat.ledger, EntryChangeBody(amount: .text("12")))
            #expect(flat.heard.all.count == 1, "an edit that changed nothing is no change to tell")
            _ = try await flat.ada.editEntry(soap.id, in: flat.ledger, EntryChangeBody(amount: .text("13")))
            #expect(await flat.tell() == 1)
            #expect(try bobs.read(try #require(await inbox.messages.first).body)["body"] as? String == "Ada changed Soap — now €13.00, your share €6.50")
        }
    }

    @Test("A device whose push service says it is gone takes no more notifications")
    func goneDevice() async throws {
        let f = try await ServerFixture(now: "2026-03-02T18:00:00Z")
        let flat = try await Flat(f)
        try await flat.listening(f.bob, at: "/gone/bob-old-phone") { _, _ in
            try await flat.expense("12", "Soap", by: flat.ada)
            #expect(await flat.tell() == 0)
            #expect(try await f.store.pushDevices(of: f.bob.id).first?.goneAt == f.clock.now)
            #expect(try await f.store.changeRecipients(of: flat.ledger, except: f.ada.id).isEmpty)
        }
    }

    @Test("The API: notifications on or off per ledger, a stranger's ledger is 404, and the devices with how they fared")
    func api() async throws {
        let f = try await ServerFixture(now: "2026-03-02T18:00:00Z")
        let flat = try await Flat(f)
        try await Browser().subscribe(f, f.bob, at: "https://push.example/bob-phone")
        try await f.store.recordPush(to: "https://push.example/bob-phone", at: f.clock.now, outcome: .failed("500"))
        let alone = try await SpendingService(store: f.store, clock: f.clock, user: f.ada.id).createLedger(name: "Mine", currency: "EUR")
        try await f.test { client in
            let bob = f.bobToken
            let path = "/api/v1/ledgers/\(flat.ledger)/notifications"
            #expect(try await client.send(.get, path, token: bob).json()["changes"] as? Bool == true)
            let off = try await client.send(.put, path, token: bob, json: #"{"changes": false}"#)
            #expect(off.status == .ok)
            #expect(try off.json()["changes"] as? Bool == false)
            #expect(try await client.send(.get, path, token: bob).json()["changes"] as? Bool == false)
            #expect(try await f.store.changeNotifications(in: flat.ledger, of: f.ada.id), "Ada's own stays on")
            try await client.send(.put, path, token: bob, json: #"{"changes": "no"}"#).problem(.badRequest)
            try await client.send(.put, path, token: bob, json: #"{"changes": true, "loud": true}"#).problem(.badRequest)
            try await client.send(.get, "/api/v1/ledgers/\(alone.ledger.id)/notifications", token: bob).problem(.notFound)
            try await client.send(.put, "/api/v1/ledgers/\(alone.ledger.id)/notifications", token: bob,
                                  json: #"{"changes": false}"#).problem(.notFound)
            let devices = try await client.send(.get, "/api/v1/push/subscriptions", token: bob).json()["items"] as? [[String: Any]]
            #expect(devices?.count == 1)
            #expect(devices?.first?["failures"] as? Int == 1)
            #expect(devices?.first?["lastFailure"] as? String == "500")
            try await client.send(.post, "/api/v1/reminders/snooze", token: bob, json: #"{"minutes": 0}"#).problem(.badRequest)
            let snoozed = try await client.send(.post, "/api/v1/reminders/snooze", token: bob, json: #"{"minutes": 60}"#)
            #expect(snoozed.status == .ok, "\(snoozed)")
        }
    }

    @Test("A reminder carries its buttons, a drink id of its own and the words for what they do; a snooze puts reminders off, then one comes")
    func reminderButtonsAndSnooze() async throws {
        let f = try await ServerFixture(now: "2026-01-10T09:59:30Z")
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.saveReminderSettings(ReminderSettings(enabled: true, window: .standard, frequency: 3, smartThresholdHours: nil))
        try await Self.listening(f, f.ada, at: "/push/ada-phone") { browser, inbox in
            let push = PushCenter(store: f.store, contact: "mailto:tally@localhost", endpoints: .loopbackForTests)
            let service = ReminderService(store: f.store, clock: f.clock, push: push)
            #expect(await service.tick(from: f.clock.now, to: f.clock.now + 60) == 1) // 11:00 Berlin
            let reminder = try browser.read(try #require(await inbox.messages.first).body)
            let actions = reminder["actions"] as? [[String: String]]
            #expect(actions?.map { $0["action"] } == ["log", "snooze"])
            #expect(actions?.map { $0["title"] } == ["Log 100 ml", "Snooze 1 h"])
            let drink = reminder["drink"] as? [String: Any]
            #expect((drink?["id"] as? String).flatMap(UUID.init(uuidString:)) != nil)
            #expect(drink?["volumeMl"] as? Double == 100)
            #expect((reminder["done"] as? [String: String])?["log"] == "Logged 100 ml.")

            // "Snooze 1 h" at 11:00: nothing at 12:00's… nothing until 12:00, then one
            let until = try await push.snooze(f.ada, minutes: 60, now: f.clock.now + 30)
            #expect(until == f.clock.now + 30 + 3600)
            #expect(await service.tick(from: f.clock.now + 60, to: f.clock.now + 3000) == 0)
            #expect(await service.tick(from: f.clock.now + 3000, to: f.clock.now + 3660) == 1, "the reminder put off comes")
            #expect(await service.tick(from: f.clock.now + 3000, to: f.clock.now + 3660) == 0, "once")
            await #expect(throws: TallyError.self) { _ = try await push.snooze(f.ada, minutes: 0, now: f.clock.now) }
            await #expect(throws: TallyError.self) { _ = try await push.snooze(f.ada, minutes: 1441, now: f.clock.now) }
        }
    }
}
