"""One self-contained HTML page: headings, text, tables and matplotlib plots
embedded as PNG data URIs, so the file can be mailed or opened anywhere.

matplotlib is imported only here, and only when a report is asked for (the
`report` extra); its Figure is used without pyplot: no global state and no
display needed.
"""
import base64
import html
import io

from pipvm.core.errors import PipError

STYLE = ('body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}'
         'table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;'
         'text-align:left;vertical-align:top}img{max-width:100%}pre{overflow-x:auto}')


def figure_class():
    """matplotlib's Figure, or a one-line error if matplotlib is missing."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PipError(None, "--report needs matplotlib: pip install 'pipvm[report]'") from None
    return Figure


def figure(width=6.4, height=3.6, **kwargs):
    return figure_class()(figsize=(width, height), **kwargs)


def error_bars(values, intervals):
    """matplotlib's yerr of values with their [low, high] intervals: how far
    down and up each interval reaches.  A confidence sequence's interval can
    leave out its games' own share (metrics.ConfidenceSequence): that side
    then gets no bar, not a negative length matplotlib refuses."""
    pairs = list(zip(values, intervals))
    return [[max(0.0, v - lo) for v, (lo, _) in pairs], [max(0.0, hi - v) for v, (_, hi) in pairs]]


def png(fig):
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format='png', dpi=80, bbox_inches='tight')
    return buf.getvalue()


class Page:
    """An HTML page built a block at a time; str() is the whole document."""

    def __init__(self, title):
        self.title = title
        self.parts = ['<h1>%s</h1>' % html.escape(title)]

    def heading(self, text):
        self.parts.append('<h2>%s</h2>' % html.escape(text))

    def text(self, text):
        self.parts.append('<p>%s</p>' % html.escape(text))

    def pre(self, text):
        self.parts.append('<pre>%s</pre>' % html.escape(text))

    def table(self, header, rows):
        cells = lambda tag, row: ''.join('<%s>%s</%s>' % (tag, html.escape(str(c)), tag)
                                         for c in row)
        self.parts.append('<table><tr>%s</tr>%s</table>' % (
            cells('th', header), ''.join('<tr>%s</tr>' % cells('td', r) for r in rows)))

    def image(self, fig, alt):
        self.parts.append('<p><img alt="%s" src="data:image/png;base64,%s"></p>' % (
            html.escape(alt), base64.b64encode(png(fig)).decode('ascii')))

    def __str__(self):
        return '\n'.join(['<!DOCTYPE html>', '<html><head><meta charset="utf-8">',
                          '<title>%s</title>' % html.escape(self.title),
                          '<style>%s</style></head><body>' % STYLE]
                         + self.parts + ['</body></html>']) + '\n'
