import Foundation
import TallyCore

extension SplitwiseExport {
    /// One line of the file (or several, when a quoted cell holds line breaks): its cells,
    /// trimmed, and the line it starts on.
    struct Record: Equatable {
        var line: Int
        var fields: [String]
    }

    /// The records of a CSV text (RFC 4180), without the blank ones: fields are split at commas
    /// and records at CRLF, LF or CR; a quoted field may hold commas, line breaks and doubled
    /// quotes. Spaces around a field, quoted or not, are not part of it. The CSV library the
    /// other readers use takes a stray quote as text and an unclosed one as the rest of the
    /// file; an export is refused for either here, at its line.
    static func records(_ text: String) throws -> [Record] {
        let scalars = Array(text.unicodeScalars)
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1
        var recordLine = 1
        var quoteLine = 1
        var state = State.fieldStart
        var atRecordStart = true

        func endField() {
            fields.append(String(field).trimmingCharacters(in: .whitespacesAndNewlines))
            field = String.UnicodeScalarView()
        }
        func endRecord() {
            endField()
            if fields.contains(where: { !$0.isEmpty }) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
            atRecordStart = true
        }
        /// Ends the field at a comma, and the record at a line break; false for anything else.
        func endsField(_ scalar: Unicode.Scalar, isBreak: Bool) -> Bool {
            if scalar == "," {
                endField()
            } else if isBreak {
                endRecord()
            } else {
                return false
            }
            state = .fieldStart
            return true
        }
        func misplacedQuote() -> TallyError {
            TallyError.invalid("Line \(line): a quote stands where CSV allows none; a field with quotes, commas or line breaks is put in quotes, and each quote inside it is written twice.")
        }

        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            // A line break: CRLF is one, as are a lone LF and a lone CR.
            let crlf = scalar == "\r" && index < scalars.count && scalars[index] == "\n"
            if crlf { index += 1 }
            let isBreak = crlf || scalar == "\n" || scalar == "\r"
            if atRecordStart {
                recordLine = line
                atRecordStart = false
            }
            switch state {
            case .fieldStart where scalar == " " || scalar == "\t":
                continue
            case .fieldStart where scalar == "\"":
                state = .quoted
                quoteLine = line
            case .fieldStart, .unquoted:
                if endsField(scalar, isBreak: isBreak) { break }
                guard scalar != "\"" else { throw misplacedQuote() }
                field.append(scalar)
                state = .unquoted
            case .quoted:
                if scalar == "\"" {
                    if index < scalars.count, scalars[index] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        state = .closed
                    }
                } else {
                    // A line break inside the quotes is part of the field, as it was written.
                    field.append(scalar)
                    if crlf { field.append("\n") }
                }
            case .closed:
                guard endsField(scalar, isBreak: isBreak) || scalar == " " || scalar == "\t" else { throw misplacedQuote() }
            }
            if isBreak { line += 1 }
        }
        if state == .quoted {
            throw TallyError.invalid("Line \(quoteLine): a quote opens a field that is never closed, so the rest of the file would be inside it.")
        }
        if !atRecordStart { endRecord() }
        return records
    }

    /// Where the splitter is within a field.
    private enum State {
        /// Before a field's first character (spaces skipped).
        case fieldStart
        /// In a field that does not start with a quote.
        case unquoted
        /// Inside a quoted field.
        case quoted
        /// After a quoted field's closing quote, before the comma or line break that ends it.
        case closed
    }
}
