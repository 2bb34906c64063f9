"""What a night gives as files.

- :mod:`~bunco.web.files.downloads`: the heavy downloads (PDFs, the HTML report), made
  once per night version in a process of their own, limited per token;
- :mod:`~bunco.web.files.export`: the party log a night exports, as ``bunco play`` writes it.
"""
