-- nor require
local m = require("os")
