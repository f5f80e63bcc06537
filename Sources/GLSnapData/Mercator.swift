import GLSnapStyle

/// Web Mercator (defined in GLSnapStyle): visible to every module that imports GLSnapData.
public typealias Mercator = GLSnapStyle.Mercator
