import MediaIO

/// How many pictures this process has decoded from videos: what shows that re-judging the
/// library, adding a person or moving a file decodes nothing.
public enum DecodedPictures {
    public static var total: Int { DecodeCounter.total }
}
