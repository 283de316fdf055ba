import TensorLite
import XCTest

/// `ResidualAdd` against its reference: equal widths, a narrower shortcut (zero channels added),
/// every activation, and in place (the output is the residual branch's map).
final class ResidualAddTests: XCTestCase {
    func testResidualAddMatchesReference() {
        var rng = SplitMix64(seed: 13)
        for (h, w, skipChannels, channels) in [(3, 5, 64, 64), (4, 4, 64, 128), (1, 1, 20, 40), (2, 3, 7, 7), (16, 16, 128, 128)] {
            let skip = rng.floats(h * w * skipChannels), x = rng.floats(h * w * channels)
            for activation in [Activation.none, .relu, .prelu(rng.floats(channels, scale: 0.5))] {
                let add = ResidualAdd(channels: channels, activation: activation)
                let want = ResidualAdd.reference(skip: skip, skipChannels: skipChannels, x: x, channels: channels, activation: activation)
                let out = Tensor(height: h, width: w, channels: channels)
                let shortcut = Tensor(height: h, width: w, channels: skipChannels, values: skip)
                add.run(skip: shortcut, Tensor(height: h, width: w, channels: channels, values: x), into: out)
                XCTAssertEqual(out.values(), want, "\(h)x\(w) \(skipChannels)+\(channels) \(activation)")
                assertPaddingZero(out)
                let inPlace = Tensor(height: h, width: w, channels: channels, values: x)
                add.run(skip: Tensor(height: h, width: w, channels: skipChannels, values: skip), inPlace, into: inPlace)
                XCTAssertEqual(inPlace.values(), want, "in place \(h)x\(w) \(skipChannels)+\(channels)")
            }
        }
    }
}
