import Foundation
import TestSupport
import XCTest

@testable import GlimtCore

/// Hand-editable JSON: a key given twice is found wherever it is, keys compared as the decoder
/// compares them, and text in any of JSON's encodings reads as the same text (mutants of a
/// choices file and of the settings: `MutationFuzzTests`).
final class JSONTextTests: XCTestCase {
    func testAKeyGivenTwiceIsFoundWithItsPlace() {
        let cases: [(String, String?)] = [
            (#"{"a": 1, "a": 2}"#, #"the top level: the key "a" is given twice"#),
            (#"{"a": {"b": [1, {"c": 1, "d": [], "c": 2}]}}"#, #"a.b[1]: the key "c" is given twice"#),
            (#"{"list": [{"x": 1}, {"x": 1}, {"x": 1, "y": {}, "x": 3}]}"#, #"list[2]: the key "x" is given twice"#),
            (#"{"at": 1, "\u0061t": 2}"#, #"the top level: the key "at" is given twice"#),
            (#"{"\ud83d\ude00": 1, "😀": 2}"#, #"the top level: the key "😀" is given twice"#),
            (#"{"a\"b": 1, "a\u0022b": 2}"#, #"the top level: the key "a"b" is given twice"#),
            (#"[{"a": 1}, {"a": 2}, {"b": "a", "a": "b"}]"#, nil),
            (#"{"a": "\"a\": 1", "b": {"a": 1}}"#, nil),
            (#"{"A": 1, "a": 2}"#, nil),
            ("{ \"a\" :\r\n 1 ,\r\n \"b\" : [ ] , \"c\" : { } }", nil),
            (#"{"a": 1 "a": 2}"#, nil),  // not JSON before the second key: the decoder says so
            (#"{"a": 1, "a""#, #"the top level: the key "a" is given twice"#),  // and after it
            (#"{"a" 1, "a": 2}"#, nil),
            ("", nil), ("\"", nil), ("[", nil), ("]", nil), ("{", nil), ("}", nil), (",,,", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(JSONText.duplicateKey(in: Array(text.utf8)), expected, text)
        }
    }

    func testTextInEachOfJSONsEncodingsReadsAsTheSameText() throws {
        let text = "{\"día\": \"😀\", \"b\": [1, 2]}\r\n"
        let utf8 = Array(text.utf8)
        let encodings: [(String, [UInt8])] = [
            ("UTF-8", utf8), ("UTF-8 with BOM", [0xEF, 0xBB, 0xBF] + utf8),
            ("UTF-16", Array(text.data(using: .utf16)!)), ("UTF-16LE", Array(text.data(using: .utf16LittleEndian)!)),
            ("UTF-16BE", Array(text.data(using: .utf16BigEndian)!)), ("UTF-32LE", Array(text.data(using: .utf32LittleEndian)!)),
            ("UTF-32BE", Array(text.data(using: .utf32BigEndian)!)),
            ("UTF-32 with BOM", [0xFF, 0xFE, 0x00, 0x00] + Array(text.data(using: .utf32LittleEndian)!)),
        ]
        for (name, bytes) in encodings { XCTAssertEqual(try JSONText.utf8(bytes), utf8, name) }
        let refused: [([UInt8], String)] = [
            ([0x7B, 0xC3], "not UTF-8 text (byte 2 is 0xc3)"), ([0x7B, 0xED, 0xA0, 0x80, 0x7D], "not UTF-8 text (byte 3 is 0xa0)"),
            ([0x7B, 0xC0, 0x80], "not UTF-8 text (byte 2 is 0xc0)"), ([0xFF, 0xFE, 0x7B], "broken UTF-16 text (an odd number of bytes)"),
            ([0xFF, 0xFE, 0x00, 0xDC, 0x7B, 0x00], "broken UTF-16 text (a character cut in half)"),
        ]
        for (bytes, reason) in refused {
            XCTAssertThrowsError(try JSONText.utf8(bytes), "\(bytes)") { XCTAssertTrue("\($0)".hasPrefix(reason), "\($0)") }
        }
    }
}
