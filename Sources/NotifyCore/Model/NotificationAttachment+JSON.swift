extension NotificationAttachment {
  /// `{"identifier": ..., "type": "image/png", "file": ..., "size": ...}`.
  public var jsonValue: JSONValue {
    .object([
      "identifier": .string(identifier), "type": .string(kind.mediaType), "file": .string(file),
      "size": .int(size),
    ])
  }

  /// Reads `jsonValue` back; nil when it is not one.
  public init?(json: JSONValue) {
    guard case .object(let members) = json, case .string(let identifier)? = members["identifier"],
      case .string(let type)? = members["type"],
      let kind = AttachmentKind.allCases.first(where: { $0.mediaType == type }),
      case .string(let file)? = members["file"], case .int(let size)? = members["size"]
    else { return nil }
    self.init(identifier: identifier, kind: kind, file: file, size: size)
  }

  /// A JSON array of attachments.
  public static func jsonArray(_ attachments: [NotificationAttachment]) -> JSONValue {
    .array(attachments.map(\.jsonValue))
  }

  /// The store's text for a list of attachments: a compact JSON array, nil for none.
  public static func storeText(_ attachments: [NotificationAttachment]) -> String? {
    attachments.isEmpty ? nil : jsonArray(attachments).compactText
  }

  /// Reads the store's text back; entries that do not parse are left out.
  public static func fromStoreText(_ text: String?) -> [NotificationAttachment] {
    guard case .array(let values)? = text.flatMap({ try? JSONValue.parse($0) }) else { return [] }
    return values.compactMap(NotificationAttachment.init(json:))
  }
}
