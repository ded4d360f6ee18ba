"""What crosses the boundary of the kit: the bounded reading of JSON, the escaping of text from
outside, files written whole, the checks of the options that name an engine, and the files a
wheel carries. The bottom part of the kit: it imports no other part."""
