"""HTML pages with matplotlib plots (the `report` extra): html.py is the
plumbing any report uses, design.py the page of `pipvm sim --report`."""
