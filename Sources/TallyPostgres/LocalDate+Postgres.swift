import NIOCore
import PostgresNIO
import TallyCore

/// A local day as PostgreSQL's `date`: in binary, the days since 2000-01-01.
extension LocalDate: PostgresEncodable, PostgresNonThrowingEncodable, PostgresDecodable, PostgresArrayEncodable {
    private static let epoch = LocalDate(year: 2000, month: 1, day: 1)!

    public static var psqlType: PostgresDataType { .date }
    public static var psqlArrayType: PostgresDataType { .dateArray }
    public static var psqlFormat: PostgresFormat { .binary }

    public func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(Int32(Self.epoch.days(to: self)))
    }

    public init<JSONDecoder: PostgresJSONDecoder>(from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
                                                  context: PostgresDecodingContext<JSONDecoder>) throws {
        guard type == .date, format == .binary, buffer.readableBytes == 4, let days = buffer.readInteger(as: Int32.self) else {
            throw PostgresDecodingError.Code.typeMismatch
        }
        self = Self.epoch.adding(days: Int(days))
    }
}
