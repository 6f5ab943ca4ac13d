-- nor dofile
dofile("calls.lua")
