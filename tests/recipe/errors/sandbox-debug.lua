-- nor debug
debug.sethook()
