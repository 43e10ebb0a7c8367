"""The process's Discord side: the client, its command tree (``/pyramid`` gathered from the
features, ``/pyramid-admin``), the binding of every feature's components, and the ``Host`` that builds
what runs between clicks. It wires the features together; no feature imports it."""
