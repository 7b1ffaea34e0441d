"""The serial table clock: protocol, driver, emulator and firmware (issue 5)."""
