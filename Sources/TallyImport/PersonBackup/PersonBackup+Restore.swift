import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

extension PersonBackup {
    /// Restores the backup into the person's account. An account that has data already (drinks,
    /// kinds of its own, ledgers, sleep records) is refused unless `merge`: then the backup's
    /// drinks, kinds, sleep records and ledger entries that are not there yet are added, and the
    /// account's settings, profile, goals, bottle and reminders stay as they are. Everything the
    /// backup holds is checked before anything is written; the drinks and removals go in a few
    /// thousand at a time (whole days), each ledger's entries likewise, so that a restore never
    /// holds other people's writes for long, and restoring again (with `merge`) finishes a
    /// restore that stopped halfway and adds nothing twice. The settings, profile and goals come
    /// first, before any drink: a restore that stops later has them already, and the merge
    /// that finishes it keeps them.
    public func restore(merge: Bool, hydration: HydrationService, spending: SpendingService,
                        batchSize: Int = PersonBackup.batchSize) async throws -> BackupRestoreReport {
        let checked = try check()
        if !merge, let data = try await existingData(hydration: hydration, spending: spending) {
            throw TallyError.conflict("This account has \(data) already: a backup is restored into a new, empty account. To add the backup's data to this account's, merge it (nothing is added twice).")
        }
        if !merge {
            try await restoreSettings(checked, hydration: hydration)
        }
        let own = try await hydration.ownEntryIDs(entries.map(\.id))
        let kinds = kindsWithThoseDrinksName
        let entries = self.entries
        var added = (drinks: 0, removals: 0, newKinds: [String]())
        for batch in DayBatches.of(entries, size: batchSize, day: \.day) {
            let items = batch.items
            let count = try await hydration.store.importEntries(of: hydration.user, { _, current in
                let (newKinds, byBackupID) = try Self.kinds(kinds, among: current, merge: merge)
                return EntryImport(newKinds: newKinds, entries: try items.map { try $0.entry(id: own($0.id), kinds: byBackupID) })
            }, check: { day, total, settings in
                try DailyTotal.checkImported(total, on: day, unit: settings.unit)
            })
            added.drinks += count.drinks
            added.removals += count.removals
            added.newKinds += count.newKinds
        }
        var sleepAdded = 0
        for (importedAt, nights) in Dictionary(grouping: sleep, by: \.importedAt) {
            sleepAdded += try await hydration.store.importHealthRecords(
                drinks: [], asleep: nights.map { DateInterval(start: $0.start, end: $0.end) }, of: hydration.user,
                at: importedAt ?? hydration.clock.now).asleep
        }
        var (ledgerEntries, recurring) = (0, 0)
        for ledger in ledgers {
            let added = try await Self.restore(ledger, merge: merge, spending: spending, batchSize: batchSize)
            ledgerEntries += added.entries
            recurring += added.recurring
        }
        return BackupRestoreReport(drinksAdded: added.drinks, removalsAdded: added.removals,
                                   alreadyThere: entries.count - added.drinks - added.removals, newKinds: added.newKinds,
                                   sleepRecordsAdded: sleepAdded, ledgers: ledgers.map(\.ledger.name), ledgerEntriesAdded: ledgerEntries,
                                   recurringExpensesAdded: recurring, settingsRestored: !merge)
    }

    /// Entries stored per transaction.
    public static let batchSize = 2_000

    /// What the backup says, checked by the rules a person's own changes follow.
    struct Checked {
        var presets: [Double]?
        var goals: GoalHistory
    }

    func check() throws -> Checked {
        func refuse(_ what: Phrase, _ error: Error) -> TallyError {
            TallyError.invalid("The backup's \(what) cannot be restored: \(Self.reason(error))")
        }
        do { _ = try UserTimeZone.validated(settings.timeZone) } catch { throw refuse(Phrase("time zone"), error) }
        do { _ = try settings.customPresets.map { try Presets(amountsMl: $0.amountsMl, unit: settings.unit) } } catch { throw refuse(Phrase("quick-add amounts"), error) }
        if let profile {
            do { _ = try Profile(age: profile.age, weightKg: profile.weightKg, activity: profile.activity) } catch { throw refuse(Phrase("profile"), error) }
        }
        for period in goals {
            if let ml = period.goal.targetMl, period.goal.mode == .custom {
                do { try GoalChoice.validateCustom(ml, unit: settings.unit) } catch { throw refuse(Phrase("goal from \(period.start)"), error) }
            }
        }
        for kind in kinds {
            do { _ = try DrinkKind.validate(name: kind.name, factor: kind.factor) } catch { throw refuse(Phrase("drink kind \(UserText.quoted(kind.name))"), error) }
        }
        do { _ = try reminders.validated() } catch { throw refuse(Phrase("reminders"), error) }
        do {
            _ = try Bottle.standard.withCapacity(bottle.capacityMl, unit: .ml).withLevel(bottle.levelMl, unit: .ml).withSip(bottle.sipMl, unit: .ml)
        } catch { throw refuse(Phrase("bottle"), error) }
        var seen = Set<UUID>()
        for entry in entries {
            guard seen.insert(entry.id).inserted else { throw TallyError.invalid("The backup holds the entry \(entry.id) twice.") }
        }
        for ledger in ledgers {
            try Self.check(ledger)
        }
        return Checked(presets: settings.customPresets?.amountsMl, goals: GoalHistory(periods: goals))
    }

    /// What the account has that a restore would mix with, in words; nil when it has nothing.
    func existingData(hydration: HydrationService, spending: SpendingService) async throws -> Phrase? {
        let store = hydration.store
        if try await !store.dailyTotals(of: hydration.user, from: nil, through: nil).isEmpty { return Phrase("drinks") }
        if try await store.drinkKinds(of: hydration.user).contains(where: { !$0.isBuiltIn }) { return Phrase("drink kinds of its own") }
        if try await !spending.ledgers().isEmpty { return Phrase("ledgers") }
        if try await !store.sleepRecords(of: hydration.user, endingAfter: .distantPast).isEmpty { return Phrase("sleep records") }
        return nil
    }

    /// What stopped a restore: a refusal's own sentence, or the error as it describes itself.
    static func reason(_ error: Error) -> Phrase {
        (error as? TallyError)?.phrase ?? .verbatim("\(error)")
    }

    /// The backup's kinds among the account's: a kind of the same name (of the same state, where
    /// there is one) is the same kind, and a restore gives it the backup's factor and state while a
    /// merge keeps the account's; another is added. Each of the account's kinds stands for one of
    /// the backup's at most: a retired "Smoothie" and an active one stay two kinds.
    static func kinds(_ kinds: [DrinkKind], among current: [DrinkKind], merge: Bool) throws -> (new: [DrinkKind], byBackupID: [UUID: DrinkKind]) {
        var byName = Dictionary(grouping: current) { UserText.comparisonKey($0.name) }
        var new: [DrinkKind] = []
        var byBackupID: [UUID: DrinkKind] = [:]
        // Active kinds first: they are the ones whose names are unique.
        for kind in kinds.sorted(by: { !$0.isRetired && $1.isRetired }) {
            let key = UserText.comparisonKey(kind.name)
            let candidates = byName[key] ?? []
            if let index = candidates.firstIndex(where: { $0.isRetired == kind.isRetired }) ?? candidates.indices.first {
                var known = candidates[index]
                byName[key]?.remove(at: index)
                if !merge, known.factor != kind.factor || known.isRetired != kind.isRetired {
                    (known.factor, known.isRetired) = (kind.factor, kind.isRetired)
                    new.append(known)
                }
                byBackupID[kind.id] = known
            } else {
                let added = DrinkKind(name: try DrinkKind.validate(name: kind.name, factor: kind.factor), factor: kind.factor,
                                      isRetired: kind.isRetired)
                new.append(added)
                byBackupID[kind.id] = added
            }
        }
        return (new, byBackupID)
    }

    /// The backup's kinds, and a kind for each drink whose kind is not among them (one added while
    /// the backup was being written), named as the drink was.
    var kindsWithThoseDrinksName: [DrinkKind] {
        var known = Set(kinds.map(\.id))
        var all = kinds
        for entry in entries where entry.type == .drink {
            guard let id = entry.kindID, let name = entry.kind, known.insert(id).inserted else { continue }
            all.append(DrinkKind(id: id, name: name, factor: entry.factor ?? 1))
        }
        return all
    }

    /// Settings, profile, goals, bottle and reminders as the backup has them.
    private func restoreSettings(_ checked: Checked, hydration: HydrationService) async throws {
        _ = try await hydration.changeSettings(unit: settings.unit, timeZone: settings.timeZone)
        _ = try await hydration.setPresets(checked.presets)
        _ = try await hydration.store.saveProfile(profile, of: hydration.user) { history, _, _ in history = checked.goals }
        _ = try await hydration.adjustBottle(capacityMl: bottle.capacityMl, levelMl: bottle.levelMl, sipMl: bottle.sipMl)
        _ = try await hydration.saveReminderSettings(reminders)
    }

    /// A ledger of the backup: a new one owned by the person (their member first), or, in a
    /// merge, the person's ledger of that name. Entries are known by their id in the backup, and
    /// so are recurring expenses, which are restored after the entries and their receipts (each in
    /// a transaction of its own): restoring again with `merge` adds none twice.
    static func restore(_ document: LedgerExport.Document, merge: Bool, spending: SpendingService,
                        batchSize: Int = PersonBackup.batchSize) async throws -> (entries: Int, recurring: Int) {
        let ledger = document.ledger
        let currency = try Currency(code: ledger.currency)
        let you = ledger.members.first(where: \.isYou) ?? ledger.members.first(where: { $0.id == ledger.owner })
        let names = (you.map { [$0.name] } ?? []) + ledger.members.filter { $0.id != you?.id }.map(\.name)
        let existing = merge ? try await spending.ledgers().first {
            $0.owner?.userID == spending.user && UserText.sameName($0.ledger.name, ledger.name)
        } : nil
        let backupNames = Dictionary(ledger.members.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        // Merged into the very ledger the backup was made of, its entries are there under their own ids.
        let there = try await existing.asyncMap { Set(try await spending.entries(in: $0.ledger.id, .all).map(\.id)) } ?? []
        let entries = document.entries.filter { !there.contains($0.id) }
        var target = existing?.ledger.id
        var details = existing
        var added = 0
        // The first run makes the ledger and its members (even with no entries); the rest add to it.
        for run in entries.isEmpty ? [[]] : DayBatches.runs(entries, size: batchSize) {
            let result = try await spending.importEntries(
                into: target, name: ledger.name, currency: currency, memberNames: names,
                note: Phrase(one: "Restored \(run.count) entry from a backup.", other: "Restored \(run.count) entries from a backup.")
            ) { details in
                let members = RestoredMembers(names: backupNames, details: details)
                return try run.map { entry in
                    do {
                        return ImportedEntry(entry: try entry.entry.spendingEntry(id: restoredID(of: entry.id, in: details.ledger.id), members: members,
                                                                                  currency: currency),
                                             importKey: "backup:\(entry.id.uuidString.lowercased())")
                    } catch let error as TallyError {
                        throw TallyError.invalid("The backup's ledger \(UserText.quoted(ledger.name)), entry \(entry.id): \(error.phrase)")
                    }
                }
            }
            (target, details, added) = (result.details.ledger.id, result.details, added + result.added)
        }
        try await restoreReceipts(of: entries, into: target!, spending: spending)
        return (added, try await restoreRecurring(document, into: details!, spending: spending))
    }

    /// The id a backup's entry gets in the ledger it is restored into, made from its id in the
    /// backup and the ledger's: restoring again finds the entries the restore before made.
    static func restoredID(of entry: UUID, in ledger: UUID) -> UUID {
        UUID.nameBased(namespace: entry, name: "restored into \(ledger)")
    }

    /// Gives the restored `entries` the receipts the backup carries (each in a transaction of its
    /// own, after the entries are in), but only those that have none yet: restoring again with
    /// `merge` finishes a restore that stopped in between, and replaces no receipt. A photo is
    /// cleaned as an upload is (its metadata gone, its size and decoding bounded) and its small
    /// copy made afresh: a backup is a file anyone could have written.
    static func restoreReceipts(of entries: [LedgerExport.Entry], into ledger: UUID, spending: SpendingService) async throws {
        let carried = entries.filter { $0.receiptFile != nil }
        guard !carried.isEmpty else { return }
        var restored = Dictionary(try await spending.entries(in: ledger, .all).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for entry in carried {
            let id = restoredID(of: entry.id, in: ledger)
            guard let file = entry.receiptFile, let target = restored[id], target.receipt == nil else { continue }
            let kept = try file.file()
            let cleaned: ReceiptFile
            do {
                cleaned = try await spending.cleanedReceipt(kept.bytes)
            } catch let error as TallyError {
                throw TallyError(error.kind, Phrase("The backup's entry \(entry.id) has a receipt Tally cannot keep: \(error.phrase)"))
            }
            restored[id] = try await spending.restoreReceipt(
                ReceiptFile(format: cleaned.format, bytes: cleaned.bytes, thumbnail: cleaned.thumbnail, attachedAt: kept.attachedAt), of: id, in: ledger)
        }
    }

    /// The backup's recurring expenses that `ledger` does not have yet, under ids made from
    /// theirs and the ledger's; what fell due since the backup is recorded.
    static func restoreRecurring(_ document: LedgerExport.Document, into details: LedgerDetails, spending: SpendingService) async throws -> Int {
        let ledger = details.ledger.id
        let there = Set(try await spending.recurringExpenses(in: ledger).map(\.id))
        let names = Dictionary(document.ledger.members.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let recorded = Set(document.entries.map(\.id))
        var added = 0
        for recurring in document.recurring {
            let id = UUID.nameBased(namespace: recurring.id, name: "restored into \(ledger)")
            guard !there.contains(recurring.id), !there.contains(id) else { continue }
            let (user, now) = (spending.user, spending.clock.now)
            try await spending.restoreRecurringExpense(into: ledger) { details in
                try recurring.recurringExpense(id: id, members: RestoredMembers(names: names, details: details), recorded: recorded, by: user, now: now)
            }
            added += 1
        }
        return added
    }

    /// A ledger of the backup, checked by the rules its entries were made by: its name, currency
    /// and members, each entry and recurring expense among those members, and each receipt's file.
    static func check(_ document: LedgerExport.Document) throws {
        let ledger = document.ledger
        func refuse(_ error: Error) -> TallyError {
            TallyError.invalid("The backup's ledger \(UserText.quoted(ledger.name)) cannot be restored: \(Self.reason(error))")
        }
        do {
            let currency = try Currency(code: ledger.currency)
            var members: [LedgerMember] = []
            for member in ledger.members {
                members.append(LedgerMember(id: member.id, name: try LedgerRules.validateMemberName(member.name, among: members), userID: nil))
            }
            let details = LedgerDetails(ledger: Ledger(id: ledger.id, name: try LedgerRules.validateLedgerName(ledger.name), currency: currency,
                                                       createdAt: ledger.createdAt),
                                        members: members, ownerID: nil, invite: nil, hasEntries: false)
            let names = Dictionary(members.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            let restored = RestoredMembers(names: names, details: details)
            for entry in document.entries {
                do {
                    _ = try entry.entry.spendingEntry(members: restored, currency: currency)
                    _ = try entry.receiptFile?.file()
                } catch let error as TallyError {
                    throw TallyError.invalid("entry \(entry.id): \(error.phrase)")
                }
            }
            guard document.recurring.count <= RecurringExpense.maximumPerLedger else {
                throw TallyError.invalid(Phrase(one: "it has \(document.recurring.count) recurring expense, more than the \(RecurringExpense.maximumPerLedger) a ledger may have",
                                                other: "it has \(document.recurring.count) recurring expenses, more than the \(RecurringExpense.maximumPerLedger) a ledger may have"))
            }
            for recurring in document.recurring {
                do {
                    _ = try recurring.recurringExpense(id: recurring.id, members: restored, recorded: [], by: UUID(), now: document.exportedAt)
                } catch let error as TallyError {
                    throw TallyError.invalid("recurring expense \(recurring.id): \(error.phrase)")
                }
            }
        } catch {
            throw refuse(error)
        }
    }
}

extension PersonBackup.Entry {
    /// The drink or removal, of the account's kind that stands for the backup's.
    func entry(id: UUID, kinds: [UUID: DrinkKind]) throws -> DayEntry {
        guard (try? EntryVolume.validate(volumeMl, unit: .ml)) != nil, at.timeIntervalSince1970.isFinite else {
            throw TallyError.invalid("The backup's entry \(self.id) has a volume out of range (more than 0, at most 5000 ml).")
        }
        switch type {
        case .removal:
            return .removal(Removal(id: id, at: at, day: day, volumeMl: volumeMl))
        case .drink:
            guard let kindID, let kind = kinds[kindID] else {
                throw TallyError.invalid("The backup's drink \(self.id) has no kind.")
            }
            var intake = Intake(id: id, at: at, day: day, volumeMl: volumeMl, kind: kind, note: try Intake.validate(note: note),
                                source: source ?? .import)
            if let factor {
                guard DrinkKind.factorRange.contains(factor) else {
                    throw TallyError.invalid("The backup's drink \(self.id) has a factor out of range (0 to 1.5).")
                }
                (intake.factor, intake.effectiveMl) = (factor, volumeMl * factor)
            }
            return .intake(intake)
        }
    }
}

extension EntryJSON {
    /// The ledger entry this export line describes, among the restored ledger's `members`
    /// (found by the names the backup gives its members' ids), under the id `id`.
    func spendingEntry(id: UUID = UUID(), members: RestoredMembers, currency: Currency) throws -> SpendingEntry {
        let details = members.details
        // An entry typed in another currency comes back as typed, at its rate.
        let converted = try original.map { LedgerCurrency(currency, rate: try ExchangeRate(parsing: $0.rate)) }
        let amount = try original.map { try TransactionAmount.parse($0.amount, currency: try Currency(code: $0.currency)) }
            ?? TransactionAmount.parse(self.amount, currency: currency)
        var entry: SpendingEntry
        switch kind {
        case .payment:
            guard let recipient else { throw TallyError.invalid("a payment without a recipient") }
            entry = try .payment(id: id, from: try members.member(payer), to: try members.member(recipient), amount: amount, date: date,
                                 note: description, createdAt: createdAt, convertedTo: converted, members: details.members)
        case .expense:
            let payers = original.map(\.payers) ?? self.payers
            entry = try SpendingEntry(id: id, kind: .expense, amount: amount, payers: try members.payers(payers, payer: payer, amount: amount),
                                      date: date, description: description, category: category, split: try members.split(split, parts),
                                      createdAt: createdAt, convertedTo: converted, members: details.members)
        }
        entry.deletedAt = deletedAt
        return entry
    }
}

extension BackupRestoreReport {
    /// What the restore did, in phrases for a person.
    public var phrases: [Phrase] {
        var phrases = EntryCountSentences.phrases(.restored, drinks: drinksAdded, removals: removalsAdded,
                                                  alreadyThere: alreadyThere, newKinds: newKinds)
        if sleepRecordsAdded > 0 {
            phrases.append(Phrase(one: "\(sleepRecordsAdded) sleep record added.", other: "\(sleepRecordsAdded) sleep records added."))
        }
        if !ledgers.isEmpty {
            let names = ledgers.joined(separator: ", ")
            if recurringExpensesAdded > 0 {
                let entries = Phrase(one: "\(ledgerEntriesAdded) entry", other: "\(ledgerEntriesAdded) entries")
                let recurring = Phrase(one: "\(recurringExpensesAdded) recurring expense", other: "\(recurringExpensesAdded) recurring expenses")
                phrases.append(Phrase("Ledgers: \(names), with \(entries) and \(recurring) added."))
            } else {
                phrases.append(Phrase(one: "Ledgers: \(names), with \(ledgerEntriesAdded) entry added.",
                                      other: "Ledgers: \(names), with \(ledgerEntriesAdded) entries added."))
            }
        }
        phrases.append(settingsRestored ? Phrase("Settings, profile, goals, bottle and reminders are the backup's.")
                                        : Phrase("Your settings, profile, goals, bottle and reminders stay as they were."))
        return phrases
    }

    /// The phrases in English (the command line, the API).
    public var sentences: [String] { phrases.map(\.description) }
}
