"""`pipvm serve`: a game played in the browser, each seat on its own secret
link (docs/web.md).  The table and its rules (table.py, requests.py) need
only the standard library; the HTTP side (app.py, serve.py) needs the `web`
extra: `pip install 'pipvm[web]'`."""
