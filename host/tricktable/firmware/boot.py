# Runs at every power-up and every soft reset, in the raw REPL too (ports/rp2/main.c and
# ports/esp32/main.c run boot.py, then main.py only in the friendly REPL): the watchdog is
# fed from a timer until main.py's firmware takes it over (maintenance.py), so mpremote,
# Thonny and `tricktable board setup` never see the board reset under them.
try:
    import maintenance

    maintenance.begin()
except Exception as e:  # never stop a board from booting: main.py still runs
    print("boot.py:", e)
