"""The club's host as an appliance: ``tricktable up`` runs a night's programs as one supervised
process tree, ``doctor`` checks the club before a night, backups after every game, and a
systemd unit that starts it all at boot (docs/appliance.md).

Modules: ``settings`` (the club file's ``[host]`` section and the data directory),
``credentials`` (each part's broker password and the console token, in 0600 files),
``supervisor`` (child processes, restarted when they die, one log), ``up`` (what runs, and the
addresses), ``backup``, ``doctor`` and ``unit`` (the systemd unit).
"""
