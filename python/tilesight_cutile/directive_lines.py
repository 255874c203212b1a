"""The comment lines one directive spans: a line ending with `\\` continues on the next line when
that is a comment of its own (`#   more=items`). The directive is parsed as one text, the lines
joined; a Layout turns that text's columns back into lines and columns of the file."""


class Layout:
    """Where the joined text's characters are. Its columns start at the first line's column (so
    a one-line directive's columns are the line's); each later line starts at a column of the
    joined text, right after the previous line's characters."""
    def __init__(self, line, column):
        self.segments = [(column, line, column)]  # (joined column, line, column on that line)

    def add(self, joined_column, line, column):
        self.segments.append((joined_column, line, column))

    def place(self, column, end=False):
        """(line, column) of joined `column`; `end`: an exclusive end, which stays on the line
        whose last character precedes it."""
        start, line, real = self.segments[0]
        for seg in self.segments[1:]:
            if seg[0] < column or (seg[0] == column and not end):
                start, line, real = seg
        return line, real + column - start

    def lines(self):
        return [line for _, line, _ in self.segments]


def join(text, line, column, own_line_comments):
    """(joined text, Layout) of the directive whose first comment is `text` at `line`, `column`;
    `own_line_comments`: {line: (text, column)} of the comments alone on their lines. Each
    continuing line's `\\` becomes a space; the next line's text after its `#` follows. A `\\`
    with no comment line after it stays, for the parser to report."""
    layout = Layout(line, column)
    joined = text
    while joined.rstrip().endswith('\\') and line + 1 in own_line_comments:
        line += 1
        next_text, next_column = own_line_comments[line]
        joined = joined.rstrip()[:-1] + ' '
        layout.add(column + len(joined), line, next_column + 1)
        joined += next_text[1:]
    return joined, layout
