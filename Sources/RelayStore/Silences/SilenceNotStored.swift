/// An insert that returned no row (it cannot, short of a broken connection).
public struct SilenceNotStored: Error {}
