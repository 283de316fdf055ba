/// A value of any Encodable type, for JSON whose shape depends on the run (one photo's faces,
/// or a list of photos').
struct AnyEncodable: Encodable {
    let value: Encodable
    init(_ v: Encodable) { value = v }
    func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
}
