"""Setting up a table's boards over USB serial: ``tricktable board setup PORT``.

``rawrepl`` speaks MicroPython's raw REPL on mpremote's serial transport;
``bundle`` compiles the firmware to .mpy with mpy-cross and names every file's SHA-256;
``boardfile`` builds and checks a board's config.json with the firmware's own validation;
``passwords`` adds the board's user to the mosquitto password file and checks the ACL;
``setup`` runs the whole procedure (version check, write to temporary names, verify, rename,
read back).
"""
