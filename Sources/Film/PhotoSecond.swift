import Imaging

/// A photo held for a day's second: the pick's crop, pushed slowly toward the face so the
/// second does not sit still among moving ones. The zoom grows in a straight line over the
/// clip and is centred where the framing puts the face, so the face stays where it is while
/// the picture closes in around it.
public enum PhotoSecond {
    /// How much closer the last frame is than the first: 8 % a second is seen as a push, and
    /// gentle enough that the whole head stays in.
    public static let push: Float = 0.08
    /// Where in the crop the push is centred, as shares of its width and height: the face's
    /// place in a framed crop (the framing puts a face's centre a little above the middle).
    public static let focus = (x: Float(0.5), y: Float(0.42))

    /// The photo scaled so that its crop at the end of the push is about the film's size (a
    /// large photo is not resampled from its full size every frame), and the crop in it.
    public static func prepared(_ photo: RGBImage, crop: Box, filmHeight: Int) -> (picture: RGBImage, crop: Box) {
        let scale = min(1, Float(filmHeight) * (1 + push) / max(crop.height, 1))
        guard scale < 1 else { return (photo, crop) }
        let w = max(1, Int((Float(photo.width) * scale).rounded())), h = max(1, Int((Float(photo.height) * scale).rounded()))
        let sx = Float(w) / Float(photo.width), sy = Float(h) / Float(photo.height)
        let scaled = Box(x: crop.x * sx, y: crop.y * sy, width: crop.width * sx, height: crop.height * sy)
        return (Resize.resize(photo, width: w, height: h), scaled)
    }

    /// The part of the picture frame `k` of `n` shows.
    public static func region(_ crop: Box, frame k: Int, of n: Int) -> Box {
        let t = n > 1 ? Float(k) / Float(n - 1) : 0
        let z = 1 + push * t
        let px = crop.x + focus.x * crop.width, py = crop.y + focus.y * crop.height
        return Box(x: px - (px - crop.x) / z, y: py - (py - crop.y) / z, width: crop.width / z, height: crop.height / z)
    }
}
