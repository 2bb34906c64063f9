"""The pages: static HTML, CSS and JavaScript from ``web/static``, and the routes that hand
them out.

- :mod:`~bunco.web.pages.night_pages`: a night's pages (home, host, table, player,
  screen...) and the two small documents the set-up and table pages read;
- :mod:`~bunco.web.pages.club_pages`: the club's pages;
- :mod:`~bunco.web.pages.assets`: the static files, read once at start-up with their
  Brotli and gzip forms, under versioned addresses;
- :mod:`~bunco.web.pages.bundle`: a page's JavaScript modules joined into one script.
"""
