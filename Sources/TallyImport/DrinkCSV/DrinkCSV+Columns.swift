import Foundation
import TallyCore

extension DrinkCSV {
    /// Which column holds what, from the header: Tally's own names, and the plain ones of other
    /// apps ("date,time,amount,unit", "Date,Amount (oz)").
    struct Columns {
        /// How an amount's unit is known: the header says it, each row says it, or it was chosen.
        enum AmountUnit {
            case fixed(VolumeUnit)
            case perRow(column: Int)
        }

        let count: Int
        let names: [String]
        /// Tally's own export (it names `volume_ml` and `id`): its text cells are spreadsheet-safe,
        /// and their leading `'` is Tally's, not the person's.
        var isTallyExport = false
        var time: Int?
        var date: Int?
        var day: Int?
        var type: Int?
        var amount = 0
        var amountUnit = AmountUnit.fixed(.ml)
        var kind: Int?
        var factor: Int?
        var effective: Int?
        var note: Int?
        var source: Int?
        var id: Int?

        init(header: [String], unit: VolumeUnit?) throws {
            count = header.count
            names = header.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            var amount: (index: Int, unit: VolumeUnit?)?
            var unitColumn: Int?
            for (index, name) in names.enumerated() {
                // A byte order mark a spreadsheet wrote before the first name is not part of it.
                let key = name.lowercased().replacingOccurrences(of: "\u{FEFF}", with: "").replacingOccurrences(of: "_", with: " ")
                switch key {
                case "time", "date/time", "datetime", "timestamp": time = time ?? index
                case "date": date = date ?? index
                case "day": day = day ?? index
                case "type": type = type ?? index
                case "volume ml", "amount ml", "amount (ml)", "volume (ml)", "ml", "water (ml)", "dietary water (ml)":
                    amount = amount ?? (index, .ml)
                case "amount oz", "amount (oz)", "amount (fl oz)", "volume (oz)", "oz", "fl oz", "water (fl oz)", "dietary water (fl oz)":
                    amount = amount ?? (index, .oz)
                case "amount", "volume", "quantity", "water": amount = amount ?? (index, nil)
                case "unit", "units": unitColumn = unitColumn ?? index
                case "kind", "drink", "beverage": kind = kind ?? index
                case "factor": factor = factor ?? index
                case "effective ml": effective = effective ?? index
                case "note", "notes", "comment": note = note ?? index
                case "source": source = source ?? index
                case "id": id = id ?? index
                default: continue
                }
            }
            isTallyExport = id != nil && names.contains { $0.lowercased() == "volume_ml" }
            guard let amount, time != nil || date != nil else {
                throw TallyError.invalid("Line 1 must name the columns: at least a time (or a date and a time) and an amount. Tally's own export has \(DrinkCSV.columns.joined(separator: ",")); a plain file can have date,time,amount,unit.")
            }
            self.amount = amount.index
            if let known = amount.unit {
                amountUnit = .fixed(known)
            } else if let unitColumn {
                amountUnit = .perRow(column: unitColumn)
            } else if let unit {
                amountUnit = .fixed(unit)
            } else {
                throw TallyError.invalid("Line 1 does not say the unit of \(UserText.quoted(names[amount.index])): name the column amount_ml or amount_oz, add a unit column, or choose the unit (ml or oz).")
            }
        }

        func row(_ fields: [String], line: Int, zone: TimeZone, now: Date) throws -> Row {
            func cell(_ index: Int?) -> String? {
                guard let index else { return nil }
                let text = fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : text
            }
            func wrong(_ index: Int?, _ problem: Phrase) -> LineError { LineError(column: index.map { UserText.shown(names[$0]) }, problem) }

            let at = try instant(time: cell(time), date: cell(date), zone: zone, wrong: { wrong(time ?? date, $0) })
            guard at <= now.addingTimeInterval(60) else { throw wrong(time ?? date, Phrase("that time is in the future")) }
            guard at >= DrinkCSV.earliest else { throw wrong(time ?? date, Phrase("that time is before 1900")) }
            var day: LocalDate?
            if let text = cell(self.day) {
                guard let given = LocalDate(text) else { throw wrong(self.day, Phrase("\(UserText.quoted(text)) is not a day: write it as 2025-03-30")) }
                // The day a time falls on somewhere (UTC−12 to UTC+14): never another.
                let utc = TimeZone(identifier: "UTC")!
                let earliest = LocalDate(containing: at.addingTimeInterval(-12 * 3600), in: utc)
                let latest = LocalDate(containing: at.addingTimeInterval(14 * 3600), in: utc)
                guard earliest <= given, given <= latest else {
                    throw wrong(self.day, Phrase("\(given) is not the day of that time in any time zone"))
                }
                day = given
            }
            let type: EntryType
            switch cell(self.type)?.lowercased() {
            case nil, "drink", "intake": type = .drink
            case "removal", "remove": type = .removal
            case let other?: throw wrong(self.type, Phrase("\(UserText.quoted(other)) is not a type: write drink or removal"))
            }
            let unit: VolumeUnit
            switch amountUnit {
            case .fixed(let fixed): unit = fixed
            case .perRow(let column):
                guard let text = cell(column), let typed = VolumeUnit(typed: text) else {
                    throw wrong(column, Phrase("\(UserText.quoted(cell(column) ?? "")) is not a unit: write ml or oz"))
                }
                unit = typed
            }
            guard let amountText = cell(amount), let value = Double(amountText.replacingOccurrences(of: ",", with: ".")), value.isFinite else {
                throw wrong(amount, Phrase("\(UserText.quoted(cell(amount) ?? "")) is not an amount: write a number such as 250 or 212.5"))
            }
            let volumeMl = unit.toMilliliters(value)
            do {
                try EntryVolume.validate(volumeMl, unit: unit, what: type == .drink ? Phrase("A drink") : Phrase("A removal"))
            } catch let error as TallyError {
                throw wrong(amount, error.phrase)
            }
            var kindName: String?
            var factor: Double?
            var note: String?
            var source = IntakeSource.import
            if type == .drink {
                let text = { (cell: String) in isTallyExport ? SpreadsheetCell.typed(cell) : cell }
                kindName = cell(kind).map(text)
                if let text = cell(self.factor) {
                    guard let value = Double(text), value.isFinite, DrinkKind.factorRange.contains(value) else {
                        throw wrong(self.factor, Phrase("\(UserText.quoted(text)) is not a hydration factor: write a number from 0 to 1.5"))
                    }
                    factor = value
                }
                if let text = cell(effective), let factor {
                    guard let value = Double(text), abs(value - volumeMl * factor) <= 0.01 else {
                        throw wrong(effective, Phrase("\(UserText.quoted(text)) is not the volume times the factor (\(DrinkCSV.number(volumeMl * factor)))"))
                    }
                }
                do {
                    note = try Intake.validate(note: cell(self.note).map(text))
                } catch let error as TallyError {
                    throw wrong(self.note, error.phrase)
                }
                if let text = cell(self.source) {
                    guard let given = IntakeSource(rawValue: text.lowercased()) else {
                        throw wrong(self.source, Phrase("\(UserText.quoted(text)) is not a source: write manual, bottle or import"))
                    }
                    source = given
                }
            }
            var id = DrinkCSV.unnamed
            if let text = cell(self.id) {
                guard let given = UUID(uuidString: text), given != DrinkCSV.unnamed else {
                    throw wrong(self.id, Phrase("\(UserText.quoted(text)) is not an id: leave it empty, or write a UUID"))
                }
                id = given
            }
            return Row(line: line, at: at, day: day, type: type, volumeMl: volumeMl, kindName: kindName, factor: factor,
                       note: note, source: source, id: id)
        }

        /// An ISO 8601 time with its offset, or a local date and time ("2025-03-30" and "08:15",
        /// "8:15 pm", "08:15:30", or both in one cell) in `zone`.
        private func instant(time: String?, date: String?, zone: TimeZone, wrong: (Phrase) -> LineError) throws -> Date {
            if let time, let instant = InternetTime.instant(time) { return instant }
            if let date, time == nil, let instant = InternetTime.instant(date) { return instant }
            let written = [date, time].compactMap { $0 }.joined(separator: " ")
            let parts = written.replacingOccurrences(of: "T", with: " ").split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let day = LocalDate(parts[0]), let clock = Self.clock(parts[1]),
                  let instant = Calendar.gregorian(zone).date(from: DateComponents(
                      year: day.year, month: day.month, day: day.day, hour: clock.hour, minute: clock.minute, second: clock.second))
            else {
                throw wrong(Phrase("\(UserText.quoted(written)) is not a time: write 2025-03-30T08:15:00+02:00, or a date (2025-03-30) and a time (08:15)"))
            }
            return instant
        }

        /// "08:15", "8:15", "08:15:30", "8:15 pm".
        private static func clock(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
            var text = text.lowercased().trimmingCharacters(in: .whitespaces)
            var shift: Int?
            for (suffix, hours) in [("am", 0), ("pm", 12)] where text.hasSuffix(suffix) {
                text = String(text.dropLast(2)).trimmingCharacters(in: .whitespaces)
                shift = hours
            }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts[0].count <= 2, parts.dropFirst().allSatisfy({ $0.count == 2 }),
                  let hour = Int(parts[0]), let minute = Int(parts[1]), let second = parts.count == 3 ? Int(parts[2]) : 0,
                  (0...59).contains(minute), (0...59).contains(second)
            else { return nil }
            if let shift {
                guard (1...12).contains(hour) else { return nil }
                return (hour % 12 + shift, minute, second)
            }
            guard (0...23).contains(hour) else { return nil }
            return (hour, minute, second)
        }
    }
}
