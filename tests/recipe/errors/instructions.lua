-- a loop that never ends
while true do end
