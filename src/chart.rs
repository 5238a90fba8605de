//! Charts as pure functions of data, generic over the plotters backend: they
//! render to SVG in native tests and onto a canvas in the page.
