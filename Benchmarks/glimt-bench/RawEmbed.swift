import Foundation
import GlimtPure

enum RawEmbed {
    static func run(_ path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let img = RGBImage(width: 112, height: 112, pixels: [UInt8](data))
        let out = try SFace.shared().forward(img)
        print(out.map { String($0) }.joined(separator: " "))
    }
}
