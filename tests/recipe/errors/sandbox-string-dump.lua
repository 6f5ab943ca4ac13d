-- nor string.dump
local b = string.dump(function() end)
