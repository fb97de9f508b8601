"""The online card room: tables in the browser, seats for friends and bots.

``tripletopper serve`` runs :func:`tripletopper.server.app.create_app` on
uvicorn.  Modules: ``app`` (HTTP API and pages), ``protocol`` (the websocket),
``tables`` (the authoritative game loop, bots and clocks), ``storage`` and
``schema`` (SQLAlchemy; migrations in ``migrations``).
"""
