import Foundation
import TallyCore

// Values from the columns both stores keep them in (NULLs where a row is absent), and back:
// one conversion for SQLite and PostgreSQL.

extension Intake {
    /// From the stored columns, in either store, with its kind's current name.
    package static func stored(id: UUID, at: Date, day: LocalDate, volumeMl: Double, kindID: UUID, kindName: String,
                               factor: Double, effectiveMl: Double, note: String?, source: String) -> Intake {
        var intake = Intake(id: id, at: at, day: day, volumeMl: volumeMl, kind: DrinkKind(id: kindID, name: kindName, factor: factor),
                            note: note, source: IntakeSource(rawValue: source) ?? .manual)
        // The stored effective amount is the record: never recompute it.
        intake.effectiveMl = effectiveMl
        return intake
    }
}

extension Goal {
    /// From the stored columns, in either store.
    package static func stored(mode: String, targetMl: Double?) -> Goal {
        Goal(mode: Mode(rawValue: mode) ?? .automatic, targetMl: targetMl)
    }
}

extension HydrationSettings {
    /// From the stored columns, in either store.
    package init(unitColumn: String, timeZone: String, presetsColumn: String?) {
        let amounts = presetsColumn.flatMap { try? JSONDecoder().decode([Double].self, from: Data($0.utf8)) }
        self.init(unit: VolumeUnit(rawValue: unitColumn) ?? .ml, timeZone: timeZone,
                  customPresets: amounts.flatMap { try? Presets(amountsMl: $0, unit: .ml) })
    }

    /// The `presets` column: the amounts in millilitres as a JSON array, NULL for the unit's defaults.
    package var presetsColumn: String? {
        customPresets.map { String(decoding: try! JSONEncoder().encode($0.amountsMl), as: UTF8.self) }
    }
}

extension Profile {
    /// From the stored columns, in either store (NULLs without a row).
    package static func stored(age: Int?, weightKg: Double?, activity: String?) -> Profile? {
        guard let age, let weightKg, let activity = activity.flatMap(ActivityLevel.init(rawValue:)) else { return nil }
        return try? Profile(age: age, weightKg: weightKg, activity: activity)
    }
}

extension Bottle {
    /// From the stored columns, in either store (NULLs without a row).
    package static func stored(capacityMl: Double?, levelMl: Double?, sipMl: Double?) -> Bottle {
        guard let capacityMl, let levelMl, let sipMl else { return .standard }
        return Bottle(capacityMl: capacityMl, levelMl: levelMl, sipMl: sipMl)
    }
}

extension ReminderSettings {
    /// From the stored columns, in either store (NULLs without a row).
    package static func stored(enabled: Bool?, wakeMinutes: Int?, sleepMinutes: Int?, frequency: Int?,
                               smartThresholdHours: Int?, useSleepRecords: Bool?) -> ReminderSettings {
        guard let enabled, let wakeMinutes, let sleepMinutes, let frequency else { return .standard }
        return ReminderSettings(
            enabled: enabled,
            window: WakeWindow(wake: TimeOfDay(minutesAfterMidnight: wakeMinutes), sleep: TimeOfDay(minutesAfterMidnight: sleepMinutes)),
            frequency: frequency, smartThresholdHours: smartThresholdHours, useSleepRecords: useSleepRecords ?? false)
    }
}

extension SpendingEntry {
    /// From the stored columns, in either store, rebuilt through the same checks it passed when
    /// written; `shares` are each member's value as exact decimal text (`SplitPart.storedValue`),
    /// `payers` what each of several payers paid (none when `payer` paid it all), in the entry's
    /// own currency. `amount` is in the ledger's `currency`; `original` is the amount as typed in
    /// another currency, with its rate.
    package static func stored(id: UUID, kind: String, amount: Int64, currency: Currency, payer: MemberID,
                               payers: [(member: MemberID, paid: Int64)], date: LocalDate,
                               description: String?, category: String?, splitMethod: String, createdAt: Date, deletedAt: Date?,
                               shares: [(member: MemberID, value: String)], original: StoredOriginal? = nil,
                               members: [LedgerMember]) throws -> SpendingEntry {
        let parts = shares.map { SplitPart(member: $0.member, value: Decimal(string: $0.value) ?? 0) }
        let converted = try original?.ledgerCurrency(currency)
        let typed = try original?.money() ?? Money(minorUnits: amount, currency: currency)
        return try SpendingEntry(
            id: id, kind: SpendingKind(rawValue: kind) ?? .expense, amount: typed,
            payers: payers.isEmpty ? [PayerPart(member: payer, amount: typed)]
                : payers.map { PayerPart(member: $0.member, amount: Money(minorUnits: $0.paid, currency: typed.currency)) },
            date: date,
            description: description, category: category,
            split: Split(method: SplitMethod(rawValue: splitMethod) ?? .equal, parts: parts),
            createdAt: createdAt, deletedAt: deletedAt, convertedTo: converted, members: members)
    }

    /// What of this entry the stores keep beside its ledger amount, when it was typed in another currency.
    package var storedOriginal: StoredOriginal? {
        original.map { StoredOriginal(amount: $0.amount.minorUnits, currency: $0.amount.currency.code, rate: $0.rate.plain) }
    }
}

/// The columns of an entry typed in another currency: its amount in that currency's minor units,
/// the currency's code and the rate as exact text.
package struct StoredOriginal: Hashable, Sendable {
    package var amount: Int64
    package var currency: String
    package var rate: String

    package init(amount: Int64, currency: String, rate: String) {
        self.amount = amount
        self.currency = currency
        self.rate = rate
    }

    /// All three columns, or none of them.
    package init?(amount: Int64?, currency: String?, rate: String?) {
        guard let amount, let currency, let rate else { return nil }
        self.init(amount: amount, currency: currency, rate: rate)
    }

    func money() throws -> Money { Money(minorUnits: amount, currency: try Currency(code: currency)) }

    func ledgerCurrency(_ currency: Currency) throws -> LedgerCurrency {
        LedgerCurrency(currency, rate: try ExchangeRate(parsing: rate))
    }
}
