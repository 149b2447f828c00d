extension Validator {
  /// Checks a category identifier, as a notification names it or an app registers it:
  /// `[A-Za-z0-9._:-]{1,64}`, the characters of action keys.
  public static func categoryIdentifier(_ identifier: String) throws(NotifyError) {
    guard (1...NotificationCategory.maximumIdentifier).contains(identifier.utf8.count),
      identifier.utf8.allSatisfy(isKeyByte)
    else {
      throw NotifyError(
        .invalid(
          .category,
          .characters(identifier, allowed: keyCharacters, lengths: 1...NotificationCategory.maximumIdentifier)
        ))
    }
  }

  /// Checks one category: its identifier, and its actions by the rules of a notification's.
  public static func category(_ category: NotificationCategory) throws(NotifyError) {
    try categoryIdentifier(category.identifier)
    do {
      try actions(category.actions)
    } catch {
      // The identifier is checked: it may be shown as it is.
      var problem: ErrorText = "category '\(category.identifier)': "
      problem.segments += error.problemText.segments
      var named = error
      named.problemText = problem
      throw named
    }
  }

  /// Checks the whole set an app registers: each category, each identifier once, at most
  /// `NotificationCategory.maximumCount`.
  public static func categories(_ categories: [NotificationCategory]) throws(NotifyError) {
    guard categories.count <= NotificationCategory.maximumCount else {
      throw NotifyError(
        .invalid(.categories, .tooMany(categories.count, limit: NotificationCategory.maximumCount)))
    }
    var seen: Set<String> = []
    for category in categories {
      try Validator.category(category)
      guard seen.insert(category.identifier).inserted else {
        throw NotifyError(.invalid(.categories, .givenTwice(category.identifier)))
      }
    }
  }
}
