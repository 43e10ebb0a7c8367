"""``/pyramid-admin``: a server's settings (the command, its form and their validation), the results
channel, the permission report."""
